// What one Monte Carlo trial measures: event counters per static load, per allocation, per kernel
// and overall, the same for each counter group its policies enabled, and the per-load latency
// histograms of its accesses. Plain data; the statistics across trials live in analysis/.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "memcarlo/sim/counters.hpp"

namespace memcarlo::sim {

/// Counters of a dense layout that are mostly zero, kept as their non-zero entries: `index[i]`
/// (ascending) holds `count[i]`. A trial's latency histograms occupy a few dozen of the
/// latency::kRowSize (308) counters of each load, and a run keeps every trial's result, so the
/// dense form would take 2.4 KB per load per trial.
struct SparseCounts {
  std::vector<std::uint32_t> index;
  std::vector<std::uint64_t> count;

  /// The entries of `dense` that are not zero.
  static SparseCounts from_dense(std::span<const std::uint64_t> dense);
  /// The dense layout of `size` counters.
  [[nodiscard]] std::vector<std::uint64_t> dense(std::size_t size) const;
  /// The counter at `i` of the dense layout (0 when absent).
  [[nodiscard]] std::uint64_t at(std::size_t i) const;
  [[nodiscard]] bool operator==(const SparseCounts&) const = default;
};

struct TrialResult {
  std::vector<AccessCounters> loads;        // indexed by static id
  std::vector<AccessCounters> allocations;  // indexed like CompiledTrace::allocation_names
  std::vector<AccessCounters> kernels;      // indexed like CompiledTrace::kernel_names
  AccessCounters overall;
  std::uint64_t transactions = 0;
  std::uint64_t cycles = 0;  // logical cycles until the last SM finished (summed over launches)
  std::uint64_t dram_batches = 0;
  std::uint64_t dram_writes = 0;  // write-throughs on L2 store misses and dirty evictions
  std::uint64_t back_invalidations = 0;
  /// Per counter group (indexed like kCounterGroups), its totals; empty for a group no policy of
  /// the trial enabled.
  std::array<CounterGroupTotals, kCounterGroups.size()> groups;
  /// Per static load, how many of its L1 transactions (the accesses counted in l1_accesses) took
  /// each latency, by the level that served them: [load][level][bin], latency::kRowSize counters
  /// per load (latency_bins.hpp), of which only the non-zero ones are kept. Empty when the L1 is
  /// disabled.
  SparseCounts latency_histogram;

  /// The trial's total of counter `counter` of `group` (its overall row); 0 when no policy of
  /// the trial enabled the group.
  [[nodiscard]] std::uint64_t group_total(const CounterGroup& group, std::uint32_t counter) const {
    const CounterGroupTotals& totals = groups[counter_group_index(group)];
    return totals.enabled() ? totals.overall[counter] : 0;
  }
};

/// Whether a member of a trial's result joins the trial digest (trial_digest.hpp). Every counter
/// and every trial-wide total does; only a member that repeats others (the per-kernel sums of the
/// same slots, a group's row width) or has a digest of its own (the latency histograms) does not.
enum class Digested : bool { kNo = false, kYes = true };

/// Every member of CounterGroupTotals, in declaration order, each with whether it is digested.
/// The binary form (trial_result_io.cpp) and the digest walk this list; a member missing from it
/// fails the static_assert below.
template <class Group, class Visit>
constexpr void for_each_group_member(Group& group, Visit&& visit) {
  visit(group.width, Digested::kNo);  // known from the group's table
  visit(group.loads, Digested::kYes);
  visit(group.allocations, Digested::kYes);
  visit(group.kernels, Digested::kNo);  // sums of the loads' slots
  visit(group.overall, Digested::kYes);
}

/// Every member of TrialResult, in declaration order, each with whether it is digested: the one
/// list that the binary form (trial_result_io.cpp) and the trial digest (TrialDigest) walk. A new
/// member is one line here, and the line must say whether the digest takes it: a member left out
/// fails the static_assert below, so no counter or total can miss the digest unseen.
template <class Result, class Visit>
constexpr void for_each_trial_member(Result& result, Visit&& visit) {
  visit(result.loads, Digested::kYes);
  visit(result.allocations, Digested::kYes);
  visit(result.kernels, Digested::kNo);  // sums of the same slots as the loads
  visit(result.overall, Digested::kYes);
  visit(result.transactions, Digested::kYes);
  visit(result.cycles, Digested::kYes);
  visit(result.dram_batches, Digested::kYes);
  visit(result.dram_writes, Digested::kYes);
  visit(result.back_invalidations, Digested::kYes);
  visit(result.groups, Digested::kYes);
  visit(result.latency_histogram.index, Digested::kNo);  // the bench digests the histograms apart
  visit(result.latency_histogram.count, Digested::kNo);
}

namespace trial_result_detail {

// The member lists above are complete when the bytes of the members they visit add up to the
// struct's size: every member is 8 bytes or a vector, so there is no padding for a forgotten
// member to hide in.
template <class Struct, class ForEachMember>
consteval std::size_t visited_bytes(ForEachMember for_each_member) {
  Struct value{};
  std::size_t bytes = 0;
  for_each_member(value, [&bytes](const auto& member, Digested) { bytes += sizeof(member); });
  return bytes;
}

}  // namespace trial_result_detail

static_assert(sizeof(CounterGroupTotals) ==
                  trial_result_detail::visited_bytes<CounterGroupTotals>(
                      [](auto& group, auto&& visit) { for_each_group_member(group, visit); }),
              "CounterGroupTotals changed: add the member to for_each_group_member, saying "
              "whether the trial digest takes it");
static_assert(sizeof(TrialResult) ==
                  trial_result_detail::visited_bytes<TrialResult>([](auto& result, auto&& visit) {
                    for_each_trial_member(result, visit);
                  }),
              "TrialResult changed: add the member to for_each_trial_member, saying whether the "
              "trial digest takes it (and give it a value in tests/sim/trial_result_io_test.cpp)");

}  // namespace memcarlo::sim
