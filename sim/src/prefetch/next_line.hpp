// next-line: on an L1 miss, the next `prefetch.degree` L1 lines (the classic sequential
// prefetcher; Smith, "Sequential program prefetching in memory hierarchies", IEEE Computer 1978;
// ChampSim's next_line is the same rule). Keeps no state.
#pragma once

#include <array>

#include "common.hpp"

namespace memcarlo::sim::prefetch {

class NextLine {
 public:
  static constexpr std::string_view kName = "next-line";
  static constexpr std::uint32_t kMaxRequests = kMaxDegree;
  static constexpr std::array kKeys{kDegree};

  explicit NextLine(const HierarchyConfig& config)
      : line_(config.l1.line), degree_(bounded_key(config, kDegree, 1, kMaxDegree)) {}
  void begin_launch(std::uint32_t /*sm_count*/) {}

  template <class Sink>
  void on_access(const L1Access& access, Sink& sink) {
    if (access.hit) {
      return;
    }
    for (std::uint32_t k = 1; k <= degree_; ++k) {
      sink.prefetch(ByteAddress{value_of(access.line_address) + std::uint64_t{k} * line_});
    }
  }

 private:
  std::uint64_t line_;
  std::uint32_t degree_;
};

}  // namespace memcarlo::sim::prefetch
