// ThreadSanitizer annotations for what TSan cannot see by itself. Debian's TBB is not built with
// TSan, so the happens-before edges its scheduler creates (the caller of parallel_for before each
// body, each body before parallel_for returns) are invisible, and every result a body writes would
// be reported as racing with the caller reading it. ForkJoin states those edges explicitly.
// Without TSan everything here is empty and inlines to nothing. (Per-thread scratch in parallel
// regions is a vector indexed by the arena slot, not enumerable_thread_specific, whose memory
// TBB recycles where TSan cannot follow it.)
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
void* __tsan_get_current_fiber(void);
void* __tsan_create_fiber(unsigned flags);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
void __tsan_func_exit(void);
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

/// Fibers (the host runtime's CUDA threads) as TSan contexts of their own; null without TSan.
/// TSan fibers are never destroyed: TSan unmaps a destroyed fiber's state without telling its own
/// shadow memory, and a fiber stack mapped at that address later was reported as racing with the
/// fiber's creation. The host runtime keeps one per pooled fiber stack and reuses it for every
/// CUDA thread that runs on that stack.
inline void* current_fiber() {
#ifdef MEMCARLO_TSAN
  return __tsan_get_current_fiber();
#else
  return nullptr;
#endif
}
inline void* create_fiber() {
#ifdef MEMCARLO_TSAN
  return __tsan_create_fiber(0);
#else
  return nullptr;
#endif
}
/// Flags 0: the switch synchronises, so what one fiber did happens before what the next does.
inline void switch_to_fiber([[maybe_unused]] void* fiber) {
#ifdef MEMCARLO_TSAN
  __tsan_switch_to_fiber(fiber, 0);
#endif
}

/// Pops the calling function's frame from TSan's shadow stack: for a fiber's entry function that
/// never returns (it jumps away when its thread ends), before the fiber is reused for the next
/// thread; otherwise each reuse would leave one frame more, until TSan's stack depot overflows.
inline void leave_fiber_entry() {
#ifdef MEMCARLO_TSAN
  __tsan_func_exit();
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
