// Device-wide CUB algorithms for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh):
// DeviceReduce, DeviceScan, DeviceRadixSort and DeviceSelect compute their results on the CPU, in
// the calling host thread, and are not traced (a note on stderr says so once). CUB's two-phase
// protocol works as in CUB: a call with d_temp_storage == nullptr only sets temp_storage_bytes (to
// a small positive size), the second call computes. The stream argument is accepted and ignored
// (the emulation's launches are synchronous too).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "../detail/memcarlo_cub.cuh"
#include "../detail/memcarlo_radix.cuh"
#include "../util_type.cuh"

namespace cub {
namespace memcarlo_detail {

/// The first phase of CUB's protocol: true (and the size set) when only the size was asked.
inline bool size_query(void* d_temp_storage, std::size_t& temp_storage_bytes, const char* what) {
  note_untraced(what);
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = 16;
    return true;
  }
  return false;
}

}  // namespace memcarlo_detail

struct DeviceReduce {
  template <class Input, class Output, class Count, class Op, class Init>
  static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                            Output d_out, Count num_items, Op reduction_op, Init init,
                            cudaStream_t stream = 0) {
    return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, reduction_op, init,
                  "cub::DeviceReduce::Reduce", stream);
  }
  template <class Input, class Output, class Count>
  static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                         Output d_out, Count num_items, cudaStream_t stream = 0) {
    using Value = std::decay_t<decltype(*d_in)>;
    return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Sum{}, Value{},
                  "cub::DeviceReduce::Sum", stream);
  }
  template <class Input, class Output, class Count>
  static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                         Output d_out, Count num_items, cudaStream_t stream = 0) {
    return extremum(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Min{},
                    "cub::DeviceReduce::Min", stream);
  }
  template <class Input, class Output, class Count>
  static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                         Output d_out, Count num_items, cudaStream_t stream = 0) {
    return extremum(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Max{},
                    "cub::DeviceReduce::Max", stream);
  }
  /// The first smallest (largest) item and its index, as a KeyValuePair<index, value>.
  template <class Input, class Output, class Count>
  static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                            Output d_out, Count num_items, cudaStream_t stream = 0) {
    return arg_extremum(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, true, stream);
  }
  template <class Input, class Output, class Count>
  static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                            Output d_out, Count num_items, cudaStream_t stream = 0) {
    return arg_extremum(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, false, stream);
  }

 private:
  template <class Input, class Output, class Count, class Op, class Init>
  static cudaError_t reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                            Output d_out, Count num_items, Op reduction_op, Init init,
                            const char* what, cudaStream_t) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes, what)) {
      return cudaSuccess;
    }
    auto result = init;
    for (Count i = 0; i < num_items; ++i) {
      result = reduction_op(result, d_in[i]);
    }
    *d_out = result;
    return cudaSuccess;
  }
  template <class Input, class Output, class Count, class Op>
  static cudaError_t extremum(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                              Output d_out, Count num_items, Op op, const char* what,
                              cudaStream_t) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes, what)) {
      return cudaSuccess;
    }
    if (num_items > 0) {
      auto result = d_in[0];
      for (Count i = 1; i < num_items; ++i) {
        result = op(result, d_in[i]);
      }
      *d_out = result;
    }
    return cudaSuccess;
  }
  template <class Input, class Output, class Count>
  static cudaError_t arg_extremum(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                                  Output d_out, Count num_items, bool smallest, cudaStream_t) {
    if (memcarlo_detail::size_query(
            d_temp_storage, temp_storage_bytes,
            smallest ? "cub::DeviceReduce::ArgMin" : "cub::DeviceReduce::ArgMax")) {
      return cudaSuccess;
    }
    Count best = 0;
    for (Count i = 1; i < num_items; ++i) {
      if (smallest ? d_in[i] < d_in[best] : d_in[best] < d_in[i]) {
        best = i;
      }
    }
    if (num_items > 0) {
      d_out->key = static_cast<decltype(d_out->key)>(best);
      d_out->value = d_in[best];
    }
    return cudaSuccess;
  }
};

struct DeviceScan {
  template <class Input, class Output, class Op, class Init, class Count>
  static cudaError_t ExclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                   Input d_in, Output d_out, Op scan_op, Init init_value,
                                   Count num_items, cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceScan::ExclusiveScan")) {
      return cudaSuccess;
    }
    auto running = init_value;
    for (Count i = 0; i < num_items; ++i) {
      const auto item = d_in[i];  // before the write: d_in may be d_out
      d_out[i] = running;
      running = scan_op(running, item);
    }
    return cudaSuccess;
  }
  template <class Input, class Output, class Op, class Count>
  static cudaError_t InclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                   Input d_in, Output d_out, Op scan_op, Count num_items,
                                   cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceScan::InclusiveScan")) {
      return cudaSuccess;
    }
    if (num_items > 0) {
      auto running = d_in[0];
      d_out[0] = running;
      for (Count i = 1; i < num_items; ++i) {
        running = scan_op(running, d_in[i]);
        d_out[i] = running;
      }
    }
    return cudaSuccess;
  }
  template <class Input, class Output, class Count>
  static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                                  Output d_out, Count num_items, cudaStream_t stream = 0) {
    using Value = std::decay_t<decltype(*d_in)>;
    memcarlo_detail::note_untraced("cub::DeviceScan::ExclusiveSum");
    return ExclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_out, cub::Sum{}, Value{},
                         num_items, stream);
  }
  template <class Input, class Output, class Count>
  static cudaError_t InclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                                  Output d_out, Count num_items, cudaStream_t stream = 0) {
    memcarlo_detail::note_untraced("cub::DeviceScan::InclusiveSum");
    return InclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_out, cub::Sum{}, num_items,
                         stream);
  }
};

struct DeviceRadixSort {
  template <class Key, class Value, class Count>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                               const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                               Value* d_values_out, Count num_items, int begin_bit = 0,
                               int end_bit = sizeof(Key) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                d_values_out, num_items, begin_bit, end_bit, false, stream);
  }
  template <class Key, class Value, class Count>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         const Key* d_keys_in, Key* d_keys_out,
                                         const Value* d_values_in, Value* d_values_out,
                                         Count num_items, int begin_bit = 0,
                                         int end_bit = sizeof(Key) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                d_values_out, num_items, begin_bit, end_bit, true, stream);
  }
  template <class Key, class Count>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                              const Key* d_keys_in, Key* d_keys_out, Count num_items,
                              int begin_bit = 0, int end_bit = sizeof(Key) * 8,
                              cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                static_cast<const char*>(nullptr), static_cast<char*>(nullptr), num_items,
                begin_bit, end_bit, false, stream);
  }
  template <class Key, class Count>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        const Key* d_keys_in, Key* d_keys_out, Count num_items,
                                        int begin_bit = 0, int end_bit = sizeof(Key) * 8,
                                        cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                static_cast<const char*>(nullptr), static_cast<char*>(nullptr), num_items,
                begin_bit, end_bit, true, stream);
  }
  // The DoubleBuffer forms sort into the current buffers (which CUB allows: the result is in
  // whichever buffer `selector` names afterwards).
  template <class Key, class Value, class Count>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                               DoubleBuffer<Key>& d_keys, DoubleBuffer<Value>& d_values,
                               Count num_items, int begin_bit = 0, int end_bit = sizeof(Key) * 8,
                               cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(),
                d_values.Current(), d_values.Current(), num_items, begin_bit, end_bit, false,
                stream);
  }
  template <class Key, class Value, class Count>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         DoubleBuffer<Key>& d_keys, DoubleBuffer<Value>& d_values,
                                         Count num_items, int begin_bit = 0,
                                         int end_bit = sizeof(Key) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(),
                d_values.Current(), d_values.Current(), num_items, begin_bit, end_bit, true,
                stream);
  }
  template <class Key, class Count>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                              DoubleBuffer<Key>& d_keys, Count num_items, int begin_bit = 0,
                              int end_bit = sizeof(Key) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(),
                static_cast<const char*>(nullptr), static_cast<char*>(nullptr), num_items,
                begin_bit, end_bit, false, stream);
  }
  template <class Key, class Count>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        DoubleBuffer<Key>& d_keys, Count num_items,
                                        int begin_bit = 0, int end_bit = sizeof(Key) * 8,
                                        cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(),
                static_cast<const char*>(nullptr), static_cast<char*>(nullptr), num_items,
                begin_bit, end_bit, true, stream);
  }

 private:
  template <class Key, class Value, class Count>
  static cudaError_t sort(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* keys_in,
                          Key* keys_out, const Value* values_in, Value* values_out, Count num_items,
                          int begin_bit, int end_bit, bool descending, cudaStream_t) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes, "cub::DeviceRadixSort")) {
      return cudaSuccess;
    }
    memcarlo_detail::radix_sort(keys_in, keys_out, values_in, values_out, num_items, begin_bit,
                                end_bit, descending);
    return cudaSuccess;
  }
};

struct DeviceSelect {
  template <class Input, class Flags, class Output, class NumSelected, class Count>
  static cudaError_t Flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                             Flags d_flags, Output d_out, NumSelected d_num_selected_out,
                             Count num_items, cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceSelect::Flagged")) {
      return cudaSuccess;
    }
    Count selected = 0;
    for (Count i = 0; i < num_items; ++i) {
      if (d_flags[i]) {
        d_out[selected++] = d_in[i];
      }
    }
    *d_num_selected_out = selected;
    return cudaSuccess;
  }
  template <class Input, class Output, class NumSelected, class Count, class Predicate>
  static cudaError_t If(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                        Output d_out, NumSelected d_num_selected_out, Count num_items,
                        Predicate select_op, cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes, "cub::DeviceSelect::If")) {
      return cudaSuccess;
    }
    Count selected = 0;
    for (Count i = 0; i < num_items; ++i) {
      if (select_op(d_in[i])) {
        d_out[selected++] = d_in[i];
      }
    }
    *d_num_selected_out = selected;
    return cudaSuccess;
  }
  template <class Input, class Output, class NumSelected, class Count>
  static cudaError_t Unique(void* d_temp_storage, std::size_t& temp_storage_bytes, Input d_in,
                            Output d_out, NumSelected d_num_selected_out, Count num_items,
                            cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceSelect::Unique")) {
      return cudaSuccess;
    }
    Count selected = 0;
    for (Count i = 0; i < num_items; ++i) {
      if (i == 0 || !(d_in[i] == d_in[i - 1])) {
        d_out[selected++] = d_in[i];
      }
    }
    *d_num_selected_out = selected;
    return cudaSuccess;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
