// Fatal errors and warnings of the host runtime, and the entry points that headers call when a
// program reaches a construct the emulation does not support.
#include "diagnostics.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string>
#include "memcarlo/host/detail/call_site.h"

namespace memcarlo::host::detail {
namespace {

void write_line(std::string_view prefix, std::string_view message) {
  std::string line;
  line.reserve(prefix.size() + message.size() + 1);
  line.append(prefix).append(message).push_back('\n');
  // One write(2): the line is not interleaved with output of other threads, and nothing is left
  // in a stdio buffer when the process ends with _Exit.
  const char* at = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    const ssize_t n = ::write(STDERR_FILENO, at, left);
    if (n <= 0) {
      break;
    }
    at += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace

void fatal(int exit_code, std::string_view message) {
  std::fflush(stdout);
  std::fflush(stderr);
  write_line("memcarlo host runtime: ", message);
  std::_Exit(exit_code);
}

void warn(std::string_view message) {
  write_line("memcarlo host runtime: warning: ", message);
}

std::string site_text(const char* file, unsigned line) {
  return std::string(file != nullptr ? file : "?") + ":" + std::to_string(line);
}

void unsupported(const char* construct, ::memcarlo::host::CallSite where) {
  fatal(kExitUnsupported, std::string(construct) + " is not supported by the host backend (" +
                              site_text(where.file_name(), where.line()) + ")");
}

void device_trap(const char* construct, ::memcarlo::host::CallSite where) {
  std::fflush(stdout);
  write_line("memcarlo host runtime: ", std::string(construct) + " reached in a kernel (" +
                                            site_text(where.file_name(), where.line()) + ")");
  std::abort();
}

void builtin_outside_kernel(const char* name) {
  fatal(kExitUnsupported,
        std::string(name) + " was read outside a kernel (host code has no CUDA thread)");
}

}  // namespace memcarlo::host::detail
