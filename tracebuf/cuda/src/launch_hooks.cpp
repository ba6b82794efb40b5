// The host side of a traced launch on a real GPU: pinned, mapped block buffers, the probes'
// configuration, the drain thread that copies complete ring lines into trace records, and the
// cut-off. Everything that does not need a GPU lives in the plain C++ pieces it calls.
#include "launch_hooks.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "buffer_geometry.hpp"
#include "cuda_diagnostics.hpp"
#include "cuda_trace_session.hpp"
#include "device_probe.hpp"
#include "line_decoder.hpp"
#include "ring_drainer.hpp"

namespace memcarlo::cuda::detail {
namespace {

/// Our CUDA calls must not leave an error for the program's next cudaGetLastError(): a failing
/// call is reported, and its error cleared unless the program already had one pending.
class CudaCalls {
 public:
  CudaCalls() : program_error_pending_(cudaPeekAtLastError() != cudaSuccess) {}

  bool ok(cudaError_t result, const char* what) {
    if (result == cudaSuccess) {
      return true;
    }
    warn(std::string(what) + " failed: " + cudaGetErrorString(result));
    if (!program_error_pending_) {
      (void)cudaGetLastError();
    }
    return false;
  }

 private:
  bool program_error_pending_;
};

struct GpuInfo {
  std::uint64_t resident_blocks = 0;  // SMs x resident blocks per SM: never more run at once
  std::string json;
};

std::optional<GpuInfo> gpu_info(CudaCalls& cuda) {
  int device = 0;
  cudaDeviceProp properties{};
  if (!cuda.ok(cudaGetDevice(&device), "cudaGetDevice") ||
      !cuda.ok(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties")) {
    return std::nullopt;
  }
  GpuInfo info;
  info.resident_blocks = static_cast<std::uint64_t>(properties.multiProcessorCount) *
                         static_cast<std::uint64_t>(properties.maxBlocksPerMultiProcessor);
  info.json =
      nlohmann::json{
          {"name", properties.name},
          {"device", device},
          {"compute_capability",
           std::to_string(properties.major) + "." + std::to_string(properties.minor)},
          {"sm_count", properties.multiProcessorCount},
          {"max_blocks_per_sm", properties.maxBlocksPerMultiProcessor},
          {"max_threads_per_sm", properties.maxThreadsPerMultiProcessor},
          {"l2_bytes", properties.l2CacheSize},
          {"global_memory_bytes", properties.totalGlobalMem},
      }
          .dump();
  return info;
}

/// The traced launch in flight on this host thread, from launch_begin to launch_end.
struct ActiveLaunch {
  std::unique_lock<std::mutex> hold;  // the process-wide traced-launch lock
  std::string kernel;
  TracedLaunch traced;
  BufferGeometry geometry;
  void* host_buffer = nullptr;        // pinned, mapped: lines, consumed[], stop
  RingState* device_state = nullptr;  // device memory
  std::optional<RingDrainer> drainer;
  std::optional<LaunchRecords> records;
  std::atomic<bool> kernel_done = false;
  std::atomic<bool> write_failed = false;
  std::thread drain_thread;

  ActiveLaunch() = default;
  ActiveLaunch(const ActiveLaunch&) = delete;
  ActiveLaunch& operator=(const ActiveLaunch&) = delete;
  ~ActiveLaunch() {
    if (drain_thread.joinable()) {
      kernel_done = true;
      drain_thread.join();
    }
    // Errors are ignored: after a failed kernel the context may be unusable.
    if (host_buffer != nullptr) {
      (void)cudaFreeHost(host_buffer);
    }
    if (device_state != nullptr) {
      (void)cudaFree(device_state);
    }
  }

  /// Consumes what is complete; returns the lines consumed. Drain thread, then launch_end.
  std::uint64_t drain() {
    return drainer->drain([this](std::uint64_t ring, const RingLine& line) {
      if (!write_failed) {
        records->add(ring, line);
      }
    });
  }
};

// Held from a traced launch's begin to its end: launches of other host threads wait, since their
// probes would read this launch's configuration.
std::mutex traced_launch_mutex;
thread_local std::unique_ptr<ActiveLaunch> active_launch;
// Hooks of this thread not yet ended: a launch inside another's argument list (`k<<<...>>>(f())`
// where f launches) is counted but never traced, and its end leaves the outer launch alone.
thread_local int open_hooks = 0;
// The Launch chunk and kernel of this thread's traced launch from launch_begin to launch_end, for
// its kernel_arguments record (set even for a snapshot without blocks).
struct ArgumentsTarget {
  std::uint32_t trace_launch = 0;
  std::string kernel;
};
thread_local std::optional<ArgumentsTarget> arguments_target;

void drain_loop(ActiveLaunch& launch) {
  try {
    while (!launch.kernel_done.load(std::memory_order_acquire)) {
      if (launch.drain() == 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(20));
      }
    }
  } catch (const std::exception& e) {
    warn(std::string("the drain thread stopped: ") + e.what());
    launch.write_failed = true;
    launch.drainer->request_stop();
  }
}

/// Allocates the buffers of `launch`; false (reported) if CUDA refuses.
bool allocate_buffers(ActiveLaunch& launch, CudaCalls& cuda) {
  const BufferGeometry& geometry = launch.geometry;
  if (!cuda.ok(cudaHostAlloc(&launch.host_buffer, geometry.host_bytes(),
                             cudaHostAllocMapped | cudaHostAllocPortable),
               "cudaHostAlloc of the trace buffer")) {
    launch.host_buffer = nullptr;
    return false;
  }
  std::memset(launch.host_buffer, 0, geometry.host_bytes());
  void* device_state = nullptr;
  if (!cuda.ok(cudaMalloc(&device_state, geometry.device_bytes()),
               "cudaMalloc of the ring state")) {
    return false;
  }
  launch.device_state = static_cast<RingState*>(device_state);
  return cuda.ok(cudaMemset(device_state, 0, geometry.device_bytes()), "cudaMemset");
}

/// After the kernel: every position a probe reserved must have been completed and consumed,
/// unless the cut-off made probes give up. Anything else is a protocol bug worth a warning.
void report_unfinished_lines(ActiveLaunch& launch, CudaCalls& cuda) {
  std::vector<RingState> states(launch.geometry.ring_count());
  if (!cuda.ok(cudaMemcpy(states.data(), launch.device_state, launch.geometry.device_bytes(),
                          cudaMemcpyDeviceToHost),
               "reading the ring state")) {
    return;
  }
  std::uint64_t unfinished = 0;
  const std::span<const std::uint64_t> consumed = launch.drainer->consumed();
  for (std::size_t ring = 0; ring < states.size(); ++ring) {
    unfinished += states[ring].reserved - consumed[ring];
  }
  if (unfinished != 0 && !launch.write_failed) {
    warn(std::to_string(unfinished) + " ring lines of '" + launch.kernel +
         "' were reserved but never completed; the trace lacks them");
  }
}

}  // namespace

void launch_begin(const char* kernel_name, LaunchExtent grid, LaunchExtent block,
                  unsigned long long dynamic_shared_bytes, void* /*stream*/) {
  CudaTraceSession& session = cuda_session();
  LaunchRequest request;
  request.kernel = kernel_name != nullptr ? kernel_name : "";
  request.grid = {grid.x, grid.y, grid.z};
  request.block = {block.x, block.y, block.z};
  request.dynamic_shared_bytes = dynamic_shared_bytes;
  if (open_hooks++ > 0) {
    (void)session.select(request);
    return;
  }
  arguments_target.reset();
  std::unique_lock hold(traced_launch_mutex);
  const std::optional<SnapshotPlan> plan = session.select(request);
  if (!plan) {
    return;
  }
  CudaCalls cuda;
  // An instrumented kernel still running would see this launch's configuration.
  if (!cuda.ok(cudaDeviceSynchronize(), "waiting for the GPU before a traced launch")) {
    return;
  }
  const std::optional<GpuInfo> gpu = gpu_info(cuda);
  if (!gpu) {
    return;
  }
  auto launch = std::make_unique<ActiveLaunch>();
  launch->kernel = request.kernel;
  const tracebuf::LaunchInfo& info = plan->info;
  if (info.snapshot_block_count == 0) {
    // A snapshot past the grid's end: no blocks.
    if (const std::optional<TracedLaunch> empty = session.begin_launch(*plan, gpu->json)) {
      arguments_target = ArgumentsTarget{empty->trace_launch, request.kernel};
    }
    return;
  }
  launch->geometry = size_buffers(info.snapshot_block_count, info.warps_per_block(),
                                  gpu->resident_blocks, session.options().buffer_bytes);
  if (!allocate_buffers(*launch, cuda)) {
    warn("launch of '" + request.kernel + "' runs untraced");
    return;
  }
  void* device_base = nullptr;
  if (!cuda.ok(cudaHostGetDevicePointer(&device_base, launch->host_buffer, 0),
               "cudaHostGetDevicePointer")) {
    return;
  }
  const std::optional<TracedLaunch> traced = session.begin_launch(*plan, gpu->json);
  if (!traced) {
    return;
  }
  launch->traced = *traced;
  arguments_target = ArgumentsTarget{traced->trace_launch, request.kernel};
  const RingView host_view = ring_view(launch->host_buffer, launch->geometry);
  const RingView device_view = ring_view(device_base, launch->geometry);
  launch->drainer.emplace(host_view);
  ActiveLaunch* raw = launch.get();
  launch->records.emplace(LineDecoder(traced->loads, traced->traced_load_count,
                                      info.snapshot_first_block, info.snapshot_block_count),
                          launch->geometry, info.snapshot_first_block,
                          [raw, &session](std::uint32_t b, std::uint32_t warp,
                                          std::span<const tracebuf::WarpRecord> records) {
                            if (!session.write(raw->traced.trace_launch, b, warp, records)) {
                              raw->write_failed = true;
                              raw->drainer->request_stop();  // the cut-off: the probes give up
                            }
                          });
  DeviceConfig config{};
  config.enabled = 1;
  config.warps_per_block = launch->geometry.warps_per_block;
  config.slot_count = launch->geometry.slot_count;
  config.lines_per_ring = launch->geometry.lines_per_ring;
  config.snapshot_first = info.snapshot_first_block;
  config.snapshot_count = info.snapshot_block_count;
  config.lines = device_view.lines;
  config.consumed = device_view.consumed;
  config.stop = device_view.stop;
  config.ring_state = launch->device_state;
  if (!cuda.ok(upload_device_config(config), "uploading the probes' configuration")) {
    return;  // the Launch chunk stays, with no records
  }
  launch->drain_thread = std::thread(drain_loop, std::ref(*launch));
  launch->hold = std::move(hold);
  active_launch = std::move(launch);
}

void launch_arguments(unsigned count, const long long* values, const bool* recorded) {
  if (open_hooks != 1 || !arguments_target) {
    return;  // untraced, or a launch inside another's arguments
  }
  cuda_session().record_arguments(arguments_target->trace_launch, arguments_target->kernel,
                                  std::span<const long long>(values, count),
                                  std::span<const bool>(recorded, count));
  arguments_target.reset();  // one record per launch
}

void launch_end() {
  open_hooks = open_hooks > 0 ? open_hooks - 1 : 0;
  if (open_hooks == 0) {
    arguments_target.reset();
  }
  if (open_hooks > 0 || !active_launch) {
    return;
  }
  std::unique_ptr<ActiveLaunch> launch = std::move(active_launch);
  // Not cleared: a kernel error is the program's to see.
  const cudaError_t kernel_result = cudaDeviceSynchronize();
  launch->kernel_done = true;
  launch->drain_thread.join();
  launch->drain();  // lines completed after the drain thread's last sweep
  launch->records->finish();
  if (kernel_result != cudaSuccess) {
    warn("the traced launch of '" + launch->kernel + "' failed (" +
         cudaGetErrorString(kernel_result) + "); its trace holds the records written before");
  }
  const LineCounts& counts = launch->records->counts();
  if (counts.unknown_load_lines != 0) {
    warn(std::to_string(counts.unknown_load_lines) + " records of '" + launch->kernel +
         "' had no loads-table entry and were dropped");
  }
  if (counts.malformed_lines != 0) {
    warn(std::to_string(counts.malformed_lines) + " malformed ring lines of '" + launch->kernel +
         "' were dropped");
  }
  if (cuda_session().options().common.verbose) {
    warn("launch of '" + launch->kernel + "': " + std::to_string(counts.records) + " records, " +
         std::to_string(launch->geometry.slot_count) + " block buffers of " +
         std::to_string(launch->geometry.warps_per_block) + " rings x " +
         std::to_string(launch->geometry.lines_per_ring) + " lines");
  }
  if (kernel_result == cudaSuccess) {
    CudaCalls cuda;
    report_unfinished_lines(*launch, cuda);
    cuda.ok(upload_device_config(DeviceConfig{}), "turning the probes off");
  }
}

}  // namespace memcarlo::cuda::detail
