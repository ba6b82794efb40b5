// Process-wide runtime state: options, launch counters, snapshot selection and the trace writer.
// The trace is opened at the first traced launch and finished at exit (End chunk); everything
// written before a crash or kill stays readable because the writer appends whole chunks. When a
// program under MEMCARLO_STOP_AFTER_TRACE has traced all it will: stop_rule.cpp.
#include "trace_session.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>

#include "allocation_registry.hpp"
#include "diagnostics.hpp"
#include "loads_registry.hpp"
#include "trace_session_state.hpp"
#include "memcarlo/tracebuf/errors.hpp"
#include "memcarlo/tracebuf/stop_after_trace.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::host {
namespace detail {
namespace {


void finish_at_exit();

RuntimeState& state() {
  // Never destroyed: the exit handler below and late worker threads may still use it.
  static RuntimeState* runtime = [] {
    auto* created = new RuntimeState();
    created->options = options_from_environment();
    // The exit handler uses these function-local statics: constructing them before registering
    // it makes them outlive it (static destruction runs in reverse order of registration).
    loads_registry();
    allocations();
    if (!created->options.bounds_check) {
      allocations().open_below_first(std::uint64_t{1} << 20);
    }
    std::atexit(finish_at_exit);
    return created;
  }();
  return *runtime;
}

std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::replace(text.begin(), text.end(), '\0', ' ');
  while (!text.empty() && text.back() == ' ') {
    text.pop_back();
  }
  return text;
}

tracebuf::TraceMeta trace_meta(const RuntimeOptions& options) {
  const DeviceLimits& l = options.limits;
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
  };
  properties["launch"] = options.launch ? nlohmann::json(*options.launch) : nlohmann::json("all");
  if (options.snapshot_blocks) {
    properties["snapshot_blocks"] = *options.snapshot_blocks;
  }
  tracebuf::TraceMeta meta;
  meta.producer = "memcarlo host runtime";
  meta.producer_version = MEMCARLO_VERSION;
  meta.backend = "host";
  meta.command = command_line();
  meta.device_json = device.dump();
  meta.properties_json = properties.dump();
  return meta;
}

/// Any trace write failure ends tracing for the process, reported once; the program goes on.
void trace_failed(RuntimeState& s, const std::exception& e) {
  if (!s.trace_failed.exchange(true)) {
    warn(std::string("tracing stopped: ") + e.what());
  }
}

/// With the state locked: opens the trace at the configured path and writes the loads table.
bool open_trace(RuntimeState& s) {
  if (s.writer) {
    return true;
  }
  if (s.trace_failed) {
    return false;
  }
  try {
    s.trace_opened = true;
    s.writer = std::make_unique<tracebuf::TraceWriter>(s.options.trace_path, trace_meta(s.options));
    const std::vector<tracebuf::LoadInfo> loads = loads_registry().table();
    s.writer->write_loads(loads);
    s.loads_written = static_cast<std::uint32_t>(loads.size());
    allocations().mark_all_unlisted();
    return true;
  } catch (const std::exception& e) {
    s.writer.reset();
    trace_failed(s, e);
    return false;
  }
}

/// With the state locked and the trace open: the buffered annotation records as one chunk.
void write_annotations_locked(RuntimeState& s) {
  if (s.annotations.empty()) {
    return;
  }
  std::string array = "[";
  for (const std::string& record : s.annotations) {
    array += (array.size() > 1 ? "," : "") + record;
  }
  s.annotations.clear();
  s.writer->write_annotations(array + "]");
}

void finish_locked(RuntimeState& s) {
  if (!s.writer) {
    return;
  }
  try {
    const std::vector<tracebuf::Allocation> unlisted = allocations().take_unlisted();
    if (!unlisted.empty()) {
      s.writer->write_allocations(unlisted);
    }
    write_annotations_locked(s);
    s.writer->finish();
  } catch (const std::exception& e) {
    trace_failed(s, e);
  }
  s.writer.reset();
  s.launches_written = 0;
}


void finish_at_exit() {
  RuntimeState& s = state();
  std::lock_guard lock(s.mutex);
  explain_template_wait_locked(s);
  // A program that traced nothing still leaves a complete trace: its loads, allocations and no
  // launches, so that `memcarlo run` can say which it was.
  if (!s.options.trace_path.empty() && !s.trace_opened) {
    open_trace(s);
  }
  finish_locked(s);
}

std::uint32_t registers_for(const RuntimeOptions& options, const std::string& kernel,
                            std::uint64_t* static_shared) {
  for (const KernelResources& resources : options.kernel_resources) {
    if (resources.kernel == kernel) {
      *static_shared = resources.static_shared_bytes;
      return resources.registers_per_thread;
    }
  }
  *static_shared = 0;
  return 0;
}

void record_traced_launch_locked(RuntimeState& s, const std::string& kernel, std::uint64_t records,
                                 bool abandoned) {
  if (records > 0 || abandoned) {
    s.kernels_with_records.insert(kernel);
  } else if (!s.kernels_with_records.contains(kernel)) {
    const std::uint32_t empty = ++s.empty_traced_launches[kernel];
    if (s.options.first_launch_with_records && s.options.launch == 0 &&
        empty == kMaxEmptyTracedLaunches && s.warned_kernels.insert(kernel + " empty").second) {
      warn("kernel '" + kernel + "': its first " + std::to_string(empty) +
           " launches made no global-memory access that was probed; no later launch of it is "
           "traced (memcarlo run --launch N picks one)");
    }
  }
}

}  // namespace

void start_trace_session() {
  state();
}

LaunchPlan plan_launch(const LaunchRequest& request) {
  RuntimeState& s = state();
  std::lock_guard lock(s.mutex);
  const RuntimeOptions& options = s.options;
  const std::string kernel = request.kernel_name;
  const std::uint64_t sequence = s.launch_count++;
  explain_pending_locked(s, kernel);
  const std::uint64_t nth_of_kernel = s.launches_per_kernel[kernel]++;
  LaunchPlan plan;
  plan.sequence = sequence;
  plan.fiber_stack_bytes = options.fiber_stack_bytes;
  plan.max_block_events = options.max_block_events;
  plan.verbose = options.verbose;
  plan.bounds_check = options.bounds_check;
  // After an empty traced launch 0, the kernel's next launch, while every one before it was
  // traced and empty.
  const std::uint32_t empty_before = s.empty_traced_launches[kernel];
  const bool after_empty = options.first_launch_with_records && options.launch == 0 &&
                           !s.kernels_with_records.contains(kernel) && empty_before > 0 &&
                           empty_before == nth_of_kernel &&
                           empty_before < kMaxEmptyTracedLaunches;
  const bool selected =
      !options.trace_path.empty() && !s.trace_failed &&
      (options.kernels.empty() || std::find(options.kernels.begin(), options.kernels.end(),
                                            kernel) != options.kernels.end()) &&
      (!options.launch || *options.launch == nth_of_kernel || after_empty);
  if (!selected || !open_trace(s)) {
    return plan;
  }
  const std::uint64_t threads = std::uint64_t{request.block.x} * request.block.y * request.block.z;
  const std::uint64_t blocks = std::uint64_t{request.grid.x} * request.grid.y * request.grid.z;
  std::uint64_t static_shared = 0;
  const std::uint32_t known_registers = registers_for(options, kernel, &static_shared);
  BlockResources resources;
  resources.threads = threads;
  resources.shared_bytes = static_shared + request.dynamic_shared_bytes;
  resources.registers_per_thread =
      known_registers != 0 ? known_registers : options.default_registers_per_thread;
  std::uint32_t resident = resident_blocks_per_sm(options.limits, resources);
  if (resident == 0) {
    if (s.warned_kernels.insert(kernel).second) {
      warn("kernel '" + kernel + "': a block of " + std::to_string(threads) + " threads, " +
           std::to_string(resources.shared_bytes) + " bytes of shared memory and " +
           std::to_string(resources.registers_per_thread) +
           " registers per thread exceeds one SM of the configured device; the snapshot "
           "assumes 1 resident block per SM");
    }
    resident = 1;
  }
  plan.snapshot_first = std::min(options.snapshot_first_block, blocks);
  plan.snapshot_count = std::min(options.snapshot_blocks.value_or(snapshot_block_count(
                                     options.limits, resident, options.snapshot_factor)),
                                 blocks - plan.snapshot_first);

  tracebuf::LaunchInfo info;
  info.kernel = kernel;
  info.grid = {request.grid.x, request.grid.y, request.grid.z};
  info.block = {request.block.x, request.block.y, request.block.z};
  info.dynamic_shared_bytes = request.dynamic_shared_bytes;
  info.static_shared_bytes = static_shared;
  info.registers_per_thread = known_registers;
  info.snapshot_first_block = plan.snapshot_first;
  info.snapshot_block_count = plan.snapshot_count;
  info.resident_blocks_per_sm = resident;
  info.sequence_in_program = sequence;
  try {
    const std::vector<tracebuf::Allocation> unlisted = allocations().take_unlisted();
    if (!unlisted.empty()) {
      s.writer->write_allocations(unlisted);
    }
    write_annotations_locked(s);
    plan.trace_launch = s.writer->begin_launch(info);
    s.launches_written = plan.trace_launch + 1;
    // The launch's integer and pointer arguments by parameter name (names registered by the
    // instrumenter; none for a kernel it did not see), for the footprint's relations.
    const std::optional<std::string> arguments = kernel_arguments_record(
        plan.trace_launch, kernel,
        std::span<const long long>(request.argument_values, request.argument_count),
        std::span<const bool>(request.argument_recorded, request.argument_count));
    if (arguments) {
      s.writer->write_annotations("[" + *arguments + "]");
    }
  } catch (const std::exception& e) {
    trace_failed(s, e);
    return plan;
  }
  if (loads_registry().index()->kinds().size() > s.loads_written &&
      s.warned_kernels.insert(" late loads").second) {
    warn(
        "translation units registered loads tables after the trace was opened; their accesses "
        "are not traced");
  }
  plan.traced = true;
  plan.snapshot_blocks_first = options.stop_after_trace;
  plan.traced_load_count = s.loads_written;
  if (options.verbose) {
    warn("tracing launch " + std::to_string(nth_of_kernel) + " of '" + kernel + "': blocks [" +
         std::to_string(plan.snapshot_first) + ", " +
         std::to_string(plan.snapshot_first + plan.snapshot_count) + ") of " +
         std::to_string(blocks) + ", " + std::to_string(resident) + " resident per SM");
  }
  return plan;
}

void write_warp_records(std::uint32_t trace_launch, std::uint64_t block, std::uint32_t warp,
                        std::span<const tracebuf::WarpRecord> records) {
  RuntimeState& s = state();
  if (s.trace_failed || !s.writer) {
    return;
  }
  try {
    // The writer is thread-safe; blocks finishing on different OS threads write concurrently.
    s.writer->write_warp_records(trace_launch, static_cast<std::uint32_t>(block), warp, records);
  } catch (const std::exception& e) {
    trace_failed(s, e);
  }
}

bool traced_launch_ended(const std::string& kernel, std::uint64_t records, bool abandoned) {
  RuntimeState& s = state();
  std::lock_guard lock(s.mutex);
  record_traced_launch_locked(s, kernel, records, abandoned);
  return s.options.stop_after_trace && tracing_complete_locked(s);
}

void stop_after_trace(const LaunchRequest& request, const LaunchPlan& plan,
                      std::uint64_t blocks_run, std::uint64_t blocks) {
  RuntimeState& s = state();
  std::lock_guard lock(s.mutex);
  const nlohmann::json status = {{"launch", plan.trace_launch},
                                 {"kernel", request.kernel_name},
                                 {"sequence_in_program", plan.sequence},
                                 {"blocks_run", blocks_run},
                                 {"blocks", blocks}};
  std::ofstream(tracebuf::stop_status_path(s.options.trace_path)) << status.dump() << "\n";
  finish_locked(s);
  std::fflush(nullptr);
  print_error("stopped after the traced launches (MEMCARLO_STOP_AFTER_TRACE=1): launch " +
              std::to_string(plan.sequence) + " of the program ('" + request.kernel_name +
              "') ran " + std::to_string(blocks_run) + " of its " + std::to_string(blocks) +
              " blocks; the rest of the program, its own checks included, did not run");
  std::_Exit(tracebuf::kExitStoppedAfterTrace);
}

void add_launch_stats(const RuntimeStats& delta) {
  RuntimeState& s = state();
  std::lock_guard lock(s.mutex);
  s.stats.launches += delta.launches;
  s.stats.traced_launches += delta.traced_launches;
  s.stats.blocks += delta.blocks;
  s.stats.traced_blocks += delta.traced_blocks;
  s.stats.probe_events += delta.probe_events;
  s.stats.traced_probe_events += delta.traced_probe_events;
  s.stats.dropped_non_device += delta.dropped_non_device;
  s.stats.warp_records += delta.warp_records;
}

}  // namespace detail

const RuntimeOptions& runtime_options() {
  return detail::state().options;
}

void set_runtime_options(const RuntimeOptions& options) {
  detail::RuntimeState& s = detail::state();
  std::lock_guard lock(s.mutex);
  if (options.trace_path != s.options.trace_path) {
    detail::finish_locked(s);
    s.launches_written = 0;
    s.trace_opened = false;
    s.trace_failed = false;
  }
  s.options = options;
  s.launches_per_kernel.clear();
  s.empty_traced_launches.clear();
  s.kernels_with_records.clear();
  s.pending_named.clear();
  s.launch_count = 0;
}

void finish_trace() {
  detail::RuntimeState& s = detail::state();
  std::lock_guard lock(s.mutex);
  detail::finish_locked(s);
}

RuntimeStats runtime_stats() {
  detail::RuntimeState& s = detail::state();
  std::lock_guard lock(s.mutex);
  return s.stats;
}

}  // namespace memcarlo::host

extern "C" void memcarlo_record_annotation(const char* kind, const char* payload_json) {
  using memcarlo::host::detail::state;
  auto& s = state();
  const std::lock_guard lock(s.mutex);
  // since_launch: the call applies from the next traced launch on (tracebuf/annotations.hpp).
  s.annotations.push_back(std::string("{\"kind\": \"") + kind + "\", \"since_launch\": " +
                          std::to_string(s.launches_written) + ", \"payload\": " + payload_json +
                          "}");
}
