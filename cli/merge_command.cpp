// `memcarlo merge SHARD... -o FILE`: checks that the shard files are all the parts of one run
// (shard_file.hpp) and writes the run's report as simulate or sweep would have.
#include <CLI/CLI.hpp>

#include <memory>

#include "commands.hpp"
#include "merge.hpp"
#include "shard_file.hpp"

namespace memcarlo::cli {

void add_merge_command(CLI::App& app) {
  auto options = std::make_shared<MergeOptions>();
  auto* merge = app.add_subcommand(
      "merge",
      "Combine the shard files of `simulate|sweep --shard I/N` (one per shard, any order) into "
      "the report one process would have written (all but its performance section)");
  merge->add_option("SHARD", options->shards, "Shard files")->required();
  merge->add_option("--output,-o", options->output,
                    "Report file ('-' for stdout; default report.json for simulate shards, "
                    "sweep.json for sweep shards)");
  merge->add_option("--trace", options->trace,
                    "The trace, when it is no longer at the path the shards recorded (its "
                    "SHA-256 must be theirs)");
  merge->add_option("--csv", options->csv, "Sweep shards: also write the CSV, as sweep --csv");
  merge->add_option("--threads,-j", options->threads,
                    "Threads for compiling the trace again (0: all cores)");
  merge->add_flag("--quiet,-q", options->quiet, "Print no table (errors only)");
  merge->callback([options] {
    std::vector<ShardFile> shards;
    for (const std::string& path : options->shards) {
      shards.push_back(read_shard(path));
    }
    const MergedShards merged = merge_shards(shards);
    const std::string command = merged.run.at("command").get<std::string>();
    if (command == "sweep") {
      merge_sweep(merged, *options);
    } else if (command == "simulate") {
      if (!options->csv.empty()) {
        throw UserError("merge: --csv is for sweep shards; these are simulate shards", 1);
      }
      merge_simulate(merged, *options);
    } else {
      throw UserError("merge: " + shards.front().path + ": unknown command " + command, 2);
    }
  });
}

}  // namespace memcarlo::cli
