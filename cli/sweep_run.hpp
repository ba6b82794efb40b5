// The sweep itself, shared by `memcarlo sweep`, `memcarlo merge` and `memcarlo study` (which runs
// one sweep per program of a study over the study's points).
#pragma once

#include <string>
#include <vector>

#include "simulate_support.hpp"

namespace memcarlo::cli {

struct SweepOptions {
  SimulateOptions simulation;
  std::vector<std::string> vary;
  bool zip = false;
  std::string points_file;
  std::string csv;
  bool resume = false;
};

struct ShardSpec;
struct MergedShards;

/// The sweep in one process, spread over MPI ranks, for --shard I/N (`shard` active: each point's
/// trials of the shard go to a shard file) or for memcarlo merge (`merged`: the shards' trials and
/// points instead of running them); the report comes from the same code in every case. Throws
/// UserError for bad points, hierarchies or traces.
void run_sweep(const SweepOptions& options, const ShardSpec& shard, const MergedShards* merged);

}  // namespace memcarlo::cli
