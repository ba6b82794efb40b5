// cub::KeyValuePair, cub::DoubleBuffer, cub::NullType and cub::Uninitialized for memcarlo's host
// backend (see cub/detail/memcarlo_cub.cuh).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "detail/memcarlo_cub.cuh"

namespace cub {

/// The absence of a type (BlockRadixSort's default value type).
struct NullType {};

/// Storage for a Value, not constructed (for unions of TempStorage); Alias() is the Value.
template <class Value>
struct Uninitialized {
  alignas(Value) unsigned char storage[sizeof(Value)];
  Value& Alias() { return *std::launder(reinterpret_cast<Value*>(storage)); }
};

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
