// The metric table (see metrics.hpp) and the functions its lines compute with.
#include "memcarlo/analysis/metrics.hpp"

#include <algorithm>
#include <array>

namespace memcarlo::analysis {
namespace {

using sim::AccessCounters;
using tracebuf::AccessKind;

std::optional<double> ratio(std::uint64_t numerator, std::uint64_t denominator) {
  if (denominator == 0) {
    return std::nullopt;
  }
  return static_cast<double>(numerator) / static_cast<double>(denominator);
}

/// Numerator / denominator, two access counters.
template <std::uint64_t AccessCounters::*Numerator, std::uint64_t AccessCounters::*Denominator>
std::optional<double> counter_ratio(const MetricInputs& in) {
  return ratio(in.access.*Numerator, in.access.*Denominator);
}

/// Numerator / denominator, two counters of the metric's group (nullopt without the group).
template <std::uint32_t Numerator, std::uint32_t Denominator>
std::optional<double> group_ratio(const MetricInputs& in) {
  if (in.group.size() <= std::max(Numerator, Denominator)) {
    return std::nullopt;
  }
  return ratio(in.group[Numerator], in.group[Denominator]);
}

/// Loads' and stores' L1 sector lookups together (stores' are zero for a load and vice versa).
std::optional<double> sector_lookup_ratio(const MetricInputs& in) {
  const AccessCounters& c = in.access;
  return ratio(c.l1_sector_hits + c.l1_store_sector_hits, c.l1_sectors + c.l1_store_sectors);
}

/// H2 of a load: its L2 reads for loads (and read-modify-writes), writes for stores, atomics.
std::optional<double> load_l2_hit_ratio(const MetricInputs& in) {
  const AccessCounters& c = in.access;
  switch (in.kind) {
    case AccessKind::kWrite:
      return ratio(c.l2_write_hits, c.l2_writes);
    case AccessKind::kAtomic:
      return ratio(c.l2_atomic_hits, c.l2_atomics);
    case AccessKind::kRead:
    case AccessKind::kReadModifyWrite:
      break;
  }
  return ratio(c.l2_read_hits, c.l2_reads);
}

/// The sector variant of load_l2_hit_ratio; atomics have none.
std::optional<double> load_l2_sector_hit_ratio(const MetricInputs& in) {
  const AccessCounters& c = in.access;
  switch (in.kind) {
    case AccessKind::kWrite:
      return ratio(c.l2_write_sector_hits, c.l2_write_sectors);
    case AccessKind::kAtomic:
      return std::nullopt;
    case AccessKind::kRead:
    case AccessKind::kReadModifyWrite:
      break;
  }
  return ratio(c.l2_read_sector_hits, c.l2_read_sectors);
}

/// Tm of a load: the mean latency of its own DRAM reads.
std::optional<double> load_dram_latency(const MetricInputs& in) {
  const AccessCounters& c = in.access;
  if (c.dram_reads == 0) {
    return std::nullopt;
  }
  return c.dram_latency_sum / static_cast<double>(c.dram_reads);
}

/// Tm of an aggregate: the mean latency of its DRAM reads, the trial's Tm when none reached DRAM,
/// undefined when nothing reached the L2 either.
std::optional<double> aggregate_dram_latency(const MetricInputs& in) {
  const AccessCounters& c = in.access;
  if (c.dram_reads > 0) {
    return c.dram_latency_sum / static_cast<double>(c.dram_reads);
  }
  if (c.l2_reads == 0 && c.l2_writes == 0) {
    return std::nullopt;
  }
  return in.trial_dram_latency;
}

/// What the inter-module links added to the latency of the accesses of `in`, per L1 access (a
/// crossing delays the miss behind it; X averages over the accesses); 0 with one module.
double crossing_per_access(const MetricInputs& in) {
  constexpr std::uint32_t kCrossing = sim::kNumaGroup.index_of("crossing_cycles");
  if (in.numa.size() <= kCrossing || in.access.l1_accesses == 0) {
    return 0;
  }
  return static_cast<double>(in.numa[kCrossing]) / static_cast<double>(in.access.l1_accesses);
}

/// X of a load (paper §6.1) from its own H1, H2 and Tm, plus what crossing the inter-module links
/// added (numa.modules > 1); undefined for stores, which do not make their warp wait.
std::optional<double> load_latency(const MetricInputs& in) {
  if (in.kind == AccessKind::kWrite) {
    return std::nullopt;
  }
  const auto l1 = counter_ratio<&AccessCounters::l1_hits, &AccessCounters::l1_accesses>(in);
  const auto l2 = load_l2_hit_ratio(in);
  if (!l1 && !l2) {
    return std::nullopt;  // never executed in this trial's launches
  }
  // An access that never reached a level takes that level's ratio as 1 (its term is multiplied
  // by zero anyway); atomics and loads with the L1 disabled never hit in L1.
  const double h1 = in.kind == AccessKind::kAtomic ? 0.0 : l1.value_or(0.0);
  const double h2 = l2.value_or(1.0);
  const double tm = load_dram_latency(in).value_or(in.trial_dram_latency);
  return expected_latency(h1, in.config.l1.latency, h2, in.config.l2.latency, tm) +
         crossing_per_access(in);
}

/// X of an aggregate (the loads of the run, a kernel or an allocation): the same equation on
/// its loads' H1 (l1_read_hit_ratio), read H2 (l2_read_hit_ratio) and Tm, plus the crossing
/// cycles per access, as load_latency takes them; undefined when no load reached the L1 or L2.
std::optional<double> aggregate_latency(const MetricInputs& in) {
  const auto l1 = counter_ratio<&AccessCounters::l1_hits, &AccessCounters::l1_accesses>(in);
  const auto l2 = counter_ratio<&AccessCounters::l2_read_hits, &AccessCounters::l2_reads>(in);
  if (!l1 && !l2) {
    return std::nullopt;
  }
  const double tm = load_dram_latency(in).value_or(in.trial_dram_latency);
  return expected_latency(l1.value_or(0.0), in.config.l1.latency, l2.value_or(1.0),
                          in.config.l2.latency, tm) +
         crossing_per_access(in);
}

constexpr std::uint32_t kPrefetchIssued = sim::kPrefetchGroup.index_of("issued");
constexpr std::uint32_t kPrefetchUseful = sim::kPrefetchGroup.index_of("useful");
constexpr std::uint32_t kPrefetchLate = sim::kPrefetchGroup.index_of("late");
constexpr std::uint32_t kPrefetchEarly = sim::kPrefetchGroup.index_of("early_evictions");
constexpr std::uint32_t kPrefetchCovered = sim::kPrefetchGroup.index_of("covered");
constexpr std::uint32_t kPrefetchCoveredLate = sim::kPrefetchGroup.index_of("covered_late");
constexpr std::uint32_t kPrefetchL2Reads = sim::kPrefetchGroup.index_of("l2_reads");
constexpr std::uint32_t kPrefetchDramReads = sim::kPrefetchGroup.index_of("dram_reads");

/// covered / L1 read accesses: the share of the demand accesses that found a line a prefetch
/// brought (in flight or not). Counted per demand load.
std::optional<double> prefetch_coverage(const MetricInputs& in) {
  if (in.group.size() <= kPrefetchCovered) {
    return std::nullopt;
  }
  return ratio(in.group[kPrefetchCovered], in.access.l1_accesses);
}

/// (covered - covered_late) / L1 read accesses: the demand accesses that found a prefetched
/// line whose data had arrived. The Snake paper's "accuracy" (MICRO'23 §5, Figure 17: "timely
/// correctly predicted addresses to the total number of demand addresses"); not a share of the
/// prefetches issued, which prefetch_accuracy is. Counted per demand load.
std::optional<double> prefetch_timely_coverage(const MetricInputs& in) {
  if (in.group.size() <= std::max(kPrefetchCovered, kPrefetchCoveredLate)) {
    return std::nullopt;
  }
  return ratio(in.group[kPrefetchCovered] - in.group[kPrefetchCoveredLate], in.access.l1_accesses);
}

/// (useful - late) / issued: prefetches whose data was there before the demand access came.
std::optional<double> prefetch_timely_accuracy(const MetricInputs& in) {
  if (in.group.size() <= std::max(kPrefetchUseful, kPrefetchLate)) {
    return std::nullopt;
  }
  return ratio(in.group[kPrefetchUseful] - in.group[kPrefetchLate], in.group[kPrefetchIssued]);
}

/// (issued - useful) / issued: prefetched lines no demand access found (evicted, or still
/// unused when the trial ended).
std::optional<double> prefetch_useless_ratio(const MetricInputs& in) {
  if (in.group.size() <= std::max(kPrefetchUseful, kPrefetchIssued)) {
    return std::nullopt;
  }
  return ratio(in.group[kPrefetchIssued] - in.group[kPrefetchUseful], in.group[kPrefetchIssued]);
}

/// The prefetches' L2 line reads (DRAM reads) per demand L2 read (DRAM read) of the same load
/// or aggregate: the extra traffic prefetching adds.
std::optional<double> prefetch_extra_l2(const MetricInputs& in) {
  if (in.group.size() <= kPrefetchL2Reads) {
    return std::nullopt;
  }
  return ratio(in.group[kPrefetchL2Reads], in.access.l2_reads);
}
std::optional<double> prefetch_extra_dram(const MetricInputs& in) {
  if (in.group.size() <= kPrefetchDramReads) {
    return std::nullopt;
  }
  return ratio(in.group[kPrefetchDramReads], in.access.dram_reads);
}

constexpr std::uint32_t kNumaAccesses = sim::kNumaGroup.index_of("accesses");
constexpr std::uint32_t kNumaLocal = sim::kNumaGroup.index_of("local");
constexpr std::uint32_t kNumaRemote = sim::kNumaGroup.index_of("remote");
constexpr std::uint32_t kNumaLinkBytes = sim::kNumaGroup.index_of("link_bytes");
constexpr std::uint32_t kNumaCrossing = sim::kNumaGroup.index_of("crossing_cycles");
constexpr std::uint32_t kNumaModule0 = sim::kNumaGroup.index_of("module_0");

/// Counter `Counter` of the metric's group, as a number (nullopt without the group).
template <std::uint32_t Counter>
std::optional<double> group_amount(const MetricInputs& in) {
  if (in.group.size() <= Counter) {
    return std::nullopt;
  }
  return static_cast<double>(in.group[Counter]);
}

/// The share of the L2 requests whose home is module `Module` (nullopt past numa.modules).
template <std::uint32_t Module>
std::optional<double> module_share(const MetricInputs& in) {
  if (Module >= in.config.numa.modules || in.group.size() <= kNumaModule0 + Module) {
    return std::nullopt;
  }
  return ratio(in.group[kNumaModule0 + Module], in.group[kNumaAccesses]);
}

/// What the link crossings add to X: their cycles over the loads' L1 accesses (X is an
/// average over those accesses, and a crossing adds to the latency of the one behind it).
std::optional<double> crossing_latency(const MetricInputs& in) {
  if (in.group.size() <= kNumaCrossing || in.access.l1_accesses == 0) {
    return std::nullopt;
  }
  return ratio(in.group[kNumaCrossing], in.access.l1_accesses);
}

using C = AccessCounters;
constexpr MetricScope kLoad = MetricScope::kLoad;
constexpr MetricScope kAggregate = MetricScope::kAggregate;
constexpr MetricScope kBoth = MetricScope::kLoadAndAggregate;
constexpr MetricUnit kRatio = MetricUnit::kRatio;
constexpr MetricUnit kCycles = MetricUnit::kCycles;
constexpr bool kHeadline = true;
constexpr bool kDetail = false;
constexpr const sim::CounterGroup* kAccess = nullptr;
constexpr const sim::CounterGroup* kPrefetch = &sim::kPrefetchGroup;
constexpr const sim::CounterGroup* kNuma = &sim::kNumaGroup;
constexpr MetricUnit kAmount = MetricUnit::kAmount;

// One line per metric: name, scope, unit, headline, label, counter group, computation,
// description. Within a scope the report lists them in this order.
constexpr auto kMetrics = std::to_array<Metric>({
    {"l1_hit_ratio", kLoad, kRatio, kHeadline, "L1 hit", kAccess,
     counter_ratio<&C::l1_hits, &C::l1_accesses>,
     "H1: L1 hits / L1 accesses of the load (in-flight hits count as hits)"},
    {"l1_read_hit_ratio", kAggregate, kRatio, kHeadline, "L1 read hit ratio", kAccess,
     counter_ratio<&C::l1_hits, &C::l1_accesses>,
     "H1: L1 hits / L1 accesses of loads (in-flight hits count as hits)"},
    {"l1_sector_hit_ratio", kLoad, kRatio, kDetail, "L1 sector hit", kAccess,
     counter_ratio<&C::l1_sector_hits, &C::l1_sectors>,
     "requested 32-byte L1 sectors that were present"},
    {"l1_sector_read_hit_ratio", kAggregate, kRatio, kDetail, "L1 sector read hit ratio", kAccess,
     counter_ratio<&C::l1_sector_hits, &C::l1_sectors>,
     "32-byte L1 sectors requested by loads that were present"},
    {"l1_sector_lookup_hit_ratio", kBoth, kRatio, kDetail, "L1 sector lookup hit ratio", kAccess,
     sector_lookup_ratio,
     "(load + store sector hits) / (load + store sector lookups), as Nsight Compute's "
     "l1tex__t_sector_hit_rate counts them"},
    {"l1_inflight_ratio", kBoth, kRatio, kDetail, "L1 in-flight hit ratio", kAccess,
     counter_ratio<&C::l1_inflight_hits, &C::l1_accesses>,
     "L1 hits on a line still being filled / L1 accesses"},
    {"l2_hit_ratio", kLoad, kRatio, kHeadline, "L2 hit", kAccess, load_l2_hit_ratio,
     "H2: L2 hits / L2 accesses of the load: reads for loads, writes for stores, atomics"},
    {"l2_sector_hit_ratio", kLoad, kRatio, kDetail, "L2 sector hit", kAccess,
     load_l2_sector_hit_ratio, "the sector variant of l2_hit_ratio (none for atomics)"},
    {"l2_read_hit_ratio", kAggregate, kRatio, kHeadline, "L2 read hit ratio", kAccess,
     counter_ratio<&C::l2_read_hits, &C::l2_reads>, "L2 read hits / L2 reads"},
    {"l2_sector_read_hit_ratio", kAggregate, kRatio, kDetail, "L2 sector read hit ratio", kAccess,
     counter_ratio<&C::l2_read_sector_hits, &C::l2_read_sectors>,
     "32-byte L2 sectors read that hit"},
    {"l2_write_hit_ratio", kAggregate, kRatio, kHeadline, "L2 write hit ratio", kAccess,
     counter_ratio<&C::l2_write_hits, &C::l2_writes>, "L2 write hits / L2 writes"},
    {"l2_sector_write_hit_ratio", kAggregate, kRatio, kDetail, "L2 sector write hit ratio", kAccess,
     counter_ratio<&C::l2_write_sector_hits, &C::l2_write_sectors>,
     "32-byte L2 sectors written that hit"},
    {"dram_latency_cycles", kLoad, kCycles, kDetail, "DRAM latency", kAccess, load_dram_latency,
     "Tm: the mean latency of the load's DRAM reads"},
    {"dram_latency_cycles", kAggregate, kCycles, kHeadline, "DRAM latency", kAccess,
     aggregate_dram_latency,
     "Tm: the mean latency of the DRAM reads (the trial's when none; null without L2 accesses)"},
    {"latency_cycles", kLoad, kCycles, kHeadline, "latency", kAccess, load_latency,
     "X = H1·t1 + (1 − H1)·[H2·t2 + (1 − H2)·Tm] (paper §6.1), plus with numa.modules > 1 what "
     "crossing the inter-module links added per access (numa_crossing_latency_cycles); null for "
     "stores"},
    {"latency_cycles", kAggregate, kCycles, kDetail, "latency", kAccess, aggregate_latency,
     "X of the loads together: the same equation on l1_read_hit_ratio, l2_read_hit_ratio and "
     "dram_latency_cycles, plus the crossing cycles per L1 access; null when no load ran"},
    {"prefetch_coverage", kBoth, kRatio, kDetail, "prefetch coverage", kPrefetch, prefetch_coverage,
     "demand L1 accesses that found a prefetched line / demand L1 accesses (per demand load)"},
    {"prefetch_timely_coverage", kBoth, kRatio, kDetail, "timely coverage (Snake's accuracy)",
     kPrefetch, prefetch_timely_coverage,
     "demand L1 accesses that found a prefetched line already filled / demand L1 accesses (per "
     "demand load): the Snake paper's \"accuracy\" (MICRO'23 §5, Fig. 17), a share of the demand "
     "accesses, not of the prefetches issued"},
    {"prefetch_accuracy", kBoth, kRatio, kDetail, "prefetch accuracy (useful / issued)", kPrefetch,
     group_ratio<kPrefetchUseful, kPrefetchIssued>,
     "useful prefetches / prefetches issued (per triggering load): the usual accuracy, a share "
     "of the prefetches; not the Snake paper's, which is prefetch_timely_coverage"},
    {"prefetch_timely_accuracy", kBoth, kRatio, kDetail, "timely accuracy (of issued)", kPrefetch,
     prefetch_timely_accuracy,
     "useful prefetches whose data arrived before the demand access / prefetches issued"},
    {"prefetch_late_ratio", kBoth, kRatio, kDetail, "late prefetches", kPrefetch,
     group_ratio<kPrefetchLate, kPrefetchUseful>,
     "useful prefetches still being filled when the demand access came / useful prefetches"},
    {"prefetch_early_eviction_ratio", kBoth, kRatio, kDetail, "early evictions", kPrefetch,
     group_ratio<kPrefetchEarly, kPrefetchIssued>,
     "prefetched lines the L1 replaced before any demand access / prefetches issued"},
    {"prefetch_useless_ratio", kBoth, kRatio, kDetail, "useless prefetches", kPrefetch,
     prefetch_useless_ratio, "prefetches no demand access used / prefetches issued"},
    {"prefetch_extra_l2_reads", kBoth, kRatio, kDetail, "extra L2 reads", kPrefetch,
     prefetch_extra_l2, "L2 line reads of prefetches / L2 line reads of demand misses"},
    {"prefetch_extra_dram_reads", kBoth, kRatio, kDetail, "extra DRAM reads", kPrefetch,
     prefetch_extra_dram, "DRAM reads of prefetches / DRAM reads of demand accesses"},
    {"numa_access_efficiency", kBoth, kRatio, kHeadline, "local", kNuma,
     group_ratio<kNumaLocal, kNumaAccesses>,
     "access efficiency: L2 requests served by the requesting SM's own module / all L2 "
     "requests (Locality Descriptors §6.2); only with numa.modules > 1"},
    {"numa_crossing_latency_cycles", kBoth, kCycles, kHeadline, "crossing", kNuma, crossing_latency,
     "what inter-module crossings add to X: the cycles they added to the loads' L1 misses / "
     "the loads' L1 accesses"},
    {"numa_local_accesses", kBoth, kAmount, kDetail, "local accesses", kNuma,
     group_amount<kNumaLocal>, "L2 requests served by the requesting SM's module"},
    {"numa_remote_accesses", kBoth, kAmount, kDetail, "remote accesses", kNuma,
     group_amount<kNumaRemote>, "L2 requests served by another module, across the links"},
    {"numa_link_bytes", kBoth, kAmount, kDetail, "link bytes", kNuma, group_amount<kNumaLinkBytes>,
     "bytes moved over inter-module links (payload x hops)"},
    {"numa_module_0_share", kBoth, kRatio, kDetail, "module 0", kNuma, module_share<0>,
     "access distribution: the share of the L2 requests whose home is module 0"},
    {"numa_module_1_share", kBoth, kRatio, kDetail, "module 1", kNuma, module_share<1>,
     "... module 1 (null past numa.modules)"},
    {"numa_module_2_share", kBoth, kRatio, kDetail, "module 2", kNuma, module_share<2>,
     "... module 2"},
    {"numa_module_3_share", kBoth, kRatio, kDetail, "module 3", kNuma, module_share<3>,
     "... module 3"},
    {"numa_module_4_share", kBoth, kRatio, kDetail, "module 4", kNuma, module_share<4>,
     "... module 4"},
    {"numa_module_5_share", kBoth, kRatio, kDetail, "module 5", kNuma, module_share<5>,
     "... module 5"},
    {"numa_module_6_share", kBoth, kRatio, kDetail, "module 6", kNuma, module_share<6>,
     "... module 6"},
    {"numa_module_7_share", kBoth, kRatio, kDetail, "module 7", kNuma, module_share<7>,
     "... module 7"},
});

constexpr bool names_unique_within_each_scope() {
  for (std::size_t i = 0; i < kMetrics.size(); ++i) {
    for (std::size_t j = i + 1; j < kMetrics.size(); ++j) {
      const bool both_load =
          in_scope(kMetrics[i].scope, kLoad) && in_scope(kMetrics[j].scope, kLoad);
      const bool both_aggregate =
          in_scope(kMetrics[i].scope, kAggregate) && in_scope(kMetrics[j].scope, kAggregate);
      if (kMetrics[i].name == kMetrics[j].name && (both_load || both_aggregate)) {
        return false;
      }
    }
  }
  return true;
}
static_assert(names_unique_within_each_scope(), "a metric name repeats within a scope");
static_assert(sim::kMaxModules == 8, "one numa_module_<k>_share line per module the numa group counts");

}  // namespace

std::span<const Metric> metric_table() {
  return kMetrics;
}

const Metric* find_metric(std::string_view name, MetricScope scope) {
  for (const Metric& metric : kMetrics) {
    if (metric.name == name && in_scope(metric.scope, scope)) {
      return &metric;
    }
  }
  return nullptr;
}

std::size_t metric_index(const Metric& metric) {
  return static_cast<std::size_t>(&metric - kMetrics.data());
}

double trial_dram_latency(const sim::TrialResult& trial, const sim::HierarchyConfig& config) {
  if (trial.overall.dram_reads == 0) {
    return config.l2.latency + config.dram.base_latency;
  }
  return trial.overall.dram_latency_sum / static_cast<double>(trial.overall.dram_reads);
}

}  // namespace memcarlo::analysis
