// CUDA atomics on the host: std::atomic_ref over the same memory, so that fibers of one block and
// blocks on other OS threads see one coherent value. A thread that keeps failing atomicCAS or
// re-reading an unchanged lock with atomicExch yields, so intra-block spin locks make progress.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <atomic>
#include <concepts>
#include <type_traits>

namespace memcarlo::host::detail {

template <class Value>
concept AtomicArithmetic = (std::integral<Value> ||
                            std::floating_point<Value>)&&!std::same_as<Value, bool>;

/// Counts a spin-wait iteration of the running CUDA thread; yields its fiber now and then.
void note_spin(bool spinning);

template <class Value>
std::atomic_ref<Value> atomic_at(Value* address) {
  return std::atomic_ref<Value>(*address);
}

}  // namespace memcarlo::host::detail

template <::memcarlo::host::detail::AtomicArithmetic Value>
Value atomicAdd(Value* address, std::type_identity_t<Value> value) {
  return ::memcarlo::host::detail::atomic_at(address).fetch_add(value);
}
template <::memcarlo::host::detail::AtomicArithmetic Value>
Value atomicSub(Value* address, std::type_identity_t<Value> value) {
  return ::memcarlo::host::detail::atomic_at(address).fetch_sub(value);
}
template <::memcarlo::host::detail::AtomicArithmetic Value>
Value atomicExch(Value* address, std::type_identity_t<Value> value) {
  const Value old = ::memcarlo::host::detail::atomic_at(address).exchange(value);
  ::memcarlo::host::detail::note_spin(old == value);
  return old;
}
template <::memcarlo::host::detail::AtomicArithmetic Value>
Value atomicMin(Value* address, std::type_identity_t<Value> value) {
  auto ref = ::memcarlo::host::detail::atomic_at(address);
  Value old = ref.load();
  while (value < old && !ref.compare_exchange_weak(old, value)) {
  }
  return old;
}
template <::memcarlo::host::detail::AtomicArithmetic Value>
Value atomicMax(Value* address, std::type_identity_t<Value> value) {
  auto ref = ::memcarlo::host::detail::atomic_at(address);
  Value old = ref.load();
  while (old < value && !ref.compare_exchange_weak(old, value)) {
  }
  return old;
}
/// ((old >= limit) ? 0 : old + 1), as CUDA defines it.
inline unsigned atomicInc(unsigned* address, unsigned limit) {
  auto ref = ::memcarlo::host::detail::atomic_at(address);
  unsigned old = ref.load();
  while (!ref.compare_exchange_weak(old, old >= limit ? 0u : old + 1u)) {
  }
  return old;
}
/// (((old == 0) || (old > limit)) ? limit : old - 1), as CUDA defines it.
inline unsigned atomicDec(unsigned* address, unsigned limit) {
  auto ref = ::memcarlo::host::detail::atomic_at(address);
  unsigned old = ref.load();
  while (!ref.compare_exchange_weak(old, (old == 0u || old > limit) ? limit : old - 1u)) {
  }
  return old;
}
template <::memcarlo::host::detail::AtomicArithmetic Value>
Value atomicCAS(Value* address, std::type_identity_t<Value> compare,
                std::type_identity_t<Value> value) {
  Value expected = compare;
  const bool swapped =
      ::memcarlo::host::detail::atomic_at(address).compare_exchange_strong(expected, value);
  ::memcarlo::host::detail::note_spin(!swapped);
  return expected;
}
template <std::integral Value>
Value atomicAnd(Value* address, std::type_identity_t<Value> value) {
  return ::memcarlo::host::detail::atomic_at(address).fetch_and(value);
}
template <std::integral Value>
Value atomicOr(Value* address, std::type_identity_t<Value> value) {
  return ::memcarlo::host::detail::atomic_at(address).fetch_or(value);
}
template <std::integral Value>
Value atomicXor(Value* address, std::type_identity_t<Value> value) {
  return ::memcarlo::host::detail::atomic_at(address).fetch_xor(value);
}

// The _block and _system scopes are the same on a host where every thread shares one memory.
#define MEMCARLO_ATOMIC_SCOPES(name)                                                   \
  template <class Value, class... Rest>                                                \
  auto name##_block(Value* address, Rest... rest)->decltype(name(address, rest...)) {  \
    return name(address, rest...);                                                     \
  }                                                                                    \
  template <class Value, class... Rest>                                                \
  auto name##_system(Value* address, Rest... rest)->decltype(name(address, rest...)) { \
    return name(address, rest...);                                                     \
  }
MEMCARLO_ATOMIC_SCOPES(atomicAdd)
MEMCARLO_ATOMIC_SCOPES(atomicSub)
MEMCARLO_ATOMIC_SCOPES(atomicExch)
MEMCARLO_ATOMIC_SCOPES(atomicMin)
MEMCARLO_ATOMIC_SCOPES(atomicMax)
MEMCARLO_ATOMIC_SCOPES(atomicInc)
MEMCARLO_ATOMIC_SCOPES(atomicDec)
MEMCARLO_ATOMIC_SCOPES(atomicCAS)
MEMCARLO_ATOMIC_SCOPES(atomicAnd)
MEMCARLO_ATOMIC_SCOPES(atomicOr)
MEMCARLO_ATOMIC_SCOPES(atomicXor)
#undef MEMCARLO_ATOMIC_SCOPES
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
