// --shard I/N for job arrays: the partial result that `memcarlo simulate` or `sweep` writes for one
// shard (a JSON header saying what was run, and the shard's trials in the TrialResult binary form,
// base64), and the checks and the reassembly of `memcarlo merge`.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::cli {

/// Shard `index` of `count` (0 <= index < count) runs the trials t with t % count == index; a
/// count of 0 means no sharding.
struct ShardSpec {
  std::uint32_t index = 0;
  std::uint32_t count = 0;
  [[nodiscard]] bool active() const { return count > 0; }
  [[nodiscard]] std::string text() const {
    return std::to_string(index) + "/" + std::to_string(count);
  }
};

/// "I/N" with 0 <= I < N; throws UserError otherwise.
ShardSpec parse_shard(const std::string& text);

/// The shard file for report path `report` when -o is not given: "report.json" with shard 1/4 is
/// "report.shard-1-of-4.json".
std::string default_shard_path(const std::string& report, ShardSpec shard);

/// One shard's partial result.
struct ShardFile {
  std::string path;  // where it was read from, for messages
  ShardSpec shard;
  /// What was run: the command, the trace (path, SHA-256), the hierarchy (as named, its --set
  /// overrides and every resolved key), seed, trials, bins, and for a sweep its points. Every
  /// shard of one run has the same; merge rebuilds the run from it.
  nlohmann::ordered_json run;
  std::vector<std::vector<sim::TrialResult>> points;  // per point (one for simulate): this
                                                      // shard's trials in trial order
  std::vector<double> wall_seconds;                   // per point
  unsigned threads = 0;
};

void write_shard(const std::string& path, const ShardFile& shard);
/// Throws UserError (exit code 2) naming the file for anything that is not a shard file of this
/// format version.
ShardFile read_shard(const std::string& path);

/// The shards put back together: each point's trials in trial order.
struct MergedShards {
  nlohmann::ordered_json run;
  std::vector<std::vector<sim::TrialResult>> points;
  std::vector<double> wall_seconds;  // per point, the longest shard's
  unsigned threads = 0;
};

/// Checks that `shards` are all the shards of one run, once each, in any order, and combines
/// them. Refused with a UserError naming the files and the field: shards of different runs
/// (trace, hierarchy, seed, trials, sweep points, ...), of different shard counts, a shard given
/// twice, a missing shard ("shard 2/4 missing"), a shard with the wrong number of trials.
MergedShards merge_shards(const std::vector<ShardFile>& shards);

}  // namespace memcarlo::cli
