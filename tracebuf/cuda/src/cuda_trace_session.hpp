// The cuda runtime's process-wide trace state, without any CUDA call: options, launch counters
// and selection, the trace writer (opened at the first traced launch with the loads table, the
// End chunk written at exit) and the records the drain thread hands over.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_options.hpp"
#include "launch_planner.hpp"
#include "loads_registry.hpp"
#include "memcarlo/tracebuf/record.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::cuda::detail {

/// A launch whose Launch chunk was written.
struct TracedLaunch {
  std::uint32_t trace_launch = 0;  // Launch chunk index
  std::shared_ptr<const host::detail::LoadsIndex> loads;
  std::uint32_t traced_load_count = 0;  // loads in the trace's Loads chunk
};

class CudaTraceSession {
 public:
  explicit CudaTraceSession(CudaRuntimeOptions options);
  ~CudaTraceSession();  // finish()
  CudaTraceSession(const CudaTraceSession&) = delete;
  CudaTraceSession& operator=(const CudaTraceSession&) = delete;

  [[nodiscard]] const CudaRuntimeOptions& options() const { return options_; }

  /// Counts the launch. Returns its snapshot when it is selected (MEMCARLO_KERNEL,
  /// MEMCARLO_LAUNCH) and a trace is wanted and has not failed.
  std::optional<SnapshotPlan> select(const LaunchRequest& request);

  /// Opens the trace on first use (its Meta chunk records `gpu_json`, a JSON object describing
  /// the GPU) and writes the Launch chunk. nullopt when the trace cannot be written.
  std::optional<TracedLaunch> begin_launch(const SnapshotPlan& plan, const std::string& gpu_json);

  /// Appends records of one warp of a traced launch. Thread-safe. Returns false once tracing has
  /// failed (the first failure is reported; the program goes on).
  bool write(std::uint32_t trace_launch, std::uint32_t block, std::uint32_t warp,
             std::span<const tracebuf::WarpRecord> records);

  /// Writes the End chunk. A program that traced nothing still gets a complete trace with its
  /// loads table and no launches, so that `memcarlo run` can tell what happened.
  void finish();

  /// Keeps one annotation record {"kind", "since_launch": Launch chunks written so far, "payload"}
  /// (tafe.h: memcarlo_record_annotation); the records kept are written as one Annotations chunk
  /// before the next Launch chunk or at finish() (trace format v2). Thread-safe.
  void record_annotation(const std::string& kind, const std::string& payload_json);

  /// Writes the `kernel_arguments` record of Launch chunk `trace_launch` (the launch of
  /// `kernel`) as an Annotations chunk of its own, as the host backend does right after the
  /// Launch chunk: the arguments marked `recorded` (integers and pointers) under the parameter
  /// names the kernel's translation unit registered (host::detail::kernel_arguments_record).
  /// Nothing when the names are unknown or tracing has failed. Thread-safe.
  void record_arguments(std::uint32_t trace_launch, std::string_view kernel,
                        std::span<const long long> values, std::span<const bool> recorded);

  [[nodiscard]] bool failed() const { return failed_; }

 private:
  bool open_locked(const std::string& gpu_json);
  void write_annotations_locked();
  void fail(const std::exception& error);

  std::mutex mutex_;
  CudaRuntimeOptions options_;
  LaunchCounter counter_;
  std::unique_ptr<tracebuf::TraceWriter> writer_;
  bool opened_ = false;
  std::uint32_t loads_written_ = 0;
  std::atomic<bool> failed_ = false;
  std::set<std::string> warned_;
  std::vector<std::string> annotations_;
  std::uint32_t launches_written_ = 0;
};

/// The session of this process, created from the environment on first use and finished at exit.
CudaTraceSession& cuda_session();

}  // namespace memcarlo::cuda::detail
