// The diagnostics that the shared host-backend sources (option parser, loads registry) call,
// defined for the cuda runtime: same behaviour as tracebuf/host/src/diagnostics.cpp, cuda prefix.
#include "cuda_diagnostics.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace memcarlo::host::detail {
namespace {

void write_line(std::string_view prefix, std::string_view message) {
  std::string line;
  line.reserve(prefix.size() + message.size() + 1);
  line.append(prefix).append(message).push_back('\n');
  // One write(2), so that the line is not interleaved with other threads' output.
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
  write_line("memcarlo cuda runtime: ", message);
  std::_Exit(exit_code);
}

void warn(std::string_view message) {
  write_line("memcarlo cuda runtime: warning: ", message);
}

std::string site_text(const char* file, unsigned line) {
  return std::string(file != nullptr ? file : "?") + ":" + std::to_string(line);
}

}  // namespace memcarlo::host::detail
