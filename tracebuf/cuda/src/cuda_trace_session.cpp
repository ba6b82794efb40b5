// The cuda runtime's trace state (see cuda_trace_session.hpp) and memcarlo_register_loads.
#include "cuda_trace_session.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

#include "cuda_diagnostics.hpp"
#include "memcarlo/probe_api.h"

namespace memcarlo::cuda::detail {
namespace {

std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::replace(text.begin(), text.end(), '\0', ' ');
  while (!text.empty() && text.back() == ' ') {
    text.pop_back();
  }
  return text;
}

/// The same device assumptions as the host backend's Meta chunk (both size snapshots alike),
/// plus the buffer budget and the GPU the trace was taken on.
tracebuf::TraceMeta trace_meta(const CudaRuntimeOptions& cuda_options,
                               const std::string& gpu_json) {
  const host::RuntimeOptions& options = cuda_options.common;
  const host::DeviceLimits& l = options.limits;
  nlohmann::json device = {
      {"sm_count", l.sm_count},
      {"max_threads_per_sm", l.max_threads_per_sm},
      {"max_blocks_per_sm", l.max_blocks_per_sm},
      {"max_warps_per_sm", l.max_warps_per_sm},
      {"shared_bytes_per_sm", l.shared_bytes_per_sm},
      {"registers_per_sm", l.registers_per_sm},
      {"max_threads_per_block", l.max_threads_per_block},
      {"shared_bytes_per_block", l.shared_bytes_per_block},
      {"register_allocation_unit", l.register_allocation_unit},
      {"default_registers_per_thread", options.default_registers_per_thread},
      {"snapshot_factor", options.snapshot_factor},
  };
  if (!options.hierarchy.empty()) {
    device["hierarchy"] = options.hierarchy;
  }
  nlohmann::json properties = {
      {"kernels", options.kernels},
      {"snapshot_first_block", options.snapshot_first_block},
      {"buffer_bytes", cuda_options.buffer_bytes},
  };
  properties["launch"] = options.launch ? nlohmann::json(*options.launch) : nlohmann::json("all");
  if (options.snapshot_blocks) {
    properties["snapshot_blocks"] = *options.snapshot_blocks;
  }
  properties["gpu"] = nlohmann::json::parse(gpu_json.empty() ? "{}" : gpu_json, nullptr, false);
  if (properties["gpu"].is_discarded()) {
    properties["gpu"] = nlohmann::json::object();
  }
  tracebuf::TraceMeta meta;
  meta.producer = "memcarlo cuda runtime";
  meta.producer_version = MEMCARLO_VERSION;
  meta.backend = "cuda";
  meta.command = command_line();
  meta.device_json = device.dump();
  meta.properties_json = properties.dump();
  return meta;
}

}  // namespace

CudaTraceSession::CudaTraceSession(CudaRuntimeOptions options) : options_(std::move(options)) {}

CudaTraceSession::~CudaTraceSession() {
  finish();
}

std::optional<SnapshotPlan> CudaTraceSession::select(const LaunchRequest& request) {
  std::lock_guard lock(mutex_);
  const LaunchCounter::Position position = counter_.count(request.kernel);
  if (options_.common.trace_path.empty() || failed_ ||
      !launch_selected(options_.common, request.kernel, position.nth_of_kernel)) {
    return std::nullopt;
  }
  SnapshotPlan plan = plan_snapshot(options_.common, request, position.sequence_in_program);
  if (plan.block_exceeds_sm && warned_.insert(request.kernel).second) {
    warn("kernel '" + request.kernel + "': a block of " + std::to_string(request.block.volume()) +
         " threads exceeds one SM of the configured device; the snapshot assumes 1 resident "
         "block per SM");
  }
  return plan;
}

bool CudaTraceSession::open_locked(const std::string& gpu_json) {
  if (writer_) {
    return true;
  }
  if (failed_) {
    return false;
  }
  try {
    opened_ = true;
    writer_ = std::make_unique<tracebuf::TraceWriter>(options_.common.trace_path,
                                                      trace_meta(options_, gpu_json));
    const std::vector<tracebuf::LoadInfo> loads = host::detail::loads_registry().table();
    writer_->write_loads(loads);
    loads_written_ = static_cast<std::uint32_t>(loads.size());
    return true;
  } catch (const std::exception& e) {
    writer_.reset();
    fail(e);
    return false;
  }
}

std::optional<TracedLaunch> CudaTraceSession::begin_launch(const SnapshotPlan& plan,
                                                           const std::string& gpu_json) {
  std::lock_guard lock(mutex_);
  if (!open_locked(gpu_json)) {
    return std::nullopt;
  }
  TracedLaunch traced;
  try {
    write_annotations_locked();
    traced.trace_launch = writer_->begin_launch(plan.info);
    launches_written_ = traced.trace_launch + 1;
  } catch (const std::exception& e) {
    fail(e);
    return std::nullopt;
  }
  traced.loads = host::detail::loads_registry().index();
  traced.traced_load_count = loads_written_;
  if (traced.loads->kinds().size() > loads_written_ && warned_.insert(" late loads").second) {
    warn(
        "translation units registered loads tables after the trace was opened; their accesses "
        "are not traced");
  }
  if (options_.common.verbose) {
    const tracebuf::LaunchInfo& info = plan.info;
    warn("tracing launch " + std::to_string(info.sequence_in_program) + " ('" + info.kernel +
         "'): blocks [" + std::to_string(info.snapshot_first_block) + ", " +
         std::to_string(info.snapshot_first_block + info.snapshot_block_count) + ") of " +
         std::to_string(info.grid.volume()) + ", " + std::to_string(info.resident_blocks_per_sm) +
         " resident per SM");
  }
  return traced;
}

bool CudaTraceSession::write(std::uint32_t trace_launch, std::uint32_t block, std::uint32_t warp,
                             std::span<const tracebuf::WarpRecord> records) {
  std::lock_guard lock(mutex_);
  if (failed_ || !writer_) {
    return false;
  }
  try {
    writer_->write_warp_records(trace_launch, block, warp, records);
    return true;
  } catch (const std::exception& e) {
    fail(e);
    return false;
  }
}

void CudaTraceSession::finish() {
  std::lock_guard lock(mutex_);
  if (!options_.common.trace_path.empty() && !opened_) {
    open_locked("{}");
  }
  if (!writer_) {
    return;
  }
  try {
    write_annotations_locked();
    writer_->finish();
  } catch (const std::exception& e) {
    fail(e);
  }
  writer_.reset();
  launches_written_ = 0;
}

void CudaTraceSession::record_annotation(const std::string& kind,
                                         const std::string& payload_json) {
  std::lock_guard lock(mutex_);
  annotations_.push_back("{\"kind\": \"" + kind + "\", \"since_launch\": " +
                         std::to_string(launches_written_) + ", \"payload\": " + payload_json +
                         "}");
}

void CudaTraceSession::record_arguments(std::uint32_t trace_launch, std::string_view kernel,
                                        std::span<const long long> values,
                                        std::span<const bool> recorded) {
  const std::optional<std::string> record =
      host::detail::kernel_arguments_record(trace_launch, kernel, values, recorded);
  std::lock_guard lock(mutex_);
  if (!record || failed_ || !writer_) {
    return;
  }
  try {
    writer_->write_annotations("[" + *record + "]");
  } catch (const std::exception& e) {
    fail(e);
  }
}

void CudaTraceSession::write_annotations_locked() {
  if (annotations_.empty()) {
    return;
  }
  std::string array = "[";
  for (const std::string& record : annotations_) {
    array += (array.size() > 1 ? "," : "") + record;
  }
  annotations_.clear();
  writer_->write_annotations(array + "]");
}

void CudaTraceSession::fail(const std::exception& error) {
  if (!failed_.exchange(true)) {
    warn(std::string("tracing stopped: ") + error.what());
  }
}

namespace {

void finish_at_exit() {
  cuda_session().finish();
}

}  // namespace

CudaTraceSession& cuda_session() {
  // Never destroyed: the exit handler and a late drain thread may still use it.
  static CudaTraceSession* session = [] {
    auto* created = new CudaTraceSession(
        cuda_options_from([](const char* name) -> const char* { return std::getenv(name); }));
    std::atexit(finish_at_exit);
    return created;
  }();
  return *session;
}

}  // namespace memcarlo::cuda::detail

extern "C" void memcarlo_register_loads(unsigned tu, const char* loads_table_json) {
  memcarlo::host::detail::loads_registry().add(tu, loads_table_json);
}

extern "C" void memcarlo_register_kernel_parameters(const char* kernel_parameters_json) {
  memcarlo::host::detail::kernel_parameters().add(kernel_parameters_json);
}

extern "C" void memcarlo_record_annotation(const char* kind, const char* payload_json) {
  memcarlo::cuda::detail::cuda_session().record_annotation(kind, payload_json);
}
