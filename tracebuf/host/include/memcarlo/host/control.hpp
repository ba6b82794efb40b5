// Control of the host runtime from C++ (tests, tools): the options that the MEMCARLO_* environment
// variables set, finishing a trace early, and emulation statistics. Not part of the CUDA surface.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memcarlo/host/occupancy.hpp"

namespace memcarlo::host {

/// Registers and static shared memory of one kernel, e.g. from `nvcc --resource-usage`.
struct KernelResources {
  std::string kernel;
  std::uint32_t registers_per_thread = 0;  // 0: unknown, use the default
  std::uint64_t static_shared_bytes = 0;
};

/// Everything the runtime reads from the environment (docs/host-runtime.md lists the variables).
/// How many empty traced launches of one kernel first_launch_with_records looks past.
inline constexpr std::uint32_t kMaxEmptyTracedLaunches = 8;

struct RuntimeOptions {
  std::string trace_path;            // MEMCARLO_TRACE; empty: no tracing
  std::vector<std::string> kernels;  // MEMCARLO_KERNEL; empty: every kernel
  /// MEMCARLO_LAUNCH: which launch of each selected kernel is traced (0-based); nullopt: all.
  std::optional<std::uint64_t> launch = 0;
  /// MEMCARLO_LAUNCH unset (launch 0 by default): a traced launch that made no global-memory
  /// record is followed by the kernel's next launch, up to kMaxEmptyTracedLaunches of them, so that
  /// the trace holds each kernel's first launch with records (the empty ones stay in it).
  bool first_launch_with_records = true;
  std::uint32_t snapshot_factor = 4;             // MEMCARLO_SNAPSHOT_FACTOR
  std::uint64_t snapshot_first_block = 0;        // MEMCARLO_SNAPSHOT_FIRST_BLOCK
  std::optional<std::uint64_t> snapshot_blocks;  // MEMCARLO_SNAPSHOT_BLOCKS overrides the count
  DeviceLimits limits;                           // MEMCARLO_SM_COUNT, MEMCARLO_MAX_*_PER_SM, ...
  std::uint32_t default_registers_per_thread = kDefaultRegistersPerThread;
  std::vector<KernelResources> kernel_resources;  // MEMCARLO_KERNEL_RESOURCES
  int compute_major = 7;                          // MEMCARLO_COMPUTE_CAPABILITY
  int compute_minor = 0;
  /// What cudaGetDeviceProperties reports as l2CacheSize and clockRate (a program may size its
  /// work by them): MEMCARLO_L2_BYTES and MEMCARLO_CLOCK_KHZ, which `memcarlo run` sets from the
  /// hierarchy (l2.size, clock_mhz).
  std::uint64_t l2_bytes = std::uint64_t{768} * 1024;
  std::uint32_t clock_khz = 1000000;
  std::uint32_t worker_threads = 0;                             // MEMCARLO_THREADS; 0: one per core
  std::uint64_t fiber_stack_bytes = std::uint64_t{256} * 1024;  // MEMCARLO_FIBER_STACK_KB
  /// MEMCARLO_MAX_BLOCK_EVENTS: probe events a traced block may buffer between two barriers
  /// (16 bytes each); past it the block's trace ends at its last barrier.
  std::uint64_t max_block_events = std::uint64_t{1} << 24;
  bool verbose = false;  // MEMCARLO_VERBOSE
  /// MEMCARLO_STOP_AFTER_TRACE: once every launch the options select has been traced (each
  /// selected kernel's, or each kernel the program's loads tables and kernel registrations name),
  /// the program ends with tracebuf::kExitStoppedAfterTrace after finishing the trace; the traced
  /// launch that completes it runs only its snapshot's blocks (docs/host-runtime.md).
  bool stop_after_trace = false;
  /// MEMCARLO_BOUNDS_CHECK: every probed access that falls in device address space must lie in a
  /// live device allocation, or the program ends naming the access (docs/host-runtime.md).
  bool bounds_check = true;
  /// MEMCARLO_HIERARCHY: the hierarchy (preset or file) `memcarlo run -H` sized the snapshot
  /// for; recorded in the trace's Meta so that trace info and simulate can name it.
  std::string hierarchy;
};

/// Parses the MEMCARLO_* variables. A malformed value names the variable and what was expected,
/// and the program exits with status 78 (EX_CONFIG).
RuntimeOptions options_from_environment();

/// The options in force (read from the environment on first use).
const RuntimeOptions& runtime_options();

/// Replaces the options; finishes the current trace first if the trace path changes. Launch
/// counters restart: the next launch is the program's launch 0 and each kernel's launch 0.
void set_runtime_options(const RuntimeOptions& options);

/// Writes the End chunk and closes the trace, if one is open. Also runs at program exit.
void finish_trace();

struct RuntimeStats {
  std::uint64_t launches = 0;
  std::uint64_t traced_launches = 0;
  std::uint64_t blocks = 0;
  std::uint64_t traced_blocks = 0;
  std::uint64_t probe_events = 0;         // probes executed by CUDA threads
  std::uint64_t traced_probe_events = 0;  // of which inside traced blocks
  std::uint64_t dropped_non_device = 0;   // traced events outside device allocations
  std::uint64_t warp_records = 0;         // records handed to the trace writer
};
RuntimeStats runtime_stats();

}  // namespace memcarlo::host
