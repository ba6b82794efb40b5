// Running a program from a test: its exit code and what it printed. Shared by the tests that
// drive the `memcarlo` and `memcarlo-cc` executables.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace memcarlo::test_support {

struct CommandResult {
  int exit_code = -1;  // -1: the command could not be started or did not exit normally
  std::string output;  // its standard output (and standard error where the command sends it there)
};

/// Runs `command` with /bin/sh and collects its standard output; append " 2>&1" to have the
/// standard error too.
inline CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    result.output = "cannot run " + command;
    return result;
  }
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) {
    result.output += buffer.data();
  }
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace memcarlo::test_support
