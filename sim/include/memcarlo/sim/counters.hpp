// The counters a trial keeps per counter slot. The access counters are plain members (the replay
// increments them by name) listed once in kAccessCounterFields, which everything that enumerates
// them walks: their sums, the trial digest, the tests.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <variant>

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

}  // namespace memcarlo::sim
