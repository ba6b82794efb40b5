// mta: Many-Thread-Aware prefetching (Lee, Lakshminarayana, Kim, Vuduc, MICRO 2010; Snake's
// [29]) without its throttle: both tables train on every load instance; a load whose warp has a
// trained intra-warp stride prefetches with it, and only a load without one falls back to the
// trained inter-warp stride (the paper's priority: a thread's own stride is the surer guess).
#pragma once

#include <array>

#include "inter_warp.hpp"
#include "intra_warp.hpp"

namespace memcarlo::sim::prefetch {

class ManyThreadAware {
 public:
  static constexpr std::string_view kName = "mta";
  static constexpr std::uint32_t kMaxRequests = kMaxDegree * kMaxLinesPerInstruction;
  static constexpr std::array kKeys{kDegree, kDistance, kTableEntries, kLoadsPerWarp};

  explicit ManyThreadAware(const HierarchyConfig& config) : intra_(config), inter_(config) {}

  void begin_launch(std::uint32_t sm_count) {
    intra_.begin_launch(sm_count);
    inter_.begin_launch(sm_count);
  }

  template <class Sink>
  void on_access(const L1Access& access, Sink& sink) {
    if (!access.first_of_instruction) {
      return;
    }
    std::int64_t intra_stride = 0;
    std::int64_t inter_stride = 0;
    const bool intra = intra_.train(access, intra_stride);
    const bool inter = inter_.train(access, inter_stride);
    if (intra) {
      intra_.prefetch(access, intra_stride, sink);
    } else if (inter) {
      inter_.prefetch(access, inter_stride, sink);
    }
  }

 private:
  IntraWarp intra_;
  InterWarp inter_;
};

using Mta = ManyThreadAware;  // the name the build's list gives mta.hpp

}  // namespace memcarlo::sim::prefetch
