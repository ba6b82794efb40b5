// The parameter table of hierarchy files. Adding a parameter: one field in config.hpp and one
// line here; the loader, --set, validation messages and `memcarlo hierarchy keys` follow.
#include "hierarchy_schema.hpp"
#include "ldesc/descriptors.hpp"
#include "ldesc/l1_roles.hpp"

#include "memcarlo/sim/dram/model.hpp"
#include "memcarlo/sim/placement/placement.hpp"
#include "memcarlo/sim/replacement/registry.hpp"
#include "memcarlo/sim/schedule/cta_scheduler.hpp"
#include "prefetch/builtin.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace memcarlo::sim::detail {
namespace {

using nlohmann::json;

std::string quoted(const json& value) { return value.dump(); }

template <class Field>
Parameter make(std::string key, std::string type, std::string description, Field field,
               std::vector<std::string> choices = {}) {
  Parameter p;
  p.info = {std::move(key), std::move(type), std::move(description), std::move(choices), false,
            "",           false};
  p.get = [field](const HierarchyConfig& c) {
    return json(field(const_cast<HierarchyConfig&>(c)));
  };
  return p;
}

template <class Field>
Parameter integer(std::string key, std::string description, Field field, std::uint64_t min,
                  std::uint64_t max) {
  Parameter p = make(key, "integer", std::move(description), field);
  p.set = [field, key, min, max](HierarchyConfig& c, const json& v, const std::string& where) {
    std::uint64_t parsed = 0;
    if (v.is_number_unsigned()) {
      parsed = v.get<std::uint64_t>();
    } else if (v.is_number_integer() && v.get<std::int64_t>() >= 0) {
      parsed = static_cast<std::uint64_t>(v.get<std::int64_t>());
    } else {
      throw ConfigError(where + key + ": expected an integer in [" + std::to_string(min) + ", " +
                        std::to_string(max) + "]; got " + quoted(v));
    }
    if (parsed < min || parsed > max) {
      throw ConfigError(where + key + ": expected an integer in [" + std::to_string(min) + ", " +
                        std::to_string(max) + "]; got " + quoted(v));
    }
    using T = std::remove_reference_t<decltype(field(c))>;
    field(c) = static_cast<T>(parsed);
  };
  return p;
}

template <class Field>
Parameter size(std::string key, std::string description, Field field) {
  Parameter p = make(key, "size", std::move(description), field);
  p.set = [field, key](HierarchyConfig& c, const json& v, const std::string& where) {
    const std::uint64_t bytes = parse_size(v, where + key);
    if (bytes == 0) {
      throw ConfigError(where + key + ": must be greater than 0");
    }
    field(c) = bytes;
  };
  return p;
}

template <class Field>
Parameter number(std::string key, std::string description, Field field, double min, double max) {
  Parameter p = make(key, "number", std::move(description), field);
  p.set = [field, key, min, max](HierarchyConfig& c, const json& v, const std::string& where) {
    if (!v.is_number() || v.get<double>() < min || v.get<double>() > max) {
      throw ConfigError(where + key + ": expected a number in [" + json(min).dump() + ", " +
                        json(max).dump() + "]; got " + quoted(v));
    }
    field(c) = v.get<double>();
  };
  return p;
}

template <class Field>
Parameter boolean(std::string key, std::string description, Field field) {
  Parameter p = make(key, "boolean", std::move(description), field);
  p.set = [field, key](HierarchyConfig& c, const json& v, const std::string& where) {
    if (!v.is_boolean()) {
      throw ConfigError(where + key + ": expected true or false; got " + quoted(v));
    }
    field(c) = v.get<bool>();
  };
  return p;
}

template <class Field>
Parameter text(std::string key, std::string description, Field field) {
  Parameter p = make(key, "string", std::move(description), field);
  p.set = [field, key](HierarchyConfig& c, const json& v, const std::string& where) {
    if (!v.is_string()) {
      throw ConfigError(where + key + ": expected a string; got " + quoted(v));
    }
    field(c) = v.get<std::string>();
  };
  return p;
}

template <class Field>
Parameter choice(std::string key, std::string description, Field field,
                 std::vector<std::string> choices) {
  Parameter p = make(key, "choice", std::move(description), field, choices);
  p.set = [field, key, choices](HierarchyConfig& c, const json& v, const std::string& where) {
    std::string allowed;
    for (const auto& name : choices) {
      allowed += (allowed.empty() ? "" : ", ") + name;
    }
    if (!v.is_string() || std::find(choices.begin(), choices.end(), v.get<std::string>()) ==
                              choices.end()) {
      throw ConfigError(where + key + ": expected one of " + allowed + "; got " + quoted(v));
    }
    field(c) = v.get<std::string>();
  };
  return p;
}

/// l1.size: a size, or "adaptive" for the unified L1 minus each launch's carveout.
Parameter l1_size() {
  Parameter p;
  p.info = {"l1.size", "size or \"adaptive\"",
            "L1 data cache size per SM; \"adaptive\": l1.unified_size minus the shared-memory "
            "carveout chosen for each launch (Volta and later)",
            {}, false, ""};
  p.get = [](const HierarchyConfig& c) { return c.l1.adaptive ? json("adaptive") : json(c.l1.size); };
  p.set = [](HierarchyConfig& c, const json& v, const std::string& where) {
    if (v.is_string() && v.get<std::string>() == "adaptive") {
      c.l1.adaptive = true;
      return;
    }
    std::uint64_t bytes = 0;
    try {
      bytes = parse_size(v, where + "l1.size");
    } catch (const ConfigError&) {
      throw ConfigError(where + "l1.size: expected a size such as 16384, \"16KiB\" or \"48KiB\", "
                        "or \"adaptive\"; got " + quoted(v));
    }
    if (bytes == 0) {
      throw ConfigError(where + "l1.size: must be greater than 0");
    }
    c.l1.adaptive = false;
    c.l1.size = bytes;
  };
  return p;
}

/// l1.carveouts: a JSON array of sizes, or a string of comma-separated sizes ("0,8KiB,16KiB").
Parameter carveouts() {
  Parameter p;
  p.info = {"l1.carveouts", "list of sizes",
            "Shared-memory carveouts of the unified L1 array the driver chooses from (with an "
            "adaptive l1.size), e.g. [0, \"8KiB\", \"16KiB\"] or \"0,8KiB,16KiB\"; ascending",
            {}, false, ""};
  p.get = [](const HierarchyConfig& c) { return json(c.l1.carveouts); };
  p.set = [](HierarchyConfig& c, const json& v, const std::string& where) {
    const std::string key = where + "l1.carveouts";
    std::vector<json> items;
    if (v.is_array()) {
      items.assign(v.begin(), v.end());
    } else if (v.is_string()) {
      std::string text = v.get<std::string>();
      for (std::size_t start = 0; start <= text.size();) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::string item = text.substr(start, comma - start);
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        items.emplace_back(item);
        start = comma + 1;
      }
    } else {
      throw ConfigError(key + ": expected a list of sizes such as [0, \"8KiB\", \"16KiB\"] or "
                        "\"0,8KiB,16KiB\"; got " + quoted(v));
    }
    if (items.empty()) {
      throw ConfigError(key + ": expected at least one carveout");
    }
    std::vector<std::uint64_t> sizes;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::uint64_t bytes = parse_size(items[i], key + "[" + std::to_string(i) + "]");
      if (!sizes.empty() && bytes <= sizes.back()) {
        throw ConfigError(key + ": carveouts must be listed in ascending order without repeats; " +
                          std::to_string(bytes) + " follows " + std::to_string(sizes.back()));
      }
      sizes.push_back(bytes);
    }
    c.l1.carveouts = std::move(sizes);
  };
  return p;
}

/// l1.preferred_carveout: -1 (default) or a percentage, as cudaFuncAttributePreferredSharedMemoryCarveout.
Parameter preferred_carveout() {
  Parameter p;
  p.info = {"l1.preferred_carveout", "integer",
            "Preferred shared-memory carveout in percent of sm.shared_memory, as "
            "cudaFuncAttributePreferredSharedMemoryCarveout sets it (0: most L1, 100: most "
            "shared memory); -1: the driver's default (the smallest carveout that holds the "
            "resident blocks)",
            {}, false, ""};
  p.get = [](const HierarchyConfig& c) { return json(c.l1.preferred_carveout); };
  p.set = [](HierarchyConfig& c, const json& v, const std::string& where) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < -1 || v.get<std::int64_t>() > 100) {
      throw ConfigError(where + "l1.preferred_carveout: expected an integer in [-1, 100]; got " +
                        quoted(v));
    }
    c.l1.preferred_carveout = static_cast<std::int32_t>(v.get<std::int64_t>());
  };
  return p;
}

/// A policy-choosing key (schedule.cta, placement.policy, prefetch.policy): optional, its
/// choices the registered policies' names.
template <class Field>
Parameter policy_choice(std::string key, std::string description, Field field,
                        std::vector<std::string> names, std::string fallback) {
  Parameter p = choice(std::move(key), std::move(description), field, std::move(names));
  p.info.optional = true;
  p.info.fallback = json(std::move(fallback)).dump();
  return p;
}

/// An integer key that a hierarchy file may leave out (keys added after the first presets, whose
/// default is the old behaviour).
template <class Field>
Parameter optional_integer(std::string key, std::string description, Field field,
                           std::uint64_t min, std::uint64_t max, std::uint64_t fallback) {
  Parameter p = integer(std::move(key), std::move(description), field, min, max);
  p.info.optional = true;
  p.info.fallback = std::to_string(fallback);
  return p;
}

template <class Field>
Parameter optional_number(std::string key, std::string description, Field field, double min,
                          double max, std::string fallback) {
  Parameter p = number(std::move(key), std::move(description), field, min, max);
  p.info.optional = true;
  p.info.fallback = std::move(fallback);
  return p;
}

template <class Field>
Parameter optional_choice(std::string key, std::string description, Field field,
                          std::vector<std::string> names, const std::string& fallback) {
  Parameter p = choice(std::move(key), std::move(description), field, std::move(names));
  p.info.optional = true;
  p.info.fallback = json(fallback).dump();
  return p;
}

/// A key a policy owns (KeySpec): optional, its value kept as JSON text in config.params.
Parameter policy_key(const KeySpec& spec) {
  Parameter p;
  const std::string key(spec.name);
  const std::string type(spec.type);
  p.info = {key, type, std::string(spec.description), {}, true, std::string(spec.fallback)};
  p.get = [spec](const HierarchyConfig& c) { return json::parse(c.params.text(spec)); };
  p.set = [key, type](HierarchyConfig& c, const json& v, const std::string& where) {
    json value;
    if (type == "size") {
      value = parse_size(v, where + key);
    } else if (type == "integer") {
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0) {
        throw ConfigError(where + key + ": expected a non-negative integer; got " + quoted(v));
      }
      value = v;
    } else if (type == "number") {
      if (!v.is_number()) {
        throw ConfigError(where + key + ": expected a number; got " + quoted(v));
      }
      value = v;
    } else if (type == "boolean") {
      if (!v.is_boolean()) {
        throw ConfigError(where + key + ": expected true or false; got " + quoted(v));
      }
      value = v;
    } else {
      if (!v.is_string()) {
        throw ConfigError(where + key + ": expected a string; got " + quoted(v));
      }
      value = v;
    }
    c.params.set(key, value.dump());
  };
  return p;
}

/// The keys every registered policy of `registry` owns.
template <class Registry>
void add_policy_keys(const Registry& registry, std::vector<Parameter>& out) {
  for (const KeySpec& spec : registry.keys()) {
    out.push_back(policy_key(spec));
  }
}

#define MEMCARLO_FIELD(path) [](HierarchyConfig& c) -> auto& { return c.path; }

std::vector<Parameter> build() {
  constexpr std::uint64_t kMax32 = std::numeric_limits<std::uint32_t>::max();
  std::vector<Parameter> out = {
      text("name", "Name of this hierarchy, shown in reports", MEMCARLO_FIELD(name)),
      text("description", "Free text", MEMCARLO_FIELD(description)),
      number("clock_mhz", "Core clock in MHz; converts nanosecond figures to cycles",
             MEMCARLO_FIELD(clock_mhz), 1, 1e5),
      integer("sm.count", "Streaming multiprocessors", MEMCARLO_FIELD(sm.count), 1, 4096),
      integer("sm.max_threads", "Resident threads per SM", MEMCARLO_FIELD(sm.max_threads), 32,
              1 << 20),
      integer("sm.max_blocks", "Resident blocks per SM", MEMCARLO_FIELD(sm.max_blocks), 1, 1024),
      integer("sm.max_warps", "Resident warps per SM", MEMCARLO_FIELD(sm.max_warps), 1, 64),
      integer("sm.registers", "32-bit registers per SM", MEMCARLO_FIELD(sm.registers), 1, kMax32),
      size("sm.shared_memory",
           "Most shared memory per SM (the largest carveout of a unified L1 array)",
           MEMCARLO_FIELD(sm.shared_memory)),
      integer("sm.reserved_shared_per_block",
              "Shared memory the driver reserves in every block, in bytes (1024 from compute "
              "capability 8.0; counts toward occupancy and the carveout)",
              MEMCARLO_FIELD(sm.reserved_shared_per_block), 0, 1 << 20),
      integer("sm.shared_granularity",
              "Blocks are given shared memory in multiples of this many bytes",
              MEMCARLO_FIELD(sm.shared_granularity), 1, 1 << 20),
      integer("sm.default_registers_per_thread",
              "Registers per thread assumed when the trace does not record them",
              MEMCARLO_FIELD(sm.default_registers_per_thread), 1, 255),
      integer("sm.issue_cycles", "Issue cycles per memory transaction",
              MEMCARLO_FIELD(sm.issue_cycles), 1, 1024),
      integer("sm.warp_quantum",
              "Bulk sequences a warp may issue per turn of the weighted round-robin scheduler",
              MEMCARLO_FIELD(sm.warp_quantum), 1, 1024),
      boolean("l1.enabled", "Whether loads are cached in L1 (false: like -dlcm=cg)",
              MEMCARLO_FIELD(l1.enabled)),
      l1_size(),
      size("l1.unified_size",
           "The L1 / shared-memory array per SM that an adaptive l1.size divides",
           MEMCARLO_FIELD(l1.unified_size)),
      carveouts(),
      preferred_carveout(),
      integer("l1.line", "L1 line size in bytes (the coalescing granularity)",
              MEMCARLO_FIELD(l1.line), 32, 4096),
      integer("l1.sector", "L1 sector size in bytes (= line: not sectored)",
              MEMCARLO_FIELD(l1.sector), 4, 4096),
      integer("l1.associativity",
              "L1 ways per set (at most 64); with an adaptive l1.size, the ways of the whole "
              "unified array (a carveout removes ways)",
              MEMCARLO_FIELD(l1.associativity), 1, 64),
      choice("l1.replacement", "L1 replacement policy", MEMCARLO_FIELD(l1.replacement),
             replacement::registry().names()),
      integer("l1.latency", "L1 hit latency t1 in cycles", MEMCARLO_FIELD(l1.latency), 1, 100000),
      choice("l1.store_policy",
             "What a store does to L1: invalidate the line, update it if present, or allocate it "
             "(all write through to L2)",
             MEMCARLO_FIELD(l1.store_policy),
             {"no_allocate_invalidate", "no_allocate_update", "allocate"}),
      integer("l1.mshrs", "Outstanding L1 line misses per SM before issue stalls",
              MEMCARLO_FIELD(l1.mshrs), 1, 1 << 16),
      size("l2.size", "Total L2 size (all slices)", MEMCARLO_FIELD(l2.size)),
      integer("l2.line", "L2 line size in bytes (must divide l1.line)", MEMCARLO_FIELD(l2.line), 4,
              4096),
      integer("l2.sector", "L2 sector size in bytes (= line: not sectored)",
              MEMCARLO_FIELD(l2.sector), 4, 4096),
      integer("l2.associativity", "L2 ways per set (at most 64)", MEMCARLO_FIELD(l2.associativity),
              1, 64),
      integer("l2.slices", "L2 slices; lines are spread over slices by address",
              MEMCARLO_FIELD(l2.slices), 1, 1024),
      choice("l2.replacement", "L2 replacement policy", MEMCARLO_FIELD(l2.replacement),
             replacement::registry().names()),
      integer("l2.latency", "L2 hit latency t2 in cycles (from issue at the SM)",
              MEMCARLO_FIELD(l2.latency), 1, 100000),
      boolean("l2.inclusive", "Inclusive L2: an L2 eviction invalidates the line in every L1",
              MEMCARLO_FIELD(l2.inclusive)),
      boolean("l2.write_activation",
              "A store hits only sectors that a store brought into the L2 or wrote before "
              "(C2050 semantics, paper 2.1); false: any valid sector",
              MEMCARLO_FIELD(l2.write_activation)),
      choice("l2.store_miss",
             "What a store to sectors the L2 does not hold does: write_through (the sectors are "
             "written to DRAM and become valid; a miss, paper 2.1) or allocate (the L2 takes the "
             "bytes without fetching the sectors and writes them back when it evicts them; "
             "Nsight Compute counts such a store as a hit, measured on an H200)",
             MEMCARLO_FIELD(l2.store_miss), {"write_through", "allocate"}),
      choice("l2.between_launches",
             "keep: a launch finds the L2 as the program's previous launch left it (as on the "
             "GPU; after a launch that was not replayed, it starts cold); flush: every launch "
             "starts with a cold L2 (as Nsight Compute's --cache-control all). The L1s always "
             "start empty: the driver invalidates them between grids",
             MEMCARLO_FIELD(l2.between_launches), {"keep", "flush"}),
      choice("interconnect.scheduler",
             "How the L2 picks among the SM queues: weighted_random (weight = queue length, "
             "paper 3.2.2) or round_robin",
             MEMCARLO_FIELD(interconnect.scheduler), {"weighted_random", "round_robin"}),
      integer("interconnect.epoch_cycles",
              "Cycles between two drains of the SM queues into the L2 (keep below l2.latency)",
              MEMCARLO_FIELD(interconnect.epoch_cycles), 1, 1 << 20),
      choice("dram.model", "DRAM latency model: banked (channels, banks, row buffers) or fixed",
             MEMCARLO_FIELD(dram.model), dram::registry().names()),
      integer("dram.channels", "DRAM channels", MEMCARLO_FIELD(dram.channels), 1, 4096),
      integer("dram.banks", "Banks per channel", MEMCARLO_FIELD(dram.banks), 1, 1024),
      integer("dram.row_bytes", "Row (page) size in bytes per bank", MEMCARLO_FIELD(dram.row_bytes),
              32, 1 << 20),
      integer("dram.interleave_bytes", "Consecutive bytes mapped to one channel",
              MEMCARLO_FIELD(dram.interleave_bytes), 32, 1 << 20),
      choice("dram.mapping", "Address bits from most to least significant",
             MEMCARLO_FIELD(dram.mapping), {"row_bank_channel_column", "row_channel_bank_column"}),
      number("dram.base_latency",
             "Cycles an L2 miss spends beyond the L2 latency when its bank is ready",
             MEMCARLO_FIELD(dram.base_latency), 0, 1e6),
      number("dram.t_rcd", "Activate to column command, cycles", MEMCARLO_FIELD(dram.t_rcd), 0,
             1e5),
      number("dram.t_rp", "Precharge, cycles", MEMCARLO_FIELD(dram.t_rp), 0, 1e5),
      number("dram.t_cas", "Column command to data, cycles", MEMCARLO_FIELD(dram.t_cas), 0, 1e5),
      number("dram.t_burst", "Data bus cycles per 32-byte transfer", MEMCARLO_FIELD(dram.t_burst),
             0, 1e5),
      integer("dram.batch_max_group", "Largest group of requests one SM sends together (3.2.3)",
              MEMCARLO_FIELD(dram.batch_max_group), 1, 4096),
      integer("dram.batch_max_groups", "Groups per DRAM batch; 0 = one per SM",
              MEMCARLO_FIELD(dram.batch_max_groups), 0, 4096),
      number("schedule.start_jitter",
             "Random start alignment: SM start delays are drawn from [0, this x one block's "
             "issue time)",
             MEMCARLO_FIELD(schedule.start_jitter), 0, 1000),
      policy_choice("schedule.cta",
                    "CTA scheduler: which SM runs which block, in what order (planned once per "
                    "launch)",
                    MEMCARLO_FIELD(schedule.cta), schedule::registry().names(),
                    std::string(schedule::registry().fallback())),
      policy_choice("placement.policy",
                    "Page placement: each line's L2 slice and set, DRAM channel, bank and row, "
                    "home module and page",
                    MEMCARLO_FIELD(placement.policy), placement::registry().names(),
                    std::string(placement::registry().fallback())),
      optional_integer("numa.modules",
                       "NUMA modules (chips or chiplets); the SMs, L2 slices and DRAM channels "
                       "are split into this many contiguous equal groups",
                       MEMCARLO_FIELD(numa.modules), 1, 8, 1),
      optional_number("numa.link_latency",
                      "Cycles one inter-module hop adds to an access served by another module",
                      MEMCARLO_FIELD(numa.link_latency), 0, 1e6, "0"),
      optional_number("numa.link_bandwidth_gbs",
                      "GB/s of one inter-module link in one direction (with clock_mhz, bytes per "
                      "cycle; each epoch a link moves that x interconnect.epoch_cycles bytes, the "
                      "excess waits); 0: unlimited",
                      MEMCARLO_FIELD(numa.link_bandwidth_gbs), 0, 1e6, "0"),
      optional_choice("numa.topology",
                      "all-to-all: a link between every two modules (one hop); tree: modules are "
                      "the leaves of a binary switch tree (2 hops per level up to the common "
                      "switch), each with one link into it",
                      MEMCARLO_FIELD(numa.topology), {"all-to-all", "tree"}, "all-to-all"),
      policy_choice("prefetch.policy", "GPU prefetcher in the L1 (none: no prefetching)",
                    MEMCARLO_FIELD(prefetch.policy), prefetch::BuiltIn::names(), "none"),
  };
  out.push_back(policy_key(ldesc::kDescriptorsFile));
  out.push_back(policy_key(ldesc::kCacheKey));
  out.push_back(policy_key(ldesc::kUnpinCycles));
  add_policy_keys(schedule::registry(), out);
  add_policy_keys(placement::registry(), out);
  add_policy_keys(replacement::registry(), out);
  add_policy_keys(dram::registry(), out);
  for (const KeySpec& spec : prefetch::BuiltIn::keys()) {
    out.push_back(policy_key(spec));
  }
  return out;
}

#undef MEMCARLO_FIELD

}  // namespace

namespace {

/// The keys of the first release's hierarchy files, which every full file must still give. Keys
/// added since then take their default when a file leaves them out (files written before them
/// keep loading), and the loader says which did.
constexpr std::string_view kFirstReleaseKeys[] = {
    "name", "description", "clock_mhz", "sm.count", "sm.max_threads", "sm.max_blocks",
    "sm.max_warps", "sm.registers", "sm.shared_memory", "sm.default_registers_per_thread",
    "sm.issue_cycles", "sm.warp_quantum", "l1.enabled", "l1.size", "l1.line", "l1.sector",
    "l1.associativity", "l1.replacement", "l1.latency", "l1.store_policy", "l1.mshrs", "l2.size",
    "l2.line", "l2.sector", "l2.associativity", "l2.slices", "l2.replacement", "l2.latency",
    "l2.inclusive", "l2.write_activation", "interconnect.scheduler", "interconnect.epoch_cycles",
    "dram.model", "dram.channels", "dram.banks", "dram.row_bytes", "dram.interleave_bytes",
    "dram.mapping", "dram.base_latency", "dram.t_rcd", "dram.t_rp", "dram.t_cas", "dram.t_burst",
    "dram.batch_max_group", "dram.batch_max_groups", "schedule.start_jitter"};

std::vector<Parameter> with_later_keys_optional(std::vector<Parameter> table) {
  const HierarchyConfig defaults;
  for (Parameter& p : table) {
    const bool first = std::find(std::begin(kFirstReleaseKeys), std::end(kFirstReleaseKeys),
                                 p.info.key) != std::end(kFirstReleaseKeys);
    if (!first && !p.info.optional) {
      p.info.optional = true;
      p.info.added_later = true;
      p.info.fallback = p.get(defaults).dump();
    }
  }
  return table;
}

}  // namespace

const std::vector<Parameter>& parameters() {
  static const std::vector<Parameter> table = with_later_keys_optional(build());
  return table;
}

const Parameter* find_parameter(const std::string& key) {
  for (const Parameter& p : parameters()) {
    if (p.info.key == key) {
      return &p;
    }
  }
  return nullptr;
}

std::uint64_t parse_size(const json& value, const std::string& where) {
  if (value.is_number_unsigned()) {
    return value.get<std::uint64_t>();
  }
  if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
    return static_cast<std::uint64_t>(value.get<std::int64_t>());
  }
  const std::string expected =
      ": expected a size such as 16384, \"16KiB\", \"768KiB\" or \"50MiB\"; got " + value.dump();
  if (!value.is_string()) {
    throw ConfigError(where + expected);
  }
  const std::string text = value.get<std::string>();
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) {
    ++digits;
  }
  if (digits == 0 || digits > 15) {
    throw ConfigError(where + expected);
  }
  std::uint64_t number = std::stoull(text.substr(0, digits));
  std::string unit = text.substr(digits);
  unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
  std::transform(unit.begin(), unit.end(), unit.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (unit.empty() || unit == "b") {
    return number;
  }
  if (unit == "k" || unit == "kb" || unit == "kib") {
    return number << 10;
  }
  if (unit == "m" || unit == "mb" || unit == "mib") {
    return number << 20;
  }
  if (unit == "g" || unit == "gb" || unit == "gib") {
    return number << 30;
  }
  throw ConfigError(where + expected);
}

}  // namespace memcarlo::sim::detail
