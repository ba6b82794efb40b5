// `memcarlo merge SHARD... -o FILE`: the report of a run from the shard files of its --shard I/N
// parts, made by the code that makes simulate's and sweep's reports.
#pragma once

#include <string>
#include <vector>

namespace memcarlo::cli {

struct MergedShards;

struct MergeOptions {
  std::vector<std::string> shards;
  std::string output;  // empty: report.json for simulate shards, sweep.json for sweep shards
  std::string trace;   // empty: the trace path the shards recorded
  std::string csv;     // sweep shards: also the CSV, as sweep --csv
  unsigned threads = 0;
  bool quiet = false;
};

/// The simulate report (and table) of merged simulate shards.
void merge_simulate(const MergedShards& merged, const MergeOptions& options);
/// The sweep report (and table, CSV) of merged sweep shards.
void merge_sweep(const MergedShards& merged, const MergeOptions& options);

}  // namespace memcarlo::cli
