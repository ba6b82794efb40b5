// cub::KeyValuePair and cub::DoubleBuffer for memcarlo's host backend (see
// cub/detail/memcarlo_cub.cuh).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "detail/memcarlo_cub.cuh"

namespace cub {

template <class Key, class Value>
struct KeyValuePair {
  using Key_ = Key;
  Key key;
  Value value;
  KeyValuePair() = default;
  KeyValuePair(const Key& k, const Value& v) : key(k), value(v) {}
  bool operator!=(const KeyValuePair& other) const {
    return value != other.value || key != other.key;
  }
};

/// Two buffers of the same size, `selector` naming the current one.
template <class Value>
struct DoubleBuffer {
  Value* d_buffers[2] = {nullptr, nullptr};
  int selector = 0;
  DoubleBuffer() = default;
  DoubleBuffer(Value* d_current, Value* d_alternate) : d_buffers{d_current, d_alternate} {}
  Value* Current() { return d_buffers[selector]; }
  Value* Alternate() { return d_buffers[selector ^ 1]; }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
