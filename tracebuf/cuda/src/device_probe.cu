// The device side of the cuda backend (paper §4.2): memcarlo_device_record forms one warp-level
// record per group of lanes executing the same static access together and writes it into that
// warp's ring in pinned, mapped host memory. Also defines the launch hooks of probe_api.h.
#include <cuda_runtime.h>

#include "device_probe.hpp"
#include "launch_hooks.hpp"
#include "memcarlo/probe_api.h"
#include "ring_buffer_layout.h"

namespace memcarlo::cuda::detail {

/// All zero (disabled) until a traced launch uploads its configuration.
__constant__ DeviceConfig device_config;

namespace {

__device__ __forceinline__ unsigned long long load_acquire_system(const std::uint64_t* address) {
  unsigned long long value;
  asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(value) : "l"(address) : "memory");
  return value;
}

__device__ __forceinline__ unsigned load_acquire_system(const std::uint32_t* address) {
  unsigned value;
  asm volatile("ld.acquire.sys.u32 %0, [%1];" : "=r"(value) : "l"(address) : "memory");
  return value;
}

__device__ __forceinline__ void store_release_system(std::uint64_t* address,
                                                     unsigned long long value) {
  asm volatile("st.release.sys.u64 [%0], %1;" : : "l"(address), "l"(value) : "memory");
}

/// Reserves the next line of `ring`, spinning while the ring is full (the host drains it), or
/// returns kAbandonedPosition once the host has set the stop flag. Called by one lane per group.
__device__ unsigned long long reserve_position(const DeviceConfig& config,
                                               unsigned long long ring) {
  RingState& state = config.ring_state[ring];
  const unsigned long long position = atomicAdd(&state.reserved, 1ull);
  if (position % kStopPollInterval == 0 && load_acquire_system(config.stop) != 0) {
    return kAbandonedPosition;
  }
  // Lines are consumed in position order and ours is not written yet, so consumed <= position.
  unsigned long long consumed = *static_cast<volatile unsigned long long*>(&state.known_consumed);
  unsigned sleep_ns = 64;
  while (position - consumed >= config.lines_per_ring) {
    consumed = load_acquire_system(&config.consumed[ring]);
    if (position - consumed < config.lines_per_ring) {
      atomicMax(&state.known_consumed, consumed);
      break;
    }
    if (load_acquire_system(config.stop) != 0) {
      return kAbandonedPosition;
    }
    __nanosleep(sleep_ns);
    sleep_ns = sleep_ns < 8192 ? 2 * sleep_ns : sleep_ns;
  }
  return position;
}

}  // namespace

cudaError_t upload_device_config(const DeviceConfig& config) {
  const cudaError_t result = cudaMemcpyToSymbol(device_config, &config, sizeof config);
  // The copy from pageable memory may still be in flight when cudaMemcpyToSymbol returns.
  return result != cudaSuccess ? result : cudaDeviceSynchronize();
}

}  // namespace memcarlo::cuda::detail

// Lanes that execute the probe together and name the same (tu, id) are one warp instruction:
// __match_any_sync splits the lanes present (__activemask) by static access, since lanes of a
// diverged warp may run the shared function body from different call sites. Lanes of the same
// access that the hardware runs at different times (a warp that has not reconverged) give one
// record each time. Lanes whose address is not global memory (__isGlobal: shared, local,
// constant) stay in the group but not in the record; a group without a global lane writes none.
__device__ void memcarlo_device_record(unsigned tu, unsigned id, const void* address,
                                       unsigned size) {
  using namespace memcarlo::cuda::detail;
  const DeviceConfig& config = device_config;
  if (config.enabled == 0) {
    return;
  }
  const unsigned long long block =
      blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                       (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  if (block - config.snapshot_first >= config.snapshot_count) {
    return;  // outside the snapshot (a block below `first` wraps around)
  }
  const unsigned active = __activemask();
  const unsigned group = __match_any_sync(active, static_cast<unsigned long long>(tu) << 32 | id);
  const bool global = __isGlobal(address) != 0;
  const unsigned global_lanes = __ballot_sync(group, global);
  if (global_lanes == 0) {
    return;
  }
  // Warps are cut from the linear thread index, so the lane is its low five bits (= %laneid).
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned warp = thread / kLanes;
  if (warp >= config.warps_per_block) {
    return;  // a launch hook that named another block size: never write outside the buffers
  }
  const unsigned lane = thread % kLanes;
  const unsigned leader = static_cast<unsigned>(__ffs(global_lanes)) - 1;
  const unsigned long long ring =
      (block - config.snapshot_first) % config.slot_count * config.warps_per_block + warp;
  unsigned long long position = 0;
  if (lane == leader) {
    position = reserve_position(config, ring);
  }
  position = __shfl_sync(group, position, static_cast<int>(leader));
  if (position == kAbandonedPosition) {
    return;
  }
  RingLine* line = config.lines + ring * config.lines_per_ring + position % config.lines_per_ring;
  if (global) {
    line->addresses[lane] = reinterpret_cast<std::uint64_t>(address);
  }
  if (lane == leader) {
    line->tu = tu;
    line->local_id = id;
    line->active_mask = global_lanes;
    line->block = static_cast<std::uint32_t>(block);
    line->group_mask = group;
    line->element_size = static_cast<std::uint8_t>(size < 255 ? size : 255);
    line->barriers = 0;
    line->reserved = 0;
  }
  // Every writer's stores reach system scope before the leader, after the warp barrier,
  // publishes the line: the host reads the stamp with acquire semantics and then the line.
  __threadfence_system();
  __syncwarp(group);
  if (lane == leader) {
    store_release_system(&line->stamp, position + 1);
  }
}

void memcarlo_launch_begin(const char* kernel_name, dim3 grid, dim3 block, unsigned long long shmem,
                           void* stream) {
  memcarlo::cuda::detail::launch_begin(kernel_name, {grid.x, grid.y, grid.z},
                                       {block.x, block.y, block.z}, shmem, stream);
}

void memcarlo_launch_record_arguments(unsigned count, const long long* values,
                                      const bool* recorded) {
  memcarlo::cuda::detail::launch_arguments(count, values, recorded);
}

void memcarlo_launch_end() {
  memcarlo::cuda::detail::launch_end();
}
