// Sums of the access counters, the counter groups' slot rows, and the reduction of a trial's
// counter slots into per-load, per-allocation, per-kernel and overall totals, and of its per-slot
// latency counts into per-load histograms.
#include "memcarlo/sim/counters.hpp"

#include <algorithm>
#include <cassert>

#include "memcarlo/sim/latency_bins.hpp"
#include "memcarlo/sim/trial.hpp"

namespace memcarlo::sim {
namespace {

/// Adds the `width` counters at `source` to row `to` of `target`.
void add_row(std::vector<std::uint64_t>& target, std::size_t to, const std::uint64_t* source,
             std::size_t width) {
  std::uint64_t* row = target.data() + to * width;
  for (std::size_t c = 0; c < width; ++c) {
    row[c] += source[c];
  }
}

}  // namespace

AccessCounters& AccessCounters::operator+=(const AccessCounters& other) {
  for_each_access_counter([&](auto member) { this->*member += other.*member; });
  return *this;
}

std::uint64_t* CounterGroupSlots::enable(const CounterGroup& group, std::size_t slot_count) {
  Rows& rows = groups_.at(counter_group_index(group));
  if (!rows.enabled) {
    rows.enabled = true;
    rows.counters.assign(slot_count * group.width(), 0);
  }
  assert(rows.counters.size() == slot_count * group.width());
  return rows.counters.data();
}

void CounterGroupSlots::disable_all() {
  for (Rows& rows : groups_) {
    rows.enabled = false;
    rows.counters.clear();
  }
}

bool CounterGroupSlots::enabled(const CounterGroup& group) const {
  const std::size_t index = counter_group_index(group);
  return index < groups_.size() && groups_[index].enabled;
}

std::span<const std::uint64_t> CounterGroupSlots::rows(const CounterGroup& group) const {
  if (!enabled(group)) {
    return {};
  }
  return groups_[counter_group_index(group)].counters;
}

std::uint64_t CounterGroupSlots::bytes() const {
  std::uint64_t total = 0;
  for (const Rows& rows : groups_) {
    total += rows.counters.capacity() * sizeof(std::uint64_t);
  }
  return total;
}

void add_slot_counters(std::span<const CounterSlot> slots,
                       std::span<const AccessCounters> slot_counters,
                       const CounterGroupSlots& groups, TrialResult& result) {
  for (std::size_t slot = 0; slot < slots.size(); ++slot) {
    const AccessCounters& c = slot_counters[slot];
    result.loads[slots[slot].load] += c;
    if (slots[slot].allocation != kNoAllocation) {
      result.allocations[slots[slot].allocation] += c;
    }
    result.kernels[slots[slot].kernel] += c;
    result.overall += c;
  }
  for (std::size_t g = 0; g < kCounterGroups.size(); ++g) {
    const CounterGroup& group = *kCounterGroups[g];
    CounterGroupTotals& totals = result.groups[g];
    if (!groups.enabled(group)) {
      totals = CounterGroupTotals{};
      continue;
    }
    const std::size_t width = group.width();
    const std::span<const std::uint64_t> rows = groups.rows(group);
    assert(rows.size() == slots.size() * width);
    totals.width = width;
    totals.loads.assign(result.loads.size() * width, 0);
    totals.allocations.assign(result.allocations.size() * width, 0);
    totals.kernels.assign(result.kernels.size() * width, 0);
    totals.overall.assign(width, 0);
    for (std::size_t slot = 0; slot < slots.size(); ++slot) {
      const std::uint64_t* row = rows.data() + slot * width;
      add_row(totals.loads, slots[slot].load, row, width);
      if (slots[slot].allocation != kNoAllocation) {
        add_row(totals.allocations, slots[slot].allocation, row, width);
      }
      add_row(totals.kernels, slots[slot].kernel, row, width);
      add_row(totals.overall, 0, row, width);
    }
  }
}

void add_slot_latencies(std::span<const CounterSlot> slots,
                        std::span<const std::uint64_t> slot_counts, std::size_t load_count,
                        TrialResult& result) {
  assert(slot_counts.size() == slots.size() * latency::kRowSize);
  std::vector<std::uint64_t> per_load(load_count * latency::kRowSize, 0);
  for (std::size_t slot = 0; slot < slots.size(); ++slot) {
    add_row(per_load, slots[slot].load, slot_counts.data() + slot * latency::kRowSize,
            latency::kRowSize);
  }
  result.latency_histogram = SparseCounts::from_dense(per_load);
}

SparseCounts SparseCounts::from_dense(std::span<const std::uint64_t> dense) {
  SparseCounts out;
  const auto occupied = static_cast<std::size_t>(
      std::count_if(dense.begin(), dense.end(), [](std::uint64_t c) { return c != 0; }));
  out.index.reserve(occupied);
  out.count.reserve(occupied);
  for (std::size_t i = 0; i < dense.size(); ++i) {
    if (dense[i] != 0) {
      out.index.push_back(static_cast<std::uint32_t>(i));
      out.count.push_back(dense[i]);
    }
  }
  return out;
}

std::vector<std::uint64_t> SparseCounts::dense(std::size_t size) const {
  std::vector<std::uint64_t> out(size, 0);
  for (std::size_t i = 0; i < index.size() && index[i] < size; ++i) {
    out[index[i]] = count[i];
  }
  return out;
}

std::uint64_t SparseCounts::at(std::size_t i) const {
  const auto it = std::lower_bound(index.begin(), index.end(), i);
  return it != index.end() && *it == i ? count[static_cast<std::size_t>(it - index.begin())] : 0;
}

}  // namespace memcarlo::sim
