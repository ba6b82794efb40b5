// Registration functions of the `memcarlo` subcommands, one per file, plus the shared error type
// that turns a user mistake into a message and an exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace CLI {
class App;
}

namespace memcarlo::cli {

/// A mistake in the user's input (bad file, bad option value). main() prints what() and exits
/// with exit_code() (2 for malformed inputs, per the README's exit-code table).
class UserError : public std::runtime_error {
 public:
  explicit UserError(const std::string& what, int exit_code = 2)
      : std::runtime_error(what), exit_code_(exit_code) {}
  [[nodiscard]] int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

/// Ends the command with this exit status and no message (e.g. the status of a child program).
class ExitStatus : public std::exception {
 public:
  explicit ExitStatus(int status) : status_(status) {}
  [[nodiscard]] int status() const { return status_; }
  [[nodiscard]] const char* what() const noexcept override { return "exit status"; }

 private:
  int status_;
};

void add_trace_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_profile_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
/// `memcarlo study`: programs of benchmark suites x hierarchy points, built, traced and simulated.
void add_study_command(CLI::App& app);
/// `memcarlo merge`: the report of a run from its --shard I/N files.
void add_merge_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_diff_command(CLI::App& app);
void add_validate_command(CLI::App& app);
void add_report_command(CLI::App& app);
/// Adds `for-device` under the `hierarchy` subcommand (device name -> preset).
void add_hierarchy_for_device_command(CLI::App& hierarchy);
void add_synth_command(CLI::App& app);
/// `memcarlo footprint`: TAFE's estimated thread address footprints against the trace's.
void add_footprint_command(CLI::App& app);
/// Adds `import` and `export` under the `trace` subcommand (Accel-Sim interoperability).
void add_trace_interop_commands(CLI::App& trace);
/// `memcarlo locality`: threadblock locality graphs, static, measured and compared.
void add_locality_command(CLI::App& app);
/// `memcarlo descriptors`: Locality Descriptors proposed from the loads table's index forms.
void add_descriptors_command(CLI::App& app);

}  // namespace memcarlo::cli
