// The memory shared by the device probes and the host drain thread of the cuda backend: ring
// lines in pinned, mapped host memory, per-ring producer state in device memory, and the
// per-launch configuration in __constant__ memory. Compiled by both nvcc and the host compiler.
#ifndef MEMCARLO_CUDA_RING_BUFFER_LAYOUT_H
#define MEMCARLO_CUDA_RING_BUFFER_LAYOUT_H

#include <cstddef>
#include <cstdint>

namespace memcarlo::cuda::detail {

inline constexpr std::uint32_t kLanes = 32;

/// One warp-level memory instruction as the probe writes it (paper §4.2: a line holds an address
/// per lane and the static id). Written by the lanes of one group (lane addresses) and its leader
/// (everything else); `stamp` is written last, after a system-scope fence, so a host that reads
/// `stamp == position + 1` (acquire) sees the whole line.
struct RingLine {
  std::uint64_t addresses[kLanes];  // by lane; only lanes in active_mask are written
  std::uint32_t tu;                 // translation unit hash (memcarlo_tu)
  std::uint32_t local_id;           // static id within the translation unit
  std::uint32_t active_mask;        // lanes whose address is global memory (never 0)
  std::uint32_t block;              // linear block id in the grid
  std::uint32_t group_mask;         // lanes that executed the access together, global or not
  std::uint8_t element_size;        // bytes, clamped to 255
  std::uint8_t barriers;            // __syncthreads crossed before it: not observable, always 0
  std::uint16_t reserved;
  std::uint64_t stamp;  // ring position + 1 once complete; anything else: not (yet) written
};
static_assert(sizeof(RingLine) == 288, "the device and host compilers must agree on RingLine");
static_assert(offsetof(RingLine, tu) == 256 && offsetof(RingLine, stamp) == 280,
              "the device and host compilers must agree on RingLine");

/// Producer side of one warp ring, in device memory: positions are reserved with atomicAdd, so
/// divergent groups of one warp (independent thread scheduling) and warps of blocks that share a
/// block buffer can all produce into the same ring.
struct RingState {
  unsigned long long reserved;        // next position to hand out
  unsigned long long known_consumed;  // last value of the host's `consumed` seen by a producer
};
static_assert(sizeof(RingState) == 16, "RingState is an array element on the device");

/// What the probes of one launch read, uploaded to __constant__ memory before a traced launch and
/// cleared (enabled = 0) after it. Pointers are device pointers (mapped host memory for `lines`,
/// `consumed` and `stop`).
struct DeviceConfig {
  std::uint32_t enabled;          // 0: every probe returns at once
  std::uint32_t warps_per_block;  // warps per block of this launch
  std::uint32_t slot_count;       // block buffers; block b uses slot (b - first) % slot_count
  std::uint32_t lines_per_ring;   // lines in each warp ring
  std::uint64_t snapshot_first;   // traced blocks: [first, first + count)
  std::uint64_t snapshot_count;
  RingLine* lines;          // [ring * lines_per_ring + position % lines_per_ring]
  std::uint64_t* consumed;  // [ring]: lines the host has copied out (host writes)
  std::uint32_t* stop;      // host sets 1: probes give up (cut-off)
  RingState* ring_state;    // [ring], device memory
};

/// A reservation abandoned because the host set `stop`.
inline constexpr unsigned long long kAbandonedPosition = ~0ull;

/// Probes re-read the host's stop flag (a system-memory read) once every this many reservations
/// of a ring, and on every spin while the ring is full.
inline constexpr unsigned long long kStopPollInterval = 16;

}  // namespace memcarlo::cuda::detail

#endif  // MEMCARLO_CUDA_RING_BUFFER_LAYOUT_H
