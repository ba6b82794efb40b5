// The trace session's state (trace_session.cpp), shared with the rule that says when a program
// under MEMCARLO_STOP_AFTER_TRACE has traced all it will (stop_rule.cpp). Internal to the host
// runtime; every function here is called with the state's mutex held.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "memcarlo/host/control.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::host::detail {

struct RuntimeState {
  std::mutex mutex;
  RuntimeOptions options;
  std::map<std::string, std::uint64_t> launches_per_kernel;
  // first_launch_with_records: per kernel, its traced launches that made no record so far, and
  // whether one made records (then no later launch of it is traced by that rule).
  std::map<std::string, std::uint32_t> empty_traced_launches;
  std::set<std::string> kernels_with_records;
  std::uint64_t launch_count = 0;
  std::unique_ptr<tracebuf::TraceWriter> writer;
  std::uint32_t loads_written = 0;
  bool trace_opened = false;  // for the current trace path, ever
  std::atomic<bool> trace_failed = false;
  std::set<std::string> warned_kernels;
  // The registered launches not made that explain_pending_locked last named.
  std::string pending_named;
  RuntimeStats stats;
  // Records of memcarlo_record_annotation not written yet, in call order; written as one
  // Annotations chunk before each Launch chunk and at finish (trace format v2).
  std::vector<std::string> annotations;
  std::uint32_t launches_written = 0;  // Launch chunks in the current trace
};

/// Whether kernel `name` (as a launch names it) has had the traced launch the options select:
/// launch N of it, or by default its first launch with records or its kMaxEmptyTracedLaunches
/// empty ones.
bool kernel_traced_locked(const RuntimeState& s, const std::string& name);

/// Whether every launch the options select has been traced, so that no later launch adds to the
/// trace (MEMCARLO_STOP_AFTER_TRACE; stop_rule.cpp says how). `instances_final`: as if no further
/// instance of a kernel launched with template arguments could come (without registered launch
/// names).
bool tracing_complete_locked(RuntimeState& s, bool instances_final = false);

/// At the end of a program that was not stopped: when only launches that never came kept it
/// running, says how to stop after the traced ones.
void explain_template_wait_locked(RuntimeState& s);

/// At a launch of `kernel`: when it repeats a traced kernel while only registered launches not
/// made keep the program running, says so (once per set of launches not made).
void explain_pending_locked(RuntimeState& s, const std::string& kernel);

}  // namespace memcarlo::host::detail
