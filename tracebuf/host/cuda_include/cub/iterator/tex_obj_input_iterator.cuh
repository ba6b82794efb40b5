// cub::TexObjInputIterator for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): bound to
// device memory, it reads that memory directly (the emulation's texture fetches are reads too),
// recorded like CacheModifiedInputIterator's.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <type_traits>

#include "../detail/memcarlo_iterator.cuh"

namespace cub {

template <class T, class OffsetT = std::ptrdiff_t>
class TexObjInputIterator
    : public memcarlo_detail::RandomAccess<TexObjInputIterator<T, OffsetT>, OffsetT> {
 public:
  using self_type = TexObjInputIterator;
  using value_type = T;
  using pointer = T*;
  using reference = T;

  TexObjInputIterator() = default;

  template <class QualifiedT>
  cudaError_t BindTexture(QualifiedT* pointer_in, std::size_t bytes = 0,
                          std::size_t tex_offset = 0) {
    (void)bytes;
    ptr = const_cast<std::remove_cv_t<QualifiedT>*>(pointer_in);
    offset = static_cast<OffsetT>(tex_offset);
    return cudaSuccess;
  }
  cudaError_t UnbindTexture() { return cudaSuccess; }

  T* memcarlo_pointer() const { return ptr + offset; }
  T memcarlo_at(OffsetT n) const {
    memcarlo_detail::record(ptr + offset + n, memcarlo_detail::iterator_read);
    return ptr[offset + n];
  }
  void memcarlo_advance(OffsetT n) { offset += n; }
  OffsetT memcarlo_position() const { return offset; }

 private:
  T* ptr = nullptr;
  OffsetT offset = 0;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
