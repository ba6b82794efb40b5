// The memory hierarchy a trace is replayed through: plain structs filled by the loader
// (hierarchy_loader.hpp) from a preset or a JSON file, then validated. Cycles are core cycles.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "memcarlo/sim/key_spec.hpp"

namespace memcarlo::sim {

struct SmConfig {
  std::uint32_t count = 14;
  std::uint32_t max_threads = 1536;
  std::uint32_t max_blocks = 8;
  std::uint32_t max_warps = 48;
  std::uint32_t registers = 32768;
  std::uint64_t shared_memory = 48 * 1024;  // the most shared memory one SM gives its blocks
  std::uint32_t reserved_shared_per_block = 0;  // the driver's own shared memory in every block
  std::uint32_t shared_granularity = 128;  // blocks get shared memory in multiples of this
  std::uint32_t default_registers_per_thread = 32;  // when the trace does not say
  std::uint32_t issue_cycles = 1;   // issue slots one transaction occupies
  std::uint32_t warp_quantum = 1;   // bulks a warp may issue per round-robin turn
};

struct CacheConfig {
  bool enabled = true;
  std::uint64_t size = 16 * 1024;
  std::uint32_t line = 128;
  std::uint32_t sector = 128;  // == line: not sectored
  std::uint32_t associativity = 64;
  std::uint32_t slices = 1;  // L2 only
  std::string replacement = "lru";
  std::uint32_t latency = 52;  // cycles from issue to data, for a hit
  std::string store_policy = "no_allocate_update";  // L1: no_allocate_invalidate |
                                                    // no_allocate_update | allocate
  bool inclusive = true;       // L2 only: evictions invalidate the line in every L1
  bool write_activation = false;  // L2 only: stores hit only sectors a store brought in or wrote
                                  // (Fermi, paper §2.1); else any valid sector
  std::string store_miss = "write_through";  // L2 only: write_through (the store goes on to
                                             // DRAM, paper §2.1) | allocate (the L2 takes the
                                             // bytes without a fetch: a hit, written back later)
  std::string between_launches = "keep";  // L2 only: keep | flush its contents between launches
  std::uint32_t mshrs = 64;    // L1 only: outstanding line misses before the SM stalls
  // L1 only, a unified L1 / shared-memory array (Volta and later). With `adaptive`, each launch's
  // L1 is unified_size minus the shared-memory carveout chosen for it (compiled_trace.hpp,
  // plan_occupancy); `associativity` is then the ways of the whole array, and a carveout removes
  // whole ways, so the sets stay the same. Without it, `size` fixes the L1 for every launch.
  bool adaptive = false;
  std::uint64_t unified_size = 0;
  std::vector<std::uint64_t> carveouts;  // shared-memory sizes the driver chooses from, ascending
  std::int32_t preferred_carveout = -1;  // percent of sm.shared_memory; -1: the driver's default

  /// The bytes the sets are cut from: the whole unified array for an adaptive L1.
  [[nodiscard]] std::uint64_t capacity() const { return adaptive ? unified_size : size; }
  [[nodiscard]] std::uint32_t sets() const {
    return static_cast<std::uint32_t>(capacity() / (std::uint64_t{line} * associativity));
  }
  [[nodiscard]] std::uint32_t sectors_per_line() const { return line / sector; }
};

struct InterconnectConfig {
  std::string scheduler = "weighted_random";  // how L2 picks among the SM queues
  std::uint32_t epoch_cycles = 64;            // L2 drains the SM queues once per epoch
};

struct DramConfig {
  std::string model = "banked";  // banked | fixed
  std::uint32_t channels = 6;
  std::uint32_t banks = 16;
  std::uint32_t row_bytes = 2048;
  std::uint32_t interleave_bytes = 256;  // bytes mapped to one channel before moving on
  std::string mapping = "row_bank_channel_column";
  double base_latency = 200;  // cycles beyond the L2 for an access that finds the bank ready
  double t_rcd = 20;          // activate to column command, cycles
  double t_rp = 20;           // precharge, cycles
  double t_cas = 20;          // column command to data, cycles
  double t_burst = 4;         // data bus occupancy of one 32-byte transfer, cycles
  std::uint32_t batch_max_group = 32;  // requests one SM may have in flight together (§3.2.3)
  std::uint32_t batch_max_groups = 0;  // groups per batch; 0 = one per SM
};

struct ScheduleConfig {
  /// Random start alignment (§3.2.1): each SM's first blocks start after a delay drawn uniformly
  /// from [0, start_jitter x the cycles one block needs to issue its transactions).
  double start_jitter = 1.0;
  std::string cta = "round-robin";  // the CTA scheduler (schedule/cta_scheduler.hpp)
};

struct PlacementConfig {
  std::string policy = "interleaved";  // where lines live (placement/placement.hpp)
};

/// Multi-module (NUMA) GPUs: the SMs, L2 slices and DRAM channels are split into `modules`
/// contiguous equal groups (module m holds SMs [m x S/M, (m + 1) x S/M), and likewise for the
/// slices and channels). One module is a single-chip GPU.
struct NumaConfig {
  std::uint32_t modules = 1;
  double link_latency = 0;         // cycles one hop adds to a remote access
  double link_bandwidth_gbs = 0;   // per link and direction; 0: unlimited
  std::string topology = "all-to-all";  // all-to-all (1 hop) or tree (2 x levels to the common switch)
};

/// The module that holds SM `sm` of `sm_count` when they are split into `modules` contiguous
/// equal groups (sm_count is a multiple of modules; the loader checks it).
[[nodiscard]] constexpr std::uint32_t module_of_sm(std::uint32_t sm, std::uint32_t sm_count,
                                                   std::uint32_t modules) {
  return sm / (sm_count / modules);
}

struct PrefetchConfig {
  std::string policy = "none";  // the L1's GPU prefetcher (prefetch/prefetcher.hpp)
};

/// The values of the keys that policies own, as JSON text by key (the loader checked their
/// types). A key nobody set reads as its KeySpec's default.
class PolicyParameters {
 public:
  void set(const std::string& key, std::string json_text) { values_[key] = std::move(json_text); }
  [[nodiscard]] bool contains(const std::string& key) const { return values_.contains(key); }
  /// The value of `key` as JSON text: the one set, or the default.
  [[nodiscard]] std::string text(const KeySpec& key) const;
  /// ... as a number (integers and sizes: "16KiB" reads as 16384).
  [[nodiscard]] double number(const KeySpec& key) const;
  [[nodiscard]] std::uint64_t integer(const KeySpec& key) const;
  [[nodiscard]] const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

struct HierarchyConfig {
  std::string name;
  std::string description;
  double clock_mhz = 1150;
  SmConfig sm;
  CacheConfig l1;
  CacheConfig l2;
  InterconnectConfig interconnect;
  DramConfig dram;
  ScheduleConfig schedule;
  PlacementConfig placement;
  NumaConfig numa;
  PrefetchConfig prefetch;
  PolicyParameters params;
};

}  // namespace memcarlo::sim
