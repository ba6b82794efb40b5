// The message lines both runtimes print ("memcarlo host runtime: ...", "memcarlo cuda runtime:
// ..."): compiled into the host runtime and, like the option parser, into the cuda runtime; each
// backend defines runtime_name().
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "diagnostics.hpp"

namespace memcarlo::host::detail {
namespace {

void write_line(std::string_view kind, std::string_view message) {
  std::string line(runtime_name());
  line.append(": ").append(kind).append(message).push_back('\n');
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

void print_error(std::string_view message) {
  write_line("", message);
}

void fatal(int exit_code, std::string_view message) {
  std::fflush(stdout);
  std::fflush(stderr);
  print_error(message);
  std::_Exit(exit_code);
}

void warn(std::string_view message) {
  write_line("warning: ", message);
}

std::string site_text(const char* file, unsigned line) {
  return std::string(file != nullptr ? file : "?") + ":" + std::to_string(line);
}

}  // namespace memcarlo::host::detail
