// How `memcarlo descriptors` orders its proposals (descriptor_proposer.cpp): the key data
// structure first (the paper's §3.3.5), measured where the descriptors act, by the requests the
// descriptor's accesses send past the L1 in one trial of the launch on the engine
// (docs/locality-descriptors.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "memcarlo/sim/config.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::cli {

/// How much each access of a launch asks of memory, by load id (a redundant entry's under the
/// access it repeats).
struct AccessWeights {
  std::map<std::uint32_t, std::uint64_t> threads;  // one per active lane of its records
  std::map<std::uint32_t, std::uint64_t> l2;  // L2 line reads, writes and atomics in one trial
  std::string unranked_why;  // set (and `l2` empty) when the launch cannot run on the hierarchy
};

/// The weights of launch `launch`'s accesses: its records, and one trial of the launch alone on
/// `hierarchy` (seed 1, one thread).
AccessWeights weigh_accesses(const tracebuf::TraceReader& reader, std::uint32_t launch,
                             const sim::HierarchyConfig& hierarchy);

/// Sets the priorities of `proposed`, whose i-th descriptor covers the accesses `loads[i]`: the
/// more L2 requests, the higher; ties: the more accesses by the threads, then the more CTAs share
/// a D-Tile, then the earlier proposed.
void rank_descriptors(std::vector<tracebuf::LocalityDescriptor>& proposed,
                      const std::vector<std::vector<std::uint32_t>>& loads,
                      const AccessWeights& weights);

}  // namespace memcarlo::cli
