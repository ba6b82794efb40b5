// cub::ThreadLoad and cub::CacheLoadModifier for memcarlo's host backend (see
// cub/detail/memcarlo_cub.cuh): a plain read, whatever the cache modifier (the emulation has no
// caches; the simulator models them from the trace), recorded when it reads memory.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <iterator>

#include "../detail/memcarlo_cub.cuh"

namespace cub {

enum CacheLoadModifier {
  LOAD_DEFAULT,
  LOAD_CA,
  LOAD_CG,
  LOAD_CS,
  LOAD_CV,
  LOAD_LDG,
  LOAD_VOLATILE,
};

template <CacheLoadModifier modifier = LOAD_DEFAULT, class Iterator>
inline typename std::iterator_traits<Iterator>::value_type ThreadLoad(Iterator itr) {
  auto pointer = memcarlo_detail::traced_pointer(itr);
  if constexpr (std::is_null_pointer_v<decltype(pointer)>) {
    return *itr;
  } else {
    memcarlo_detail::record(pointer, memcarlo_detail::thread_load_read);
    return *pointer;
  }
}

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
