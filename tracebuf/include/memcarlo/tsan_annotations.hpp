// ThreadSanitizer annotations for what TSan cannot see by itself. Debian's TBB is not built with
// TSan, so the happens-before edges its scheduler creates (the caller of parallel_for before each
// body, each body before parallel_for returns) are invisible, and every result a body writes would
// be reported as racing with the caller reading it. ForkJoin states those edges explicitly.
// Without TSan everything here is empty and inlines to nothing.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define MEMCARLO_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MEMCARLO_TSAN 1
#endif
#endif

#ifdef MEMCARLO_TSAN
extern "C" {
void __tsan_acquire(void* address);
void __tsan_release(void* address);
}
#endif

namespace memcarlo::tsan {

inline void release([[maybe_unused]] void* token) {
#ifdef MEMCARLO_TSAN
  __tsan_release(token);
#endif
}

inline void acquire([[maybe_unused]] void* token) {
#ifdef MEMCARLO_TSAN
  __tsan_acquire(token);
#endif
}

/// One fork-join parallel region (a tbb::parallel_for, parallel_sort, task_arena::execute):
/// construct it before the region (what the caller did happens before every body), call enter()
/// first and leave() last in each body, and join() after the region (every body happens before
/// what the caller does next). These are exactly the guarantees TBB gives.
class ForkJoin {
 public:
  ForkJoin() { release(&fork_); }
  void enter() { acquire(&fork_); }
  void leave() { release(&join_); }
  void join() { acquire(&join_); }

 private:
  char fork_ = 0;
  char join_ = 0;
};

}  // namespace memcarlo::tsan
