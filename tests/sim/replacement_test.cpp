// The replacement policies against a reference model: a per-set list of ways from most to least
// recent, updated the way the textbook defines LRU and FIFO. Random sequences of hits and
// replacements over many sets must leave the same order and pick the same victims, for every row
// shape (padded rows, one to four 16-byte chunks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

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

}  // namespace
}  // namespace memcarlo::sim::replacement
