// Entry point of the `memcarlo` command: builds the CLI11 tree from the per-command registration
// functions and maps errors to exit codes (0 ok, 1 internal or usage error, 2 malformed input).
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "commands.hpp"
#include "memcarlo/tracebuf/errors.hpp"
#include "ranks.hpp"

namespace {

int run_command(int argc, char** argv) {
  CLI::App app{
      "memcarlo: per-load memory-hierarchy analysis of CUDA kernels by Monte Carlo replay of\n"
      "warp traces. Run `memcarlo <command> --help` for the options of each command."};
  app.set_version_flag("--version", std::string("memcarlo ") + MEMCARLO_VERSION);
  app.require_subcommand(1);
  memcarlo::cli::add_trace_command(app);
  memcarlo::cli::add_simulate_command(app);
  memcarlo::cli::add_sweep_command(app);
  memcarlo::cli::add_study_command(app);
  memcarlo::cli::add_merge_command(app);
  memcarlo::cli::add_compare_command(app);
  memcarlo::cli::add_diff_command(app);
  memcarlo::cli::add_validate_command(app);
  memcarlo::cli::add_report_command(app);
  memcarlo::cli::add_hierarchy_for_device_command(*app.get_subcommand("hierarchy"));
  memcarlo::cli::add_run_command(app);
  memcarlo::cli::add_profile_command(app);
  memcarlo::cli::add_footprint_command(app);
  memcarlo::cli::add_locality_command(app);
  memcarlo::cli::add_descriptors_command(app);
#ifdef MEMCARLO_HAVE_SYNTH
  memcarlo::cli::add_synth_command(app);
#endif
  // The first word that is not an option names the command. CLI11 would take an unknown one for
  // an extra argument, and with --help after it print the general help and succeed.
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    std::string names;
    const CLI::App& commands = app;
    for (const CLI::App* command : commands.get_subcommands(nullptr)) {
      known = known || command->check_name(argv[1]);
      names += (names.empty() ? "" : ", ") + command->get_name();
    }
    if (!known) {
      std::cerr << "memcarlo: error: unknown command '" << argv[1] << "'; the commands are "
                << names << " (memcarlo --help)\n";
      return 1;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end here with 0. A value that does not convert or fails its check
    // is malformed input (2); the rest (unknown option, missing argument) is a usage error (1).
    if (app.exit(e) == 0) {
      return 0;
    }
    const bool bad_value = dynamic_cast<const CLI::ConversionError*>(&e) != nullptr ||
                           dynamic_cast<const CLI::ValidationError*>(&e) != nullptr;
    return bad_value ? 2 : 1;
  } catch (const memcarlo::cli::ExitStatus& e) {
    return e.status();
  } catch (const memcarlo::cli::UserError& e) {
    std::cerr << "memcarlo: error: " << e.what() << "\n";
    return e.exit_code();
  } catch (const memcarlo::tracebuf::TraceError& e) {
    std::cerr << "memcarlo: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "memcarlo: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Under mpirun: MPI starts here, and an error on one rank (its message already printed) ends
  // the whole job instead of leaving the other ranks waiting for it.
  memcarlo::cli::ranks::start(argc, argv);
  const int status = run_command(argc, argv);
  if (status != 0) {
    memcarlo::cli::ranks::abort_job(status);
  }
  memcarlo::cli::ranks::finish();
  return status;
}
