// What memcarlo's stand-ins for CUB's iterators share (see cub/detail/memcarlo_cub.cuh): the
// arithmetic and comparisons of a random-access iterator, from the derived iterator's
// `memcarlo_advance(n)` and `memcarlo_position()`, and `operator[]` from its `memcarlo_at(n)`.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>
#include <iterator>

#include "memcarlo_cub.cuh"

namespace cub {
namespace memcarlo_detail {

template <class Derived, class Offset>
class RandomAccess {
 public:
  using difference_type = Offset;
  using iterator_category = std::random_access_iterator_tag;

  Derived& operator++() { return advanced(1); }
  Derived operator++(int) {
    Derived before = self();
    advanced(1);
    return before;
  }
  Derived& operator--() { return advanced(-1); }
  Derived operator--(int) {
    Derived before = self();
    advanced(-1);
    return before;
  }
  template <class Distance>
  Derived& operator+=(Distance n) {
    return advanced(static_cast<Offset>(n));
  }
  template <class Distance>
  Derived& operator-=(Distance n) {
    return advanced(-static_cast<Offset>(n));
  }
  template <class Distance>
  Derived operator+(Distance n) const {
    Derived moved = self();
    moved += n;
    return moved;
  }
  template <class Distance>
  friend Derived operator+(Distance n, const Derived& iterator) {
    return iterator + n;
  }
  template <class Distance, class = std::enable_if_t<std::is_arithmetic_v<Distance>>>
  Derived operator-(Distance n) const {
    Derived moved = self();
    moved -= n;
    return moved;
  }
  Offset operator-(const Derived& other) const {
    return static_cast<Offset>(self().memcarlo_position() - other.memcarlo_position());
  }
  decltype(auto) operator*() const { return self().memcarlo_at(0); }
  template <class Distance>
  decltype(auto) operator[](Distance n) const {
    return self().memcarlo_at(static_cast<Offset>(n));
  }
  bool operator==(const Derived& other) const {
    return self().memcarlo_position() == other.memcarlo_position();
  }
  bool operator!=(const Derived& other) const { return !(*this == other); }
  bool operator<(const Derived& other) const {
    return self().memcarlo_position() < other.memcarlo_position();
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
  Derived& self() { return static_cast<Derived&>(*this); }
  Derived& advanced(Offset n) {
    self().memcarlo_advance(n);
    return self();
  }
};

}  // namespace memcarlo_detail
}  // namespace cub
// NOLINTEND(readability-identifier-naming)
