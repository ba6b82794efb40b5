// Counter groups: per-slot counters a policy enables for a trial, absent (no memory, no totals)
// otherwise, and reduced from slots to loads, allocations, kernels and the whole trial exactly
// like the access counters. Sums worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "memcarlo/sim/trial_digest.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::run_one;
using testing::TraceBuilder;
using tracebuf::AccessKind;

constexpr std::uint32_t kIssued = kPrefetchGroup.index_of("issued");
constexpr std::uint32_t kUseful = kPrefetchGroup.index_of("useful");
constexpr std::uint32_t kDropped = kPrefetchGroup.index_of("dropped");
static_assert(kIssued == 0 && kUseful == 1 && kDropped == 7 && kPrefetchGroup.width() == 12);

/// Four slots: (load, allocation, kernel) = (0, 0, 0), (1, none, 0), (0, 1, 1), (2, 0, 1).
const std::vector<CounterSlot> kSlots = {{0, 0, 0}, {1, kNoAllocation, 0}, {0, 1, 1}, {2, 0, 1}};

TrialResult sized_result() {
  TrialResult result;
  result.loads.resize(3);
  result.allocations.resize(2);
  result.kernels.resize(2);
  return result;
}

TEST(CounterGroups, AGroupNobodyEnabledHoldsNothingAndHasNoTotals) {
  CounterGroupSlots groups;
  EXPECT_FALSE(groups.enabled(kPrefetchGroup));
  EXPECT_TRUE(groups.rows(kPrefetchGroup).empty());
  EXPECT_EQ(groups.bytes(), 0u);
  const std::vector<AccessCounters> access(kSlots.size());
  TrialResult result = sized_result();
  add_slot_counters(kSlots, access, groups, result);
  const CounterGroupTotals& prefetch = result.groups[counter_group_index(kPrefetchGroup)];
  EXPECT_FALSE(prefetch.enabled());
  EXPECT_TRUE(prefetch.loads.empty() && prefetch.allocations.empty() && prefetch.kernels.empty() &&
              prefetch.overall.empty());
  EXPECT_TRUE(prefetch.load(0).empty());
}

TEST(CounterGroups, AReplayWithoutPoliciesThatCountLeavesEveryGroupAbsent) {
  TraceBuilder builder(1, 32);
  const auto x = builder.add_load(AccessKind::kRead, "x[i]");
  builder.coalesced(0, 0, x, 0x10000);
  const TrialResult r = run_one(builder.write("no-groups"), load_hierarchy("fermi-c2050"));
  for (const CounterGroupTotals& group : r.groups) {
    EXPECT_FALSE(group.enabled());
    EXPECT_TRUE(group.loads.empty() && group.overall.empty());
  }
}

TEST(CounterGroups, AnEnabledGroupIsSummedPerLoadAllocationKernelAndOverallLikeTheAccessCounters) {
  CounterGroupSlots groups;
  std::uint64_t* rows = groups.enable(kPrefetchGroup, kSlots.size());
  ASSERT_EQ(groups.rows(kPrefetchGroup).size(), kSlots.size() * kPrefetchGroup.width());
  // issued / useful of slots 0..3: 10/4, 20/5, 30/6, 40/7; dropped 1, 2, 3, 4.
  std::vector<AccessCounters> access(kSlots.size());
  for (std::size_t slot = 0; slot < kSlots.size(); ++slot) {
    rows[slot * kPrefetchGroup.width() + kIssued] = 10 * (slot + 1);
    rows[slot * kPrefetchGroup.width() + kUseful] = 4 + slot;
    rows[slot * kPrefetchGroup.width() + kDropped] = slot + 1;
    access[slot].l1_accesses = 100 * (slot + 1);
  }
  TrialResult result = sized_result();
  add_slot_counters(kSlots, access, groups, result);
  const CounterGroupTotals& prefetch = result.groups[counter_group_index(kPrefetchGroup)];
  ASSERT_TRUE(prefetch.enabled());
  ASSERT_EQ(prefetch.width, kPrefetchGroup.width());
  // Load 0 has slots 0 and 2, load 1 slot 1, load 2 slot 3.
  EXPECT_EQ(prefetch.load(0)[kIssued], 10u + 30);
  EXPECT_EQ(prefetch.load(0)[kUseful], 4u + 6);
  EXPECT_EQ(prefetch.load(0)[kDropped], 1u + 3);
  EXPECT_EQ(prefetch.load(1)[kIssued], 20u);
  EXPECT_EQ(prefetch.load(2)[kUseful], 7u);
  // Allocation 0 has slots 0 and 3, allocation 1 slot 2; slot 1 has none.
  EXPECT_EQ(prefetch.allocation(0)[kIssued], 10u + 40);
  EXPECT_EQ(prefetch.allocation(1)[kIssued], 30u);
  // Kernel 0 has slots 0 and 1, kernel 1 slots 2 and 3.
  EXPECT_EQ(prefetch.kernel(0)[kUseful], 4u + 5);
  EXPECT_EQ(prefetch.kernel(1)[kUseful], 6u + 7);
  EXPECT_EQ(prefetch.overall[kIssued], 100u);
  EXPECT_EQ(prefetch.overall[kUseful], 22u);
  EXPECT_EQ(prefetch.overall[kDropped], 10u);
  EXPECT_EQ(prefetch.overall[kPrefetchGroup.index_of("late")], 0u);
  // The access counters of the same slots went the same way.
  EXPECT_EQ(result.loads[0].l1_accesses, 100u + 300);
  EXPECT_EQ(result.allocations[0].l1_accesses, 100u + 400);
  EXPECT_EQ(result.kernels[1].l1_accesses, 300u + 400);
  EXPECT_EQ(result.overall.l1_accesses, 1000u);
}

TEST(CounterGroups, EnablingAgainInTheSameTrialKeepsTheCountsAndANewTrialStartsWithoutGroups) {
  CounterGroupSlots groups;
  groups.enable(kPrefetchGroup, 2)[5 + kUseful] = 9;
  EXPECT_EQ(groups.enable(kPrefetchGroup, 2)[5 + kUseful], 9u);
  groups.disable_all();
  EXPECT_FALSE(groups.enabled(kPrefetchGroup));
  EXPECT_TRUE(groups.rows(kPrefetchGroup).empty());
  EXPECT_EQ(groups.enable(kPrefetchGroup, 2)[5 + kUseful], 0u);  // zeroed for the new trial
}

TEST(CounterGroups, TheDigestCoversAnEnabledGroupAndIsUnchangedWithoutOne) {
  CounterGroupSlots groups;
  const std::vector<AccessCounters> access(kSlots.size());
  TrialResult without = sized_result();
  add_slot_counters(kSlots, access, groups, without);
  groups.enable(kPrefetchGroup, kSlots.size())[kIssued] = 1;
  TrialResult with = sized_result();
  add_slot_counters(kSlots, access, groups, with);
  TrialDigest a;
  a.add(without);
  TrialDigest b;
  b.add(with);
  TrialDigest plain;
  plain.add(sized_result());
  EXPECT_NE(a.value(), b.value());
  EXPECT_EQ(a.value(), plain.value());
}

}  // namespace
}  // namespace memcarlo::sim
