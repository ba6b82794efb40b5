// cub::ThreadStore and cub::CacheStoreModifier for memcarlo's host backend (see
// cub/detail/memcarlo_cub.cuh): a plain write, whatever the cache modifier, recorded when it
// writes memory.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {

enum CacheStoreModifier {
  STORE_DEFAULT,
  STORE_WB,
  STORE_CG,
  STORE_CS,
  STORE_WT,
  STORE_VOLATILE,
};

template <CacheStoreModifier modifier = STORE_DEFAULT, class Iterator, class Value>
inline void ThreadStore(Iterator itr, Value val) {
  auto pointer = memcarlo_detail::traced_pointer(itr);
  if constexpr (std::is_null_pointer_v<decltype(pointer)>) {
    *itr = val;
  } else {
    memcarlo_detail::record(pointer, memcarlo_detail::thread_store_write);
    *pointer = val;
  }
}

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
