// A growable array whose append is a store and an increment: the growth path is out of line, so
// the trial loop's pushes inline (std::vector::push_back often does not, at this call volume).
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>

#include "memcarlo/sim/hot_path.hpp"

namespace memcarlo::sim {

template <class T>
class AppendBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  MEMCARLO_HOT void push_back(const T& value) {
    if (size_ == capacity_) [[unlikely]] {
      grow();
    }
    data_[size_++] = value;
  }
  /// Room for `extra` more elements without growth: the caller writes them from the returned
  /// pointer on, then calls close_tail() with one past the last one written. Spares a loop of
  /// push_back calls the capacity check and the size update of each.
  T* open_tail(std::size_t extra) {
    if (capacity_ - size_ < extra) [[unlikely]] {
      grow(size_ + extra);
    }
    return data_.get() + size_;
  }
  void close_tail(const T* end) { size_ = static_cast<std::size_t>(end - data_.get()); }
  void clear() { size_ = 0; }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] std::size_t capacity() const { return capacity_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T* begin() { return data_.get(); }
  T* end() { return data_.get() + size_; }
  const T* begin() const { return data_.get(); }
  const T* end() const { return data_.get() + size_; }

 private:
  [[gnu::noinline]] void grow(std::size_t at_least = 0) {
    std::size_t capacity = capacity_ == 0 ? 256 : capacity_ * 2;
    while (capacity < at_least) {
      capacity *= 2;
    }
    auto bigger = std::make_unique_for_overwrite<T[]>(capacity);
    for (std::size_t i = 0; i < size_; ++i) {
      bigger[i] = data_[i];
    }
    data_ = std::move(bigger);
    capacity_ = capacity;
  }

  std::unique_ptr<T[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace memcarlo::sim
