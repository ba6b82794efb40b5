// srrip and brrip: Re-Reference Interval Prediction (Jaleel, Theobald, Steely and Emer, "High
// Performance Cache Replacement Using Re-Reference Interval Prediction (RRIP)", ISCA 2010).
// Every way holds an M-bit re-reference prediction value (RRPV): 0 means "re-referenced soon",
// 2^M - 1 "in the distant future".
//   hit        the way's RRPV becomes 0 (hit priority, SRRIP-HP);
//   victim     the first way (lowest index) whose RRPV is 2^M - 1; when none is, every RRPV of
//              the set first grows by the same amount until one is (the paper's repeated aging,
//              done in one step);
//   insertion  SRRIP: 2^M - 2 ("long"), so that a line not reused before the others age leaves
//              first and a scan cannot flush the reused lines; BRRIP: 2^M - 1 ("distant") except
//              for a fraction epsilon of the insertions, which get 2^M - 2 (thrash resistance).
// BRRIP's throttle is a counter rather than a coin: insertion i (from 1, per cache and launch) is
// long when floor(i x epsilon) > floor((i - 1) x epsilon), so exactly that fraction is, and the
// fills of invalid ways (which the contract gives no random stream) are treated like the others.
// With pinned ways (ldesc.cache), the victim is chosen among the ways not pinned; the aging
// still applies to the whole set, saturating at 2^M - 1.
//
// Keys, per level: l1.rrip.bits / l2.rrip.bits (M), l1.rrip.epsilon / l2.rrip.epsilon (BRRIP).
// Runs through replacement::Dynamic (no SM or L2 side of its own).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "memcarlo/sim/replacement/registry.hpp"

namespace memcarlo::sim::replacement {
namespace {

constexpr KeySpec kL1Bits{"l1.rrip.bits", "integer", "2",
                          "srrip, brrip in the L1: bits M of each way's re-reference prediction "
                          "value (1 to 8; 2^M - 1 is 'distant')"};
constexpr KeySpec kL2Bits{"l2.rrip.bits", "integer", "2",
                          "srrip, brrip in the L2: bits M of each way's re-reference prediction "
                          "value (1 to 8; 2^M - 1 is 'distant')"};
constexpr KeySpec kL1Epsilon{"l1.rrip.epsilon", "number", "0.03125",
                             "brrip in the L1: the fraction of insertions at 2^M - 2 (long) "
                             "instead of 2^M - 1 (distant), 0 to 1"};
constexpr KeySpec kL2Epsilon{"l2.rrip.epsilon", "number", "0.03125",
                             "brrip in the L2: the fraction of insertions at 2^M - 2 (long) "
                             "instead of 2^M - 1 (distant), 0 to 1"};

constexpr std::uint64_t kOne = std::uint64_t{1} << 32;  // the throttle's fixed point

class Rrip final : public DynamicPolicy {
 public:
  /// `long_step`: epsilon in 32-bit fixed point (kOne: every insertion long, i.e. SRRIP).
  Rrip(std::uint32_t bits, std::uint64_t long_step)
      : distant_(static_cast<std::uint8_t>((1u << bits) - 1)), long_step_(long_step) {}

  void reset(std::uint32_t sets, std::uint32_t ways) override {
    ways_ = ways;
    rrpv_.assign(std::size_t{sets} * ways, distant_);
    throttle_ = 0;
  }
  void on_fill(std::uint32_t set, std::uint32_t way) override { row(set)[way] = insertion(); }
  void on_hit(std::uint32_t set, std::uint32_t way) override { row(set)[way] = 0; }

  std::uint32_t replace(std::uint32_t set, RandomStream&) override {
    std::uint8_t* rrpv = row(set);
    const std::uint8_t top = *std::max_element(rrpv, rrpv + ways_);
    const auto age = static_cast<std::uint8_t>(distant_ - top);
    std::uint32_t victim = ways_;
    for (std::uint32_t way = 0; way < ways_; ++way) {
      rrpv[way] = static_cast<std::uint8_t>(rrpv[way] + age);
      if (victim == ways_ && rrpv[way] == distant_) {
        victim = way;
      }
    }
    rrpv[victim] = insertion();
    return victim;
  }

  std::uint32_t replace_excluding(std::uint32_t set, std::uint64_t excluded,
                                  RandomStream&) override {
    std::uint8_t* rrpv = row(set);
    int top = -1;
    for (std::uint32_t way = 0; way < ways_; ++way) {
      if ((excluded >> way & 1) == 0) {
        top = std::max<int>(top, rrpv[way]);
      }
    }
    if (top < 0) {
      return kNoWay;
    }
    const int age = distant_ - top;
    std::uint32_t victim = kNoWay;
    for (std::uint32_t way = 0; way < ways_; ++way) {
      rrpv[way] = static_cast<std::uint8_t>(std::min<int>(distant_, rrpv[way] + age));
      if (victim == kNoWay && (excluded >> way & 1) == 0 && rrpv[way] == distant_) {
        victim = way;
      }
    }
    rrpv[victim] = insertion();
    return victim;
  }

  [[nodiscard]] std::unique_ptr<DynamicPolicy> clone() const override {
    return std::make_unique<Rrip>(*this);
  }

 private:
  std::uint8_t* row(std::uint32_t set) { return rrpv_.data() + std::size_t{set} * ways_; }

  std::uint8_t insertion() {
    throttle_ += long_step_;
    if (throttle_ >= kOne) {
      throttle_ -= kOne;
      return static_cast<std::uint8_t>(distant_ - 1);
    }
    return distant_;
  }

  std::uint8_t distant_;
  std::uint64_t long_step_;
  std::uint64_t throttle_ = 0;
  std::uint32_t ways_ = 0;
  std::vector<std::uint8_t> rrpv_;  // [set][way]
};

std::uint32_t bits_of(const HierarchyConfig& config, std::string_view level) {
  const KeySpec& key = level == "l1" ? kL1Bits : kL2Bits;
  const std::uint64_t bits = config.params.integer(key);
  if (bits < 1 || bits > 8) {
    throw std::invalid_argument(std::string(key.name) + ": expected an integer from 1 to 8; got " +
                                config.params.text(key));
  }
  return static_cast<std::uint32_t>(bits);
}

AnyPolicy make_srrip(const HierarchyConfig& config, std::string_view level) {
  return AnyPolicy{Dynamic(std::make_unique<Rrip>(bits_of(config, level), kOne))};
}

AnyPolicy make_brrip(const HierarchyConfig& config, std::string_view level) {
  const KeySpec& key = level == "l1" ? kL1Epsilon : kL2Epsilon;
  const double epsilon = config.params.number(key);
  if (!(epsilon >= 0 && epsilon <= 1)) {
    throw std::invalid_argument(std::string(key.name) + ": expected a number from 0 to 1; got " +
                                config.params.text(key));
  }
  const auto step = static_cast<std::uint64_t>(std::llround(epsilon * static_cast<double>(kOne)));
  return AnyPolicy{Dynamic(std::make_unique<Rrip>(bits_of(config, level), step))};
}

}  // namespace

void register_rrip(ReplacementRegistry& registry) {
  registry.add({"srrip",
                "static RRIP (Jaleel et al., ISCA 2010): hits predict 0, insertions 2^M - 2, the "
                "victim the first way at 2^M - 1 after aging",
                {kL1Bits, kL2Bits},
                make_srrip});
  registry.add({"brrip",
                "bimodal RRIP: as srrip, but insertions at 2^M - 1 except a fraction epsilon at "
                "2^M - 2",
                {kL1Bits, kL2Bits, kL1Epsilon, kL2Epsilon},
                make_brrip});
}

}  // namespace memcarlo::sim::replacement
