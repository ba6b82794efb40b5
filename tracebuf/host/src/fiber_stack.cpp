// Guarded, lazily committed fiber stacks: only the pages a CUDA thread touches cost memory, and
// overflowing into the guard page faults instead of corrupting a neighbour's stack.
#include "fiber_stack.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "diagnostics.hpp"
#include "memcarlo/tsan_annotations.hpp"
#include "page_size.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define MEMCARLO_ASAN_STACKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEMCARLO_ASAN_STACKS 1
#endif
#endif
#ifdef MEMCARLO_ASAN_STACKS
#include <sanitizer/asan_interface.h>
#define MEMCARLO_UNPOISON(address, size) ASAN_UNPOISON_MEMORY_REGION(address, size)
#else
#define MEMCARLO_UNPOISON(address, size) ((void)(address), (void)(size))
#endif

namespace memcarlo::host::detail {
FiberStackPool::~FiberStackPool() {
  for (const FiberStack& stack : free_) {
    ::munmap(static_cast<char*>(stack.bottom) - page_size(), stack.size + page_size());
  }
}

FiberStack FiberStackPool::acquire(std::size_t size) {
  const std::size_t rounded =
      (size + page_size() - 1) / page_size() * page_size();
  while (!free_.empty()) {
    FiberStack stack = free_.back();
    free_.pop_back();
    if (stack.size == rounded) {
      // A fiber that finished left its frames poisoned; the new one starts from a clean stack.
      MEMCARLO_UNPOISON(stack.bottom, stack.size);
      return stack;
    }
    ::munmap(static_cast<char*>(stack.bottom) - page_size(), stack.size + page_size());
  }
  void* mapping = ::mmap(nullptr, rounded + page_size(), PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapping == MAP_FAILED) {
    fatal(kExitSoftware, "cannot map a " + std::to_string(rounded / 1024) +
                             " KiB fiber stack for a CUDA thread: " + std::strerror(errno));
  }
  ::mprotect(mapping, page_size(), PROT_NONE);
  return FiberStack{static_cast<char*>(mapping) + page_size(), rounded, tsan::create_fiber()};
}

void FiberStackPool::release(FiberStack stack) {
  free_.push_back(stack);
}

}  // namespace memcarlo::host::detail
