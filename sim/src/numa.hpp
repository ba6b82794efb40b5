// Multi-module (NUMA) GPUs in a trial, policy-free and only built when numa.modules > 1: the
// homes that first-touch placement decides per trial, and the inter-module links. The L2 is
// memory-side (a line is cached in its home module's slices, placement/module_map.hpp), so the
// L2 serves every request as before; what a remote request adds is the crossing, applied to its
// fill delay between the L2 drain and Replay::resolve:
//   delay = hops x numa.link_latency + queueing,
// where a link moves link_bandwidth_gbs / clock_mhz x 1000 bytes per cycle, so budget =
// that x interconnect.epoch_cycles bytes per epoch; the remote requests of an epoch are charged
// in the L2's order, and the one that brings a link's load (this epoch's bytes plus the backlog
// left by earlier epochs) to L > budget waits (L - budget) / bytes-per-cycle cycles more (the
// same batching idea as the DRAM model: a budget per epoch, the excess as delay).
// A read's data crosses from the home to the requester, a store's from the requester to the
// home. all-to-all: one hop over the link (source, destination). tree: modules are the leaves
// of a binary switch tree, 2 hops per level up to the common switch (2 x bit_width(a xor b)),
// and the bytes are charged to the source module's link into the tree (the switches are assumed
// not to be the bottleneck).
#pragma once

#include <cstdint>
#include <vector>

#include "trial_state.hpp"

namespace memcarlo::sim {

class NumaLinks {
 public:
  /// For one trial of `trace`: enables the numa counter group, and, when some lines are placed
  /// per trial (first-touch), gives the line space its own homes and indexes their pages.
  NumaLinks(const CompiledTrace& trace, const HierarchyConfig& config,
            TrialWorkspace::State& state);

  /// Before a launch: the links start idle.
  void begin_launch();
  /// Before the L2 serves epoch `epoch`: every page whose first request is in this epoch gets
  /// the module of that request's SM (the earliest issue time; a tie goes to the lower SM).
  void place_first_touches();
  /// After the L2 and DRAM served epoch `epoch` (s.drain_index is the L2's order): counts every
  /// request as local or remote and adds the remote ones' crossing to their fill delay.
  void cross_links(std::uint64_t epoch);

 private:
  static constexpr std::uint32_t kNoPage = 0xFFFFFFFF;

  TrialWorkspace::State& s_;
  std::uint32_t modules_;
  std::uint32_t part_shift_;
  std::uint32_t sets_per_module_;
  std::uint16_t channels_per_module_;
  std::uint32_t traced_lines_;
  std::uint64_t sector_bytes_;
  double link_latency_;
  double bytes_per_cycle_;      // per link; 0: unlimited
  double budget_;               // bytes per link per epoch
  bool tree_;
  std::uint64_t* counters_;     // the numa group's rows
  std::vector<std::uint32_t> module_of_sm_;
  std::vector<std::uint32_t> hops_;       // [a * modules + b]
  std::vector<double> load_;              // per link: bytes this epoch plus the backlog
  std::uint64_t last_epoch_ = 0;
  // First-touch: per traced line its page (kNoPage when its home is static), per page its lines
  // and its home (kNoPage until touched), and this epoch's claims.
  std::vector<std::uint32_t> page_of_line_;
  std::vector<std::uint32_t> page_begin_;  // page p: page_lines_[page_begin_[p], [p + 1])
  std::vector<std::uint32_t> page_lines_;
  std::vector<std::uint32_t> page_home_;
  std::vector<std::uint64_t> claim_time_;
  std::vector<std::uint32_t> claimed_;    // pages claimed in this epoch
};

}  // namespace memcarlo::sim
