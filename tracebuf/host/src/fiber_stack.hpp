// Stacks for the fibers that run CUDA threads: mmap'ed with a guard page below, handed out from a
// per-OS-thread pool so that a block whose threads never wait reuses one stack for all of them.
#pragma once

#include <cstddef>
#include <vector>

namespace memcarlo::host::detail {

struct FiberStack {
  void* bottom = nullptr;  // lowest usable address (the guard page lies below it)
  std::size_t size = 0;    // usable bytes
  void* tsan_fiber = nullptr;  // ThreadSanitizer's context for the fiber on this stack (TSan only)
  [[nodiscard]] void* top() const { return static_cast<char*>(bottom) + size; }
};

class FiberStackPool {
 public:
  FiberStackPool() = default;
  FiberStackPool(const FiberStackPool&) = delete;
  FiberStackPool& operator=(const FiberStackPool&) = delete;
  ~FiberStackPool();

  /// A stack of `size` usable bytes (rounded up to pages); reports and exits if none can be mapped.
  FiberStack acquire(std::size_t size);
  void release(FiberStack stack);

 private:
  std::vector<FiberStack> free_;
};

}  // namespace memcarlo::host::detail
