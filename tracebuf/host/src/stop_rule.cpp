// When a program under MEMCARLO_STOP_AFTER_TRACE has traced all it will, and what to tell its
// user when it cannot stop (docs/host-runtime.md, "Stopping after the traced launches"): which
// launches it awaits (the names the instrumenter registered per unit, or every kernel by base
// name), whether each has had its traced launch, and the notes when only launches not made keep
// it running.
#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "diagnostics.hpp"
#include "loads_registry.hpp"
#include "trace_session_state.hpp"

namespace memcarlo::host::detail {
namespace {

/// The base names of the kernels whose traced launches MEMCARLO_STOP_AFTER_TRACE awaits: those
/// that the loads tables name (kernels reaching an access) or that the instrumenter registered
/// (every kernel with parameters).
std::set<std::string> awaited_kernels() {
  std::set<std::string> needed;
  for (const tracebuf::LoadInfo& load : loads_registry().table()) {
    for (const std::string& kernel : load.kernels) {
      needed.insert(kernel_base_name(kernel));
    }
  }
  for (const std::string& kernel : kernel_parameters().kernels()) {
    needed.insert(kernel);
  }
  return needed;
}

/// With the state locked: the names of the launches the program can make of the awaited kernels
/// (template instances by the name they are launched under) and `cudaLaunchKernel`, when the instrumenter registered
/// the launches of each unit (MEMCARLO_REGISTER_LAUNCHES) and no launch so far came under
/// another name (one from code it did not see); otherwise nullopt.
std::optional<std::set<std::string>> awaited_launches_locked(const RuntimeState& s) {
  const std::optional<std::set<std::string>> names = launch_names().all(loads_registry());
  if (!names) {
    return std::nullopt;
  }
  for (const auto& [name, launches] : s.launches_per_kernel) {
    if (!names->contains(name)) {
      return std::nullopt;
    }
  }
  const std::set<std::string> kernels = awaited_kernels();
  std::set<std::string> awaited;
  for (const std::string& name : *names) {
    // cudaLaunchKernel names every kernel it launches so: which one is not known here.
    if (kernels.contains(kernel_base_name(name)) || name == "cudaLaunchKernel") {
      awaited.insert(name);
    }
  }
  if (awaited.empty()) {
    return std::nullopt;
  }
  return awaited;
}

}  // namespace

/// With the state locked: whether kernel `name` (as a launch names it) has had the traced launch
/// the options select: launch N of it, or by default its first launch with records or its
/// kMaxEmptyTracedLaunches empty ones.
bool kernel_traced_locked(const RuntimeState& s, const std::string& name) {
  const auto launched = s.launches_per_kernel.find(name);
  if (launched == s.launches_per_kernel.end() || !s.options.launch) {
    return false;
  }
  if (!s.options.first_launch_with_records || *s.options.launch != 0) {
    return launched->second > *s.options.launch;
  }
  const auto empty = s.empty_traced_launches.find(name);
  return s.kernels_with_records.contains(name) ||
         (empty != s.empty_traced_launches.end() && empty->second >= kMaxEmptyTracedLaunches);
}

/// With the state locked: whether every launch the options select has been traced, so that no
/// later launch adds to the trace (MEMCARLO_STOP_AFTER_TRACE). With MEMCARLO_KERNEL, each named
/// kernel's; otherwise each name that the instrumenter registered for the program's launches of
/// those kernels (awaited_launches_locked). Without those registrations, each
/// kernel that the loads tables (kernels reaching an access) or the kernel registrations name,
/// by base name, where a kernel launched with template arguments may have further instances to
/// come. A kernel never launched may still come: it keeps the program running (to its end, at
/// worst, as without the option). `instances_final`: as if no further instance of a kernel
/// launched with template arguments could come (without registered launch names).
bool tracing_complete_locked(RuntimeState& s, bool instances_final) {
  if (s.trace_failed || !s.writer || !s.options.launch) {
    return false;
  }
  if (!s.options.kernels.empty()) {
    return std::all_of(s.options.kernels.begin(), s.options.kernels.end(),
                       [&s](const std::string& kernel) { return kernel_traced_locked(s, kernel); });
  }
  if (const std::optional<std::set<std::string>> awaited = awaited_launches_locked(s)) {
    return std::all_of(awaited->begin(), awaited->end(),
                       [&s](const std::string& name) { return kernel_traced_locked(s, name); });
  }
  const std::set<std::string> needed = awaited_kernels();
  if (needed.empty()) {
    return false;
  }
  for (const std::string& base : needed) {
    bool traced = false;
    for (const auto& [name, launches] : s.launches_per_kernel) {
      if (kernel_base_name(name) != base) {
        continue;
      }
      if (!instances_final && name.find('<') != std::string::npos) {
        return false;
      }
      traced = traced || kernel_traced_locked(s, name);
    }
    if (!traced) {
      return false;
    }
  }
  return true;
}

/// Under MEMCARLO_STOP_AFTER_TRACE, at the end of a program that was not stopped: when only
/// launches that never came kept it running (a kernel of a branch not taken, a template instance
/// of another block size) or, without registered launch names, kernels launched with template
/// arguments (another instance might have come), says how to stop after the traced ones.
void explain_template_wait_locked(RuntimeState& s) {
  if (!s.options.stop_after_trace || !s.writer || !s.options.kernels.empty() ||
      tracing_complete_locked(s)) {
    return;
  }
  if (const std::optional<std::set<std::string>> awaited = awaited_launches_locked(s)) {
    std::string traced;
    std::string never;
    std::size_t never_count = 0;
    constexpr std::size_t kNamed = 6;  // names listed; a count for the others
    for (const std::string& name : *awaited) {
      if (!s.launches_per_kernel.contains(name)) {
        if (++never_count <= kNamed) {
          never += (never.empty() ? "" : ", ") + name;
        }
      } else if (kernel_traced_locked(s, name)) {
        traced += (traced.empty() ? "" : ",") + name;
      } else {
        return;  // a launched kernel without its traced launch kept it running too
      }
    }
    if (traced.empty()) {
      return;
    }
    if (never_count > kNamed) {
      never += " and " + std::to_string(never_count - kNamed) + " more";
    }
    warn("the program ran to its end under MEMCARLO_STOP_AFTER_TRACE: it has launches of " + never +
         ", which never came, and might have. Naming the kernels to trace stops the program "
         "after them: MEMCARLO_KERNEL='" +
         traced + "' (memcarlo run --kernel '" + traced + "')");
    return;
  }
  if (!tracing_complete_locked(s, true)) {
    return;
  }
  std::string instances;
  for (const auto& [name, launches] : s.launches_per_kernel) {
    if (name.find('<') != std::string::npos) {
      instances += (instances.empty() ? "" : ",") + name;
    }
  }
  const std::string why =
      "the program ran to its end under MEMCARLO_STOP_AFTER_TRACE: its kernels "
      "launched with template arguments (" +
      instances + ") might have had further instances to come. ";
  warn(why + "Naming the kernels to trace stops the program after them: MEMCARLO_KERNEL='" +
       instances + "' (memcarlo run --kernel '" + instances + "')");
}

/// Under MEMCARLO_STOP_AFTER_TRACE, when a launch repeats a traced kernel (the program loops)
/// while every kernel it has launched has its traced launch and only registered launches it has
/// not made keep it running: says so then, not at the program's end (matrixMul's 300 timed
/// launches of its one instance, waiting for the other block size's), naming the kernels that
/// stop it now. Once per set of launches not made.
void explain_pending_locked(RuntimeState& s, const std::string& kernel) {
  if (!s.options.stop_after_trace || !s.writer || !s.options.kernels.empty() ||
      !kernel_traced_locked(s, kernel)) {
    return;
  }
  const std::optional<std::set<std::string>> awaited = awaited_launches_locked(s);
  if (!awaited) {
    return;
  }
  std::string traced;
  std::string pending;
  for (const std::string& name : *awaited) {
    if (!s.launches_per_kernel.contains(name)) {
      pending += (pending.empty() ? "" : ", ") + name;
    } else if (kernel_traced_locked(s, name)) {
      traced += (traced.empty() ? "" : ",") + name;
    } else {
      return;  // a launched kernel still awaits its traced launch
    }
  }
  if (pending.empty() || traced.empty() || pending == s.pending_named) {
    return;
  }
  s.pending_named = pending;
  warn("every kernel the program has launched has its traced launch, and it runs on under "
       "MEMCARLO_STOP_AFTER_TRACE for launches it registered and has not made yet: " +
       pending + ". Should they never come, it runs to its end; naming the kernels to trace "
       "stops it after them: MEMCARLO_KERNEL='" + traced + "' (memcarlo run --kernel '" + traced +
       "')");
}

}  // namespace memcarlo::host::detail
