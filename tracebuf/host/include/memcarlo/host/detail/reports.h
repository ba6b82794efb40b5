// How emulated CUDA calls stop a program, with one "memcarlo host runtime: ..." line on stderr that
// names the construct and the caller's file and line (docs/host-runtime.md, "What the emulation
// does not do").
#pragma once

#include "memcarlo/host/detail/call_site.h"

namespace memcarlo::host::detail {
/// Prints "<construct> is not supported by the host backend (file:line)" and exits with status 69
/// (EX_UNAVAILABLE), leaving the trace as a readable prefix.
[[noreturn]] void unsupported(const char* construct, ::memcarlo::host::CallSite where);
/// A kernel reached __trap() or __brkpt(): reports where and aborts, as a GPU would fail the
/// launch.
[[noreturn]] void device_trap(const char* construct, ::memcarlo::host::CallSite where);
/// A use of CUDA that cannot go on and that a GPU would not report either (an invalid tile size,
/// a fetch through an unbound texture, a symbol name that names no variable): prints
/// "<problem> (file:line)" and exits with status 70 (EX_SOFTWARE).
[[noreturn]] void invalid_use(const char* problem, ::memcarlo::host::CallSite where);
}  // namespace memcarlo::host::detail
