// What memcarlo's host-backend stand-in for CUB shares between its headers (docs/host-runtime.md,
// "CUB and Thrust"): the namespace, the tracing of the global-memory accesses that BlockLoad,
// BlockStore and the Load/StoreDirect* functions make on the user's behalf, raw exchange storage,
// and the thread's rank in its block.
//
// This is not NVIDIA's CUB: it implements the public API of CUB's block and warp primitives on
// the emulation's barriers (__syncthreads, __syncwarp) with an exchange through the TempStorage
// the program declares, and its device-wide algorithms on the host. The instrumenter probes the
// program's own accesses; the accesses CUB makes inside its headers are recorded here, under the
// loads table below (one static load per primitive).
// NOLINTBEGIN(readability-identifier-naming): the names in these files are CUB's.
#pragma once

#include <cstddef>
#include <cstdio>
#include <iterator>
#include <new>
#include <type_traits>

#include "memcarlo/probe_api.h"

#define CUB_VERSION 300000
#define CUB_NAMESPACE_BEGIN namespace cub {
#define CUB_NAMESPACE_END }
#define CUB_RUNTIME_FUNCTION
#define CUB_PTX_ARCH 0

// Both runtimes define it (memcarlo/tafe.h declares it too).
extern "C" void memcarlo_record_annotation(const char* kind, const char* payload_json);

namespace cub {
namespace memcarlo_detail {

/// The unit under which the stand-in's accesses are traced (a constant, not a source's hash).
inline constexpr unsigned trace_unit = 0x63756221u;
enum StaticLoad : unsigned {
  block_load_read = 0,
  block_store_write = 1,
  direct_load_read = 2,
  direct_store_write = 3,
  thread_load_read = 4,
  thread_store_write = 5,
  iterator_read = 6,
  iterator_write = 7,
  warp_load_read = 8,
  warp_store_write = 9,
};
inline constexpr char loads_table[] =
    "[{\"id\":0,\"function\":\"cub::BlockLoad::Load\",\"kernels\":[],\"file\":\"cub/block/"
    "block_load.cuh\",\"line\":0,\"column\":0,\"expression\":\"cub::BlockLoad::Load(block_itr, "
    "items)\",\"kind\":\"read\",\"element_type\":\"\",\"element_size\":0,\"base\":\"block_itr\","
    "\"address_space\":\"unknown\",\"loop_depth\":1,\"sequence\":0,\"depends_on\":[]},"
    "{\"id\":1,\"function\":\"cub::BlockStore::Store\",\"kernels\":[],\"file\":\"cub/block/"
    "block_store.cuh\",\"line\":0,\"column\":0,\"expression\":\"cub::BlockStore::Store(block_itr, "
    "items)\",\"kind\":\"write\",\"element_type\":\"\",\"element_size\":0,\"base\":\"block_itr\","
    "\"address_space\":\"unknown\",\"loop_depth\":1,\"sequence\":1,\"depends_on\":[]},"
    "{\"id\":2,\"function\":\"cub::LoadDirect\",\"kernels\":[],\"file\":\"cub/block/"
    "block_load.cuh\",\"line\":0,\"column\":0,\"expression\":\"cub::LoadDirect*(linear_tid, "
    "block_itr, items)\",\"kind\":\"read\",\"element_type\":\"\",\"element_size\":0,\"base\":"
    "\"block_itr\",\"address_space\":\"unknown\",\"loop_depth\":1,\"sequence\":2,\"depends_on\":[]}"
    ","
    "{\"id\":3,\"function\":\"cub::StoreDirect\",\"kernels\":[],\"file\":\"cub/block/"
    "block_store.cuh\",\"line\":0,\"column\":0,\"expression\":\"cub::StoreDirect*(linear_tid, "
    "block_itr, items)\",\"kind\":\"write\",\"element_type\":\"\",\"element_size\":0,\"base\":"
    "\"block_itr\",\"address_space\":\"unknown\",\"loop_depth\":1,\"sequence\":3,\"depends_on\":[]}"
    ",{\"id\":4,\"function\":\"cub::ThreadLoad\",\"kernels\":[],\"file\":\"cub/thread/"
    "thread_load.cuh\","
    "\"line\":0,\"column\":0,\"expression\":\"cub::ThreadLoad<modifier>(ptr)\",\"kind\":\"read\","
    "\"element_type\":\"\",\"element_size\":0,\"base\":\"ptr\",\"address_space\":"
    "\"unknown\",\"loop_depth\":1,\"sequence\":4,\"depends_on\":[]}"
    ",{\"id\":5,\"function\":\"cub::ThreadStore\",\"kernels\":[],\"file\":\"cub/thread/"
    "thread_store.cuh\","
    "\"line\":0,\"column\":0,\"expression\":\"cub::ThreadStore<modifier>(ptr, "
    "val)\",\"kind\":\"write\","
    "\"element_type\":\"\",\"element_size\":0,\"base\":\"ptr\",\"address_space\":"
    "\"unknown\",\"loop_depth\":1,\"sequence\":5,\"depends_on\":[]}"
    ",{\"id\":6,\"function\":\"cub input iterators\",\"kernels\":[],\"file\":\"cub/iterator/\","
    "\"line\":0,\"column\":0,\"expression\":\"itr[i] (a CUB iterator reading "
    "ptr)\",\"kind\":\"read\","
    "\"element_type\":\"\",\"element_size\":0,\"base\":\"ptr\",\"address_space\":"
    "\"unknown\",\"loop_depth\":1,\"sequence\":6,\"depends_on\":[]}"
    ",{\"id\":7,\"function\":\"cub output iterators\",\"kernels\":[],\"file\":\"cub/iterator/\","
    "\"line\":0,\"column\":0,\"expression\":\"itr[i] = value (a CUB iterator writing "
    "ptr)\",\"kind\":\"write\","
    "\"element_type\":\"\",\"element_size\":0,\"base\":\"ptr\",\"address_space\":"
    "\"unknown\",\"loop_depth\":1,\"sequence\":7,\"depends_on\":[]}"
    ",{\"id\":8,\"function\":\"cub::WarpLoad::Load\",\"kernels\":[],\"file\":\"cub/warp/"
    "warp_load.cuh\",\"line\":0,\"column\":0,\"expression\":\"cub::WarpLoad::Load(block_itr, "
    "items)\",\"kind\":\"read\",\"element_type\":\"\",\"element_size\":0,\"base\":\"block_itr\","
    "\"address_space\":\"unknown\",\"loop_depth\":1,\"sequence\":8,\"depends_on\":[]}"
    ",{\"id\":9,\"function\":\"cub::WarpStore::Store\",\"kernels\":[],\"file\":\"cub/warp/"
    "warp_store.cuh\",\"line\":0,\"column\":0,\"expression\":\"cub::WarpStore::Store(block_itr, "
    "items)\",\"kind\":\"write\",\"element_type\":\"\",\"element_size\":0,\"base\":\"block_itr\","
    "\"address_space\":\"unknown\",\"loop_depth\":1,\"sequence\":9,\"depends_on\":[]}"
    "]";
/// Registered once per program, by whichever translation unit initializes it first.
inline const ::memcarlo_detail::LoadsRegistrar loads_registrar(trace_unit, loads_table);

/// Records an access the stand-in makes on the program's behalf (ignored outside kernels).
template <class Value>
inline void record(const Value* address, StaticLoad load) {
  (void)&loads_registrar;
  memcarlo_record_access(trace_unit, load, static_cast<const void*>(address), sizeof(Value));
}

/// The pointer through which an iterator reads and writes memory: the iterator itself when it is
/// a pointer, the wrapped pointer of CUB's iterators over memory (CacheModifiedInputIterator,
/// ...: their `memcarlo_pointer()`); nullptr_t for iterators that compute their values.
template <class Iterator>
inline auto traced_pointer(const Iterator& iterator) {
  if constexpr (std::is_pointer_v<Iterator>) {
    return iterator;
  } else if constexpr (requires { iterator.memcarlo_pointer(); }) {
    return iterator.memcarlo_pointer();
  } else {
    return nullptr;
  }
}

/// `*(iterator + offset)` as an lvalue or value, recording the access when the iterator goes
/// through memory (a pointer or CUB's iterators over one; computing iterators are not accesses).
template <class Iterator>
inline decltype(auto) access(Iterator iterator, std::ptrdiff_t offset, StaticLoad load) {
  auto pointer = traced_pointer(iterator);
  if constexpr (std::is_null_pointer_v<decltype(pointer)>) {
    return iterator[offset];
  } else {
    record(pointer + offset, load);
    return pointer[offset];
  }
}

/// `*(iterator + offset)` without recording it (an item another thread's access has recorded).
template <class Iterator>
inline decltype(auto) peek(Iterator iterator, std::ptrdiff_t offset) {
  auto pointer = traced_pointer(iterator);
  if constexpr (std::is_null_pointer_v<decltype(pointer)>) {
    return iterator[offset];
  } else {
    return pointer[offset];
  }
}

/// Storage for `count` values of Value that a block or warp exchanges, without constructing them
/// (CUB's TempStorage is uninitialized too, so that it can share a union).
template <class Value, int count>
struct Slots {
  alignas(Value) unsigned char bytes[sizeof(Value) * (count > 0 ? count : 1)];
  Value* data() { return std::launder(reinterpret_cast<Value*>(bytes)); }
  void put(int index, const Value& value) {
    ::new (static_cast<void*>(bytes + sizeof(Value) * index)) Value(value);
  }
  const Value& get(int index) { return data()[index]; }
};

/// The calling thread's rank in a block of the given dimensions (CUB's linear_tid).
template <int dim_x, int dim_y, int dim_z>
inline int linear_tid() {
  return dim_y == 1 && dim_z == 1
             ? static_cast<int>(threadIdx.x)
             : static_cast<int>((threadIdx.z * dim_y + threadIdx.y) * dim_x + threadIdx.x);
}

/// The calling thread's rank in its block as launched (warps are cut from it).
inline int block_rank() {
  return static_cast<int>((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x);
}

inline int block_threads_launched() {
  return static_cast<int>(blockDim.x * blockDim.y * blockDim.z);
}

/// The lanes of the calling thread's warp that exist (fewer in a partial last warp).
inline unsigned warp_lanes() {
  const int rank = block_rank();
  const int left = block_threads_launched() - (rank - rank % 32);
  return left >= 32 ? 0xffffffffu : (1u << left) - 1u;
}

/// The accumulate type of a reduction or scan: what the operator returns for two values.
template <class Value, class Op>
using accumulator_t = std::decay_t<std::invoke_result_t<Op&, const Value&, const Value&>>;

/// Notes once per program, on stderr and in the trace (an `untraced_work` annotation, which
/// `memcarlo trace info` lists), that a device-wide call ran on the CPU, untraced.
inline void note_untraced(const char* what) {
  static bool noted = false;
  if (!noted) {
    noted = true;
    memcarlo_record_annotation("untraced_work",
                               "{\"library\": \"cub\", \"what\": \"CUB's device-wide "
                               "algorithms ran on the CPU\"}");
    std::fprintf(stderr,
                 "memcarlo: note: %s (and any other CUB device-wide call) runs on the CPU in the "
                 "host backend; its memory accesses are not traced\n",
                 what);
  }
}

}  // namespace memcarlo_detail

/// CUB's binary operators (CUB 2 and earlier; CUDA 13's CUB takes cuda::std::plus and the like,
/// which any functor here stands in for).
struct Sum {
  template <class Left, class Right>
  constexpr auto operator()(const Left& left, const Right& right) const {
    return left + right;
  }
};
struct Max {
  template <class Left, class Right>
  constexpr auto operator()(const Left& left, const Right& right) const {
    return left < right ? right : left;
  }
};
struct Min {
  template <class Left, class Right>
  constexpr auto operator()(const Left& left, const Right& right) const {
    return right < left ? right : left;
  }
};

/// The thread's lane in its warp, and its warp's rank in the block.
inline unsigned LaneId() {
  return static_cast<unsigned>(memcarlo_detail::block_rank()) % 32u;
}
inline unsigned WarpId() {
  return static_cast<unsigned>(memcarlo_detail::block_rank()) / 32u;
}

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
