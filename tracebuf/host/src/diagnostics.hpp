// How the host runtime reports what it cannot do: one line on stderr that starts with
// "memcarlo host runtime:", then a distinct exit status, leaving any trace as a readable prefix.
#pragma once

#include <string>
#include <string_view>

namespace memcarlo::host::detail {

inline constexpr int kExitUnsupported = 69;  // EX_UNAVAILABLE: a construct the emulation lacks
inline constexpr int kExitSoftware = 70;     // EX_SOFTWARE: deadlock, mismatched collectives
inline constexpr int kExitConfig = 78;       // EX_CONFIG: a malformed MEMCARLO_* variable

/// "memcarlo host runtime" or "memcarlo cuda runtime": defined by each backend, starts every line.
std::string_view runtime_name();

/// Prints one "<runtime_name()>: message" line on stderr, with a single write(2).
void print_error(std::string_view message);

/// Prints the message and ends the process with `exit_code` at once (no atexit handlers: other
/// OS threads may still be inside blocks). Trace chunks already written stay a valid prefix.
[[noreturn]] void fatal(int exit_code, std::string_view message);

/// Prints a warning line; the program goes on.
void warn(std::string_view message);

/// "file:line".
std::string site_text(const char* file, unsigned line);

}  // namespace memcarlo::host::detail
