// The host side of the cuda backend's launch hooks, in plain C++ against the CUDA runtime API:
// device_probe.cu defines memcarlo_launch_begin/end (whose signatures probe_api.h fixes, with
// dim3) and forwards here.
#pragma once

#include <cstdint>

namespace memcarlo::cuda::detail {

struct LaunchExtent {
  std::uint32_t x = 1, y = 1, z = 1;
};

/// Counts the launch; when it is traced: waits for the GPU to be idle, sets up the block buffers,
/// writes the Launch chunk, points the probes at the buffers and starts the drain thread. A
/// traced launch holds a process-wide lock until launch_end, so other host threads' launches
/// wait (their probes would otherwise see this launch's buffers).
void launch_begin(const char* kernel_name, LaunchExtent grid, LaunchExtent block,
                  unsigned long long dynamic_shared_bytes, void* stream);

/// Between launch_begin and the launch (probe_api.h, memcarlo_launch_arguments): for a traced
/// launch, writes its `kernel_arguments` record (CudaTraceSession::record_arguments). Does
/// nothing for an untraced launch, or one inside another launch's argument list.
void launch_arguments(unsigned count, const long long* values, const bool* recorded);

/// After a traced launch: waits for the kernel, drains what is left, writes the records, turns
/// the probes off and frees the buffers. Does nothing after an untraced launch.
void launch_end();

}  // namespace memcarlo::cuda::detail
