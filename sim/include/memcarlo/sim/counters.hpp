// The counters a trial keeps per counter slot. The access counters are plain members (the replay
// increments them by name) listed once in kAccessCounterFields, which everything that enumerates
// them walks: their sums, the trial digest, the tests. Counter groups are the per-slot counters a
// policy adds (a prefetcher's first): a name and a table of counter names, given memory only in
// trials whose policies enable them.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace memcarlo::sim {

struct AccessCounters {
  // L1, loads only (reads, the read half of read-modify-writes).
  std::uint64_t l1_accesses = 0;       // transactions that probed the L1
  std::uint64_t l1_hits = 0;           // all requested sectors present (includes in-flight)
  std::uint64_t l1_inflight_hits = 0;  // ... of which still being filled by an earlier miss
  std::uint64_t l1_sectors = 0;
  std::uint64_t l1_sector_hits = 0;
  // L1 lookups of stores (and of the write half of read-modify-writes) and atomics, per 32-byte
  // sector as Nsight Compute's l1tex__t_sector_hit_rate counts them beside the loads': a store
  // sector hits when the L1 holds it valid before the store; atomics are served at the L2 and
  // always miss.
  std::uint64_t l1_store_sectors = 0;
  std::uint64_t l1_store_sector_hits = 0;
  // L2, per L2 line access (an L1 miss of a 128-byte line is four 32-byte L2 lines on Fermi).
  std::uint64_t l2_reads = 0;
  std::uint64_t l2_read_hits = 0;
  std::uint64_t l2_read_sectors = 0;
  std::uint64_t l2_read_sector_hits = 0;
  std::uint64_t l2_writes = 0;
  std::uint64_t l2_write_hits = 0;
  std::uint64_t l2_write_sectors = 0;
  std::uint64_t l2_write_sector_hits = 0;
  std::uint64_t l2_atomics = 0;
  std::uint64_t l2_atomic_hits = 0;
  // DRAM reads caused by this load's L2 misses, and the full latency each saw (Tm).
  std::uint64_t dram_reads = 0;
  double dram_latency_sum = 0;

  /// Adds every counter of the table (kAccessCounterFields).
  AccessCounters& operator+=(const AccessCounters& other);
};

/// One member of AccessCounters: its name, where it is and what it counts.
struct AccessCounterField {
  using Count = std::uint64_t AccessCounters::*;
  using Sum = double AccessCounters::*;

  std::string_view name;
  std::variant<Count, Sum> member;
  std::string_view description;
};

/// The access counters, once. A new counter is a member above and one line here; a member missing
/// here fails the static_asserts below.
inline constexpr auto kAccessCounterFields = std::to_array<AccessCounterField>({
    {"l1_accesses", &AccessCounters::l1_accesses, "load transactions that probed the L1"},
    {"l1_hits", &AccessCounters::l1_hits,
     "load transactions whose requested sectors were all present (in-flight ones included)"},
    {"l1_inflight_hits", &AccessCounters::l1_inflight_hits,
     "L1 hits on a line still being filled by an earlier miss"},
    {"l1_sectors", &AccessCounters::l1_sectors, "32-byte L1 sectors that loads requested"},
    {"l1_sector_hits", &AccessCounters::l1_sector_hits, "... of which were present"},
    {"l1_store_sectors", &AccessCounters::l1_store_sectors,
     "L1 sector lookups of stores and atomics"},
    {"l1_store_sector_hits", &AccessCounters::l1_store_sector_hits,
     "... of which found the sector valid before the store"},
    {"l2_reads", &AccessCounters::l2_reads, "L2 line reads (L1 read misses)"},
    {"l2_read_hits", &AccessCounters::l2_read_hits, "... of which hit"},
    {"l2_read_sectors", &AccessCounters::l2_read_sectors, "32-byte L2 sectors read"},
    {"l2_read_sector_hits", &AccessCounters::l2_read_sector_hits, "... of which hit"},
    {"l2_writes", &AccessCounters::l2_writes, "L2 line writes (stores)"},
    {"l2_write_hits", &AccessCounters::l2_write_hits, "... of which hit"},
    {"l2_write_sectors", &AccessCounters::l2_write_sectors, "32-byte L2 sectors written"},
    {"l2_write_sector_hits", &AccessCounters::l2_write_sector_hits, "... of which hit"},
    {"l2_atomics", &AccessCounters::l2_atomics, "L2 line accesses of atomics"},
    {"l2_atomic_hits", &AccessCounters::l2_atomic_hits, "... of which hit"},
    {"dram_reads", &AccessCounters::dram_reads, "DRAM read requests caused by L2 misses"},
    {"dram_latency_sum", &AccessCounters::dram_latency_sum,
     "the sum of their latencies in cycles (Tm = dram_latency_sum / dram_reads)"},
});

namespace counters_detail {

template <class Visitor, std::size_t... I>
constexpr void visit_fields(Visitor& visit, std::index_sequence<I...> /*fields*/) {
  (visit(std::get<kAccessCounterFields[I].member.index()>(kAccessCounterFields[I].member)), ...);
}

}  // namespace counters_detail

/// Calls `visit(member)` for every field of kAccessCounterFields in table order, each with its own
/// member pointer type (std::uint64_t or double), so that the loop compiles to straight-line code.
template <class Visitor>
constexpr void for_each_access_counter(Visitor&& visit) {
  counters_detail::visit_fields(visit, std::make_index_sequence<kAccessCounterFields.size()>{});
}

namespace counters_detail {

constexpr std::size_t table_bytes() {
  std::size_t bytes = 0;
  for (const AccessCounterField& field : kAccessCounterFields) {
    bytes += field.member.index() == 0 ? sizeof(std::uint64_t) : sizeof(double);
  }
  return bytes;
}

constexpr bool members_and_names_distinct() {
  for (std::size_t i = 0; i < kAccessCounterFields.size(); ++i) {
    for (std::size_t j = i + 1; j < kAccessCounterFields.size(); ++j) {
      if (kAccessCounterFields[i].member == kAccessCounterFields[j].member ||
          kAccessCounterFields[i].name == kAccessCounterFields[j].name) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace counters_detail

// Every member once: the table's fields fill the struct exactly and none is listed twice.
static_assert(sizeof(AccessCounters) == counters_detail::table_bytes(),
              "a member of AccessCounters is missing from kAccessCounterFields");
static_assert(counters_detail::members_and_names_distinct(),
              "kAccessCounterFields lists a member or a name twice");

// ---- Counter groups ----------------------------------------------------------------------------

/// One counter of a counter group.
struct GroupCounter {
  std::string_view name;
  std::string_view description;
};

/// Per-slot counters that a policy adds to a trial only when it is active. A slot's counters are
/// one row, in table order: counter c of slot s is at row_base[s * width() + c].
struct CounterGroup {
  std::string_view name;
  std::span<const GroupCounter> counters;

  [[nodiscard]] constexpr std::size_t width() const { return counters.size(); }

  /// The position of `counter` in a row, for the engine's constants
  /// (`constexpr auto kUseful = kPrefetchGroup.index_of("useful");`); a name the group lacks does
  /// not compile.
  [[nodiscard]] consteval std::uint32_t index_of(std::string_view counter) const {
    for (std::size_t c = 0; c < counters.size(); ++c) {
      if (counters[c].name == counter) {
        return static_cast<std::uint32_t>(c);
      }
    }
    throw "no such counter in this group";
  }
};

/// A prefetcher's counters, per slot of the load whose access triggered the prefetch, except
/// `covered` and `covered_late`, which belong to the demand access's load. They are the trial's
/// only record of prefetching (the overall row is the total).
inline constexpr auto kPrefetchCounters = std::to_array<GroupCounter>({
    {"issued", "prefetch requests this load triggered that were sent towards the L2"},
    {"useful", "... whose line a demand access (of any load) found before it was evicted"},
    {"late", "... of which were still being filled when the demand access came"},
    {"early_evictions", "... whose line the L1 replaced before any demand access found it"},
    {"covered", "demand L1 accesses of this load that found a line a prefetch brought"},
    {"redundant", "prefetch candidates this load triggered for lines the L1 held"},
    {"untraced_lines", "prefetch requests for lines the traced snapshot never touches"},
    {"dropped", "prefetch candidates not sent (no line id left, every way of the set pinned)"},
    {"l2_reads", "L2 line reads of the prefetches this load triggered"},
    {"l2_read_hits", "... of which hit"},
    {"dram_reads", "DRAM reads of the prefetches this load triggered"},
    {"covered_late",
     "demand L1 accesses of this load that found a line a prefetch was still "
     "filling (covered, not timely)"},
});
inline constexpr CounterGroup kPrefetchGroup{"prefetch", kPrefetchCounters};

/// A multi-module (NUMA) GPU's counters, per slot of the access behind each L2 request (loads,
/// stores and atomics; prefetches only use the links). Enabled only when numa.modules > 1.
inline constexpr auto kNumaCounters = std::to_array<GroupCounter>({
    {"accesses", "L2 requests (L1 misses, stores, atomics), each served by its line's home module"},
    {"local", "... served by the module of the SM that sent it"},
    {"remote", "... served by another module, across the inter-module links"},
    {"link_bytes", "bytes the remote requests moved over inter-module links (payload x hops)"},
    {"crossing_cycles", "cycles the link crossings (hops x numa.link_latency, and the queueing "
                        "on busy links) added to the loads' remote L1 misses"},
    {"module_0", "L2 requests whose home is module 0"},
    {"module_1", "... module 1"},
    {"module_2", "... module 2"},
    {"module_3", "... module 3"},
    {"module_4", "... module 4"},
    {"module_5", "... module 5"},
    {"module_6", "... module 6"},
    {"module_7", "... module 7"},
});
inline constexpr CounterGroup kNumaGroup{"numa", kNumaCounters};
/// The modules whose share of the accesses the numa group counts (numa.modules is at most this).
inline constexpr std::uint32_t kMaxModules = 8;

/// Every counter group, one line each. TrialResult::groups and CounterGroupSlots are indexed like
/// this table.
inline constexpr auto kCounterGroups = std::to_array<const CounterGroup*>({
    &kPrefetchGroup,
    &kNumaGroup,
});

/// The position of `group` in kCounterGroups (kCounterGroups.size() for a group not listed).
/// Whether no two counter groups share a name (counter_group_index finds a group by its name).
constexpr bool counter_group_names_distinct() {
  for (std::size_t i = 0; i < kCounterGroups.size(); ++i) {
    for (std::size_t j = i + 1; j < kCounterGroups.size(); ++j) {
      if (kCounterGroups[i]->name == kCounterGroups[j]->name) {
        return false;
      }
    }
  }
  return true;
}
static_assert(counter_group_names_distinct(), "two counter groups share a name");

constexpr std::size_t counter_group_index(const CounterGroup& group) {
  // By name, not by address: GCC does not take the comparison of two distinct objects' addresses
  // as a constant expression under -fsanitize=address.
  for (std::size_t i = 0; i < kCounterGroups.size(); ++i) {
    if (kCounterGroups[i]->name == group.name) {
      return i;
    }
  }
  return kCounterGroups.size();
}

/// The per-slot rows of the counter groups a trial's policies enabled. A group nobody enabled
/// holds an empty vector and costs the replay nothing: the replay only touches the row base that
/// enable() returned.
class CounterGroupSlots {
 public:
  /// Gives `group` zeroed rows for `slot_count` slots in this trial and returns the first row's
  /// base (counter c of slot s at base[s * group.width() + c]). Enabling a group again in the
  /// same trial returns the same rows, untouched.
  std::uint64_t* enable(const CounterGroup& group, std::size_t slot_count);
  /// Every group absent, as at the start of a trial (the memory is kept for the next one).
  void disable_all();
  [[nodiscard]] bool enabled(const CounterGroup& group) const;
  /// All slots' rows of `group`; empty when it is not enabled.
  [[nodiscard]] std::span<const std::uint64_t> rows(const CounterGroup& group) const;
  /// Bytes held, enabled or not.
  [[nodiscard]] std::uint64_t bytes() const;

 private:
  struct Rows {
    bool enabled = false;
    std::vector<std::uint64_t> counters;
  };
  std::array<Rows, kCounterGroups.size()> groups_;
};

/// One counter group's totals in a trial, reduced from its slot rows exactly like the access
/// counters (slot -> load, allocation, kernel, overall). Every vector is empty when the trial did
/// not enable the group.
struct CounterGroupTotals {
  std::size_t width = 0;                   // counters per row; 0 when the group was not enabled
  std::vector<std::uint64_t> loads;        // row per static id
  std::vector<std::uint64_t> allocations;  // row per allocation
  std::vector<std::uint64_t> kernels;      // row per kernel
  std::vector<std::uint64_t> overall;      // one row

  [[nodiscard]] bool enabled() const { return width != 0; }
  [[nodiscard]] std::span<const std::uint64_t> load(std::size_t id) const { return row(loads, id); }
  [[nodiscard]] std::span<const std::uint64_t> allocation(std::size_t index) const {
    return row(allocations, index);
  }
  [[nodiscard]] std::span<const std::uint64_t> kernel(std::size_t index) const {
    return row(kernels, index);
  }

 private:
  [[nodiscard]] std::span<const std::uint64_t> row(const std::vector<std::uint64_t>& rows,
                                                   std::size_t index) const {
    if (width == 0 || (index + 1) * width > rows.size()) {
      return {};
    }
    return {rows.data() + index * width, width};
  }
};

}  // namespace memcarlo::sim
