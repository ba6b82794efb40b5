// The replacement policies against a reference model: a per-set list of ways from most to least
// recent, updated the way the textbook defines LRU and FIFO. Random sequences of hits and
// replacements over many sets must leave the same order and pick the same victims, for every row
// shape (padded rows, one to four 16-byte chunks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/replacement/registry.hpp"

namespace memcarlo::sim::replacement {
namespace {

/// Ways of each set from most to least recent; initially 0, 1, ..., ways - 1.
class ReferenceOrder {
 public:
  ReferenceOrder(std::uint32_t sets, std::uint32_t ways) : order_(sets) {
    for (auto& set : order_) {
      for (std::uint32_t way = 0; way < ways; ++way) {
        set.push_back(way);
      }
    }
  }
  void promote(std::uint32_t set, std::uint32_t way) {
    auto& o = order_[set];
    o.erase(std::find(o.begin(), o.end(), way));
    o.insert(o.begin(), way);
  }
  [[nodiscard]] std::uint32_t oldest(std::uint32_t set) const { return order_[set].back(); }
  [[nodiscard]] const std::vector<std::uint32_t>& order(std::uint32_t set) const {
    return order_[set];
  }

 private:
  std::vector<std::vector<std::uint32_t>> order_;
};

constexpr std::uint32_t kWayCounts[] = {1, 2, 4, 7, 15, 16, 17, 31, 32, 48, 63, 64};

TEST(RecencyRanks, StartsInWayOrder) {
  RecencyRanks ranks;
  ranks.reset(3, 5);
  for (std::uint32_t set = 0; set < 3; ++set) {
    EXPECT_EQ(ranks.order(set), (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(ranks.view().oldest(set), 4u);
  }
}

TEST(RecencyRanks, PromoteAndRotateFollowTheDefinition) {
  // Four ways: touch 2, then replace twice, then touch 3.
  RecencyRanks ranks;
  ranks.reset(1, 4);
  const auto view = ranks.view();
  view.promote(0, 2);
  EXPECT_EQ(ranks.order(0), (std::vector<std::uint32_t>{2, 0, 1, 3}));
  EXPECT_EQ(view.rotate_oldest(0), 3u);
  EXPECT_EQ(ranks.order(0), (std::vector<std::uint32_t>{3, 2, 0, 1}));
  EXPECT_EQ(view.rotate_oldest(0), 1u);
  EXPECT_EQ(ranks.order(0), (std::vector<std::uint32_t>{1, 3, 2, 0}));
  view.promote(0, 3);
  EXPECT_EQ(ranks.order(0), (std::vector<std::uint32_t>{3, 1, 2, 0}));
  EXPECT_EQ(view.oldest(0), 0u);
}

TEST(RecencyRanks, RandomSequencesMatchTheReferenceForEveryRowShape) {
  std::mt19937 draw(7);
  for (const std::uint32_t ways : kWayCounts) {
    SCOPED_TRACE(ways);
    constexpr std::uint32_t kSets = 5;
    RecencyRanks ranks;
    ranks.reset(kSets, ways);
    ReferenceOrder reference(kSets, ways);
    const auto view = ranks.view();
    for (int step = 0; step < 20000; ++step) {
      const auto set = static_cast<std::uint32_t>(draw() % kSets);
      switch (draw() % 3) {
        case 0: {
          const auto way = static_cast<std::uint32_t>(draw() % ways);
          view.promote(set, way);
          reference.promote(set, way);
          break;
        }
        case 1: {
          const std::uint32_t expected = reference.oldest(set);
          ASSERT_EQ(view.rotate_oldest(set), expected) << "step " << step;
          reference.promote(set, expected);
          break;
        }
        default:
          ASSERT_EQ(view.oldest(set), reference.oldest(set)) << "step " << step;
      }
      if (step % 97 == 0) {
        ASSERT_EQ(ranks.order(set), reference.order(set)) << "step " << step;
      }
    }
    for (std::uint32_t set = 0; set < kSets; ++set) {
      EXPECT_EQ(ranks.order(set), reference.order(set));
    }
  }
}

TEST(Policies, LruEvictsTheLeastRecentlyUsedAndFifoTheFirstFilled) {
  // Fill ways 0..3 in order, hit way 0, then replace: LRU takes way 1 (way 0 was used since),
  // FIFO takes way 0 (filled first; hits do not count).
  RandomStream random(1, Purpose::kL1Replacement, 0, 0);
  Lru lru;
  lru.reset(1, 4);
  Fifo fifo;
  fifo.reset(1, 4);
  const auto l = lru.view();
  const auto f = fifo.view();
  for (std::uint32_t way = 0; way < 4; ++way) {
    l.on_fill(0, way);
    f.on_fill(0, way);
  }
  l.on_hit(0, 0);
  f.on_hit(0, 0);
  EXPECT_EQ(l.replace(0, random), 1u);
  EXPECT_EQ(f.replace(0, random), 0u);
  // The new line is now the most recent / last filled: the next victims are 2 then 3.
  EXPECT_EQ(l.replace(0, random), 2u);
  EXPECT_EQ(f.replace(0, random), 1u);
}

TEST(Policies, RandomVictimsAreUniformOverTheWays) {
  RandomStream random(3, Purpose::kL1Replacement, 0, 0);
  Random policy;
  policy.reset(1, 8);
  const auto view = policy.view();
  std::vector<int> counts(8, 0);
  constexpr int kDraws = 80000;
  for (int i = 0; i < kDraws; ++i) {
    const std::uint32_t way = view.replace(0, random);
    ASSERT_LT(way, 8u);
    ++counts[way];
  }
  for (const int c : counts) {  // expected 10000 each, standard deviation ~94
    EXPECT_NEAR(c, kDraws / 8, 500);
  }
}

// ---- RRIP (Jaleel et al., ISCA 2010), registered from sim/src/replacement/rrip.cpp -------------

/// The L1 policy of fermi-c2050 with `sets` (l1.replacement=..., l1.rrip....), reset to 1 set of
/// 4 ways.
Dynamic rrip_policy(const std::vector<std::string>& sets) {
  const HierarchyConfig config = load_hierarchy("fermi-c2050", sets);
  AnyPolicy made = make(config, "l1");
  EXPECT_TRUE(std::holds_alternative<Dynamic>(made));
  Dynamic policy = std::get<Dynamic>(std::move(made));
  policy.reset(1, 4);
  return policy;
}

TEST(Rrip, SrripKeepsAReusedLineThroughAScan) {
  // M = 2: insertions at 2, hits to 0, victims at 3. Fill 0..3: [2 2 2 2]; hit 0: [0 2 2 2].
  // Miss: none at 3, age by 1: [1 3 3 3], victim 1, inserted at 2: [1 2 3 3]. Then victims 2
  // ([1 2 2 3]) and 3 ([1 2 2 2]); then age by 1 again: [2 3 3 3], victim 1. LRU would have
  // evicted way 0 on the fourth miss.
  RandomStream random(1, Purpose::kL1Replacement, 0, 0);
  const Dynamic policy = rrip_policy({"l1.replacement=srrip"});
  const Dynamic::View view = policy.view();
  for (std::uint32_t way = 0; way < 4; ++way) {
    view.on_fill(0, way);
  }
  view.on_hit(0, 0);
  EXPECT_EQ(view.replace(0, random), 1u);
  EXPECT_EQ(view.replace(0, random), 2u);
  EXPECT_EQ(view.replace(0, random), 3u);
  EXPECT_EQ(view.replace(0, random), 1u);
}

TEST(Rrip, SrripWithOneBitInsertsAtZero) {
  // M = 1: insertion 2^1 - 2 = 0, distant 1. Fill 0..3: [0 0 0 0]; miss: age by 1, [1 1 1 1],
  // victim 0 inserted at 0: [0 1 1 1]; next miss: victim 1.
  RandomStream random(1, Purpose::kL1Replacement, 0, 0);
  const Dynamic policy = rrip_policy({"l1.replacement=srrip", "l1.rrip.bits=1"});
  const Dynamic::View view = policy.view();
  for (std::uint32_t way = 0; way < 4; ++way) {
    view.on_fill(0, way);
  }
  EXPECT_EQ(view.replace(0, random), 0u);
  EXPECT_EQ(view.replace(0, random), 1u);
}

TEST(Rrip, BrripInsertsAFractionEpsilonLong) {
  // M = 2, epsilon = 1/2: insertions 1, 3, 5, ... at 3 (distant), 2, 4, 6, ... at 2 (long).
  // Fill 0..3: [3 2 3 2]; hit 1: [3 0 3 2]. Victim 0 (#5 at 3): [3 0 3 2]; victim 0 (#6 at 2):
  // [2 0 3 2]; victim 2 (#7 at 3); victim 2 (#8 at 2): [2 0 2 2]; none at 3, age by 1:
  // [3 1 3 3], victim 0.
  RandomStream random(1, Purpose::kL1Replacement, 0, 0);
  const Dynamic policy =
      rrip_policy({"l1.replacement=brrip", "l1.rrip.bits=2", "l1.rrip.epsilon=0.5"});
  const Dynamic::View view = policy.view();
  for (std::uint32_t way = 0; way < 4; ++way) {
    view.on_fill(0, way);
  }
  view.on_hit(0, 1);
  const std::vector<std::uint32_t> expected = {0, 0, 2, 2, 0};
  for (const std::uint32_t way : expected) {
    EXPECT_EQ(view.replace(0, random), way);
  }
}

TEST(Rrip, BrripWithEpsilonZeroThrashesOnlyTheLastWay) {
  // Every insertion distant: after the fills [3 3 3 3], each miss takes way 0, the first at 3,
  // and leaves it at 3: a scan passes through one way and the other three lines stay.
  RandomStream random(1, Purpose::kL1Replacement, 0, 0);
  const Dynamic policy = rrip_policy({"l1.replacement=brrip", "l1.rrip.epsilon=0"});
  const Dynamic::View view = policy.view();
  for (std::uint32_t way = 0; way < 4; ++way) {
    view.on_fill(0, way);
  }
  for (int miss = 0; miss < 5; ++miss) {
    EXPECT_EQ(view.replace(0, random), 0u);
  }
}

TEST(Rrip, ExcludedWaysAreNeverVictimsButAgeWithTheSet) {
  // [0 2 2 2] with ways 1 and 2 pinned: the oldest allowed is way 3 at 2; the set ages by 1
  // ([1 3 3 3]) and way 3 goes. Everything pinned: no victim.
  RandomStream random(1, Purpose::kL1Replacement, 0, 0);
  const Dynamic policy = rrip_policy({"l1.replacement=srrip"});
  const Dynamic::View view = policy.view();
  for (std::uint32_t way = 0; way < 4; ++way) {
    view.on_fill(0, way);
  }
  view.on_hit(0, 0);
  EXPECT_EQ(view.replace_excluding(0, 0b0110, random), 3u);
  // [1 3 3 2]: way 1 is at 3 now, but pinned; way 0 at 1 and way 3 at 2: age 1, way 3.
  EXPECT_EQ(view.replace_excluding(0, 0b0110, random), 3u);
  EXPECT_EQ(view.replace_excluding(0, 0b1111, random), kNoWay);
}

TEST(Rrip, KeysAreHierarchyKeysCheckedWhenThePolicyIsMade) {
  const auto keys = hierarchy_parameters();
  for (const char* key : {"l1.rrip.bits", "l2.rrip.bits", "l1.rrip.epsilon", "l2.rrip.epsilon"}) {
    EXPECT_TRUE(std::any_of(keys.begin(), keys.end(), [&](const ParameterInfo& info) {
      return info.key == key;
    })) << key;
  }
  const HierarchyConfig config =
      load_hierarchy("fermi-c2050", {"l2.replacement=srrip", "l2.rrip.bits=9"});
  try {
    (void)make(config, "l2");
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "l2.rrip.bits: expected an integer from 1 to 8; got 9");
  }
}

}  // namespace
}  // namespace memcarlo::sim::replacement
