// The host runtime's name in its messages (runtime_messages.cpp prints them), and the entry points
// that headers call when a program reaches a construct the emulation does not support.
#include "diagnostics.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include "memcarlo/host/detail/call_site.h"
#include "memcarlo/host/detail/reports.h"

namespace memcarlo::host::detail {

std::string_view runtime_name() {
  return "memcarlo host runtime";
}

void unsupported(const char* construct, ::memcarlo::host::CallSite where) {
  fatal(kExitUnsupported, std::string(construct) + " is not supported by the host backend (" +
                              site_text(where.file_name(), where.line()) + ")");
}

void invalid_use(const char* problem, ::memcarlo::host::CallSite where) {
  fatal(kExitSoftware,
        std::string(problem) + " (" + site_text(where.file_name(), where.line()) + ")");
}

void device_trap(const char* construct, ::memcarlo::host::CallSite where) {
  std::fflush(stdout);
  print_error(std::string(construct) + " reached in a kernel (" +
              site_text(where.file_name(), where.line()) + ")");
  std::abort();
}

}  // namespace memcarlo::host::detail
