// Running child programs from the CLI: spawn with extra environment variables, wait, and decode
// how the child ended (exit code or signal), for `memcarlo run`, `profile` and `memcarlo-cc`.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace memcarlo::cli {

struct ProcessResult {
  bool started = false;  // false: exec failed (error says why)
  int exit_code = 0;     // when exited normally
  int signal = 0;        // non-zero when killed by a signal
  std::string error;
  /// The exit status a shell would report: the exit code, or 128 + signal.
  [[nodiscard]] int shell_status() const { return signal != 0 ? 128 + signal : exit_code; }
};

/// Where a child runs and where its output goes (empty: inherited from us).
struct ProcessIo {
  std::string working_directory;
  std::string output;  // standard output and error, appended to this file; stdin from /dev/null
};

/// Runs argv[0] (searched on PATH) with `environment` added to ours; stdin, stdout and stderr
/// are inherited unless `io` says otherwise. Blocks until it ends.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& environment = {},
                          const ProcessIo& io = {});

/// A command line for messages, quoted where needed.
std::string quote_command(const std::vector<std::string>& argv);

/// Directory of the running executable (to find sibling tools such as memcarlo-cc).
std::string executable_directory();

}  // namespace memcarlo::cli
