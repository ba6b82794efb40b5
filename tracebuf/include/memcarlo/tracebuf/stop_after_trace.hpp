// What a host-backend program and `memcarlo run` agree on when the program is told to stop once
// its traced launches are written (MEMCARLO_STOP_AFTER_TRACE=1, docs/host-runtime.md): the exit
// status it ends with and the status file it leaves beside the trace.
#pragma once

#include <string>

namespace memcarlo::tracebuf {

/// The exit status of a program that the host runtime stopped after its traced launches; it is
/// that stop only when the status file exists too (a program may exit with 79 on its own).
inline constexpr int kExitStoppedAfterTrace = 79;

/// The status file of a stopped program, beside its trace: one JSON object,
/// `{"launch": L, "kernel": K, "sequence_in_program": S, "blocks_run": R, "blocks": B}` naming the
/// traced launch after which the program stopped (Launch chunk L of the trace) and how many of
/// its blocks ran (R < B: only the snapshot's).
inline std::string stop_status_path(const std::string& trace_path) {
  return trace_path + ".stopped";
}

}  // namespace memcarlo::tracebuf
