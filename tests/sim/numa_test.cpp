// Known answers for multi-module GPUs: local and remote accesses, the latency and link bytes a
// crossing adds (by hand, on one- and two-request traces), link queueing, tree hops, access
// efficiency under distributed + first-touch and xor, determinism across thread counts, the
// presets, and that one module enables nothing.
#include <gtest/gtest.h>

#include "memcarlo/sim/monte_carlo.hpp"
#include "memcarlo/sim/trial_digest.hpp"
#include "memcarlo/sim/trial_result.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::TraceBuilder;
using tracebuf::AccessKind;

constexpr std::size_t kNuma = counter_group_index(kNumaGroup);

std::uint64_t numa_counter(const TrialResult& r, std::string_view name) {
  const CounterGroupTotals& g = r.groups[kNuma];
  for (std::size_t c = 0; c < kNumaGroup.width(); ++c) {
    if (kNumaGroup.counters[c].name == name) {
      return g.overall.at(c);
    }
  }
  ADD_FAILURE() << "no numa counter " << name;
  return 0;
}

TrialResult run(const std::string& path, const HierarchyConfig& config, std::uint64_t trial = 0) {
  const auto reader = tracebuf::TraceReader::open(path);
  TrialWorkspace workspace;
  return run_trial(compile_trace(reader, config), config, 7, trial, workspace);
}

/// fermi-c2050 cut to `modules` modules of one SM each (4 KiB pages: page p on module p mod M
/// under interleaved), no DRAM batching noise: one channel's worth per module.
HierarchyConfig one_sm_per_module(std::uint32_t modules, std::vector<std::string> settings) {
  settings.insert(settings.begin(),
                  {"sm.count=" + std::to_string(modules), "l2.slices=" + std::to_string(modules),
                   "dram.channels=" + std::to_string(modules),
                   "numa.modules=" + std::to_string(modules)});
  return load_hierarchy("fermi-c2050", settings);
}

/// Block 0 (on SM 0, module 0) reads one 128-byte line of page 1 (`loads` times, in one bulk).
std::string reads_of_page_one(std::uint32_t loads) {
  TraceBuilder trace(1, 32);
  for (std::uint32_t i = 0; i < loads; ++i) {
    const std::uint32_t id = trace.add_load(AccessKind::kRead, "x[" + std::to_string(i) + "]", 0);
    trace.coalesced(0, 0, id, 4096 + 128 * i);
  }
  return trace.write("reads-of-page-one-" + std::to_string(loads));
}

TEST(NumaLinks, ARemoteReadAddsHopsTimesTheLinkLatencyAndItsBytes) {
  const std::string path = reads_of_page_one(1);
  const TrialResult r = run(path, one_sm_per_module(2, {"numa.link_latency=100"}));
  EXPECT_EQ(numa_counter(r, "accesses"), 1u);
  EXPECT_EQ(numa_counter(r, "local"), 0u);
  EXPECT_EQ(numa_counter(r, "remote"), 1u);
  EXPECT_EQ(numa_counter(r, "module_1"), 1u);
  EXPECT_EQ(numa_counter(r, "link_bytes"), 128u);  // 4 sectors of 32 bytes, 1 hop
  EXPECT_EQ(numa_counter(r, "crossing_cycles"), 100u);
}

TEST(NumaLinks, RequestsBeyondALinksBudgetPerEpochWaitForTheExcess) {
  // 1.15 GB/s at 1150 MHz: 1 byte per cycle, 64 bytes per 64-cycle epoch. Two 128-byte reads
  // in one epoch: the first brings the link to 128 bytes (waits 64), the second to 256 (192).
  const TrialResult r = run(reads_of_page_one(2),
                            one_sm_per_module(2, {"numa.link_latency=100",
                                                  "numa.link_bandwidth_gbs=1.15"}));
  EXPECT_EQ(numa_counter(r, "remote"), 2u);
  EXPECT_EQ(numa_counter(r, "link_bytes"), 256u);
  EXPECT_EQ(numa_counter(r, "crossing_cycles"), 100u + 64u + 100u + 192u);
}

TEST(NumaLinks, ATreeCountsTwoHopsPerLevelUpToTheCommonSwitch) {
  // Page 3 lives on module 3; SM 0 is on module 0: 0 xor 3 = 0b11, two levels, 4 hops.
  TraceBuilder trace(1, 32);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "x[i]");
  trace.coalesced(0, 0, id, 3 * 4096);
  const TrialResult r = run(trace.write("tree-hops"),
                            one_sm_per_module(4, {"numa.link_latency=10", "numa.topology=tree"}));
  EXPECT_EQ(numa_counter(r, "remote"), 1u);
  EXPECT_EQ(numa_counter(r, "link_bytes"), 4u * 128u);
  EXPECT_EQ(numa_counter(r, "crossing_cycles"), 40u);
}

/// 8 blocks; block b reads the 32 lines of its own two 4 KiB pages (2b, 2b + 1 after a base).
std::string own_pages_per_block() {
  TraceBuilder trace(8, 32);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "x[i]");
  for (std::uint32_t block = 0; block < 8; ++block) {
    for (std::uint64_t line = 0; line < 64; ++line) {
      trace.coalesced(block, 0, id, 0x400000 + block * 8192 + line * 128);
    }
  }
  return trace.write("own-pages-per-block");
}

double access_efficiency(const TrialResult& r) {
  return static_cast<double>(numa_counter(r, "local")) /
         static_cast<double>(numa_counter(r, "accesses"));
}

TEST(AccessEfficiency, DistributedWithFirstTouchKeepsEveryChunkOnItsOwnPages) {
  const std::string path = own_pages_per_block();
  for (std::uint64_t trial = 0; trial < 3; ++trial) {
    const TrialResult r = run(path,
                              one_sm_per_module(4, {"schedule.cta=distributed",
                                                    "placement.policy=first-touch"}),
                              trial);
    EXPECT_EQ(numa_counter(r, "accesses"), 8u * 64u);
    EXPECT_EQ(access_efficiency(r), 1.0) << "trial " << trial;
    EXPECT_EQ(numa_counter(r, "link_bytes"), 0u);
  }
}

TEST(AccessEfficiency, XorSpreadsThePagesSoAboutOneAccessInModulesIsLocal) {
  const TrialResult r = run(own_pages_per_block(),
                            one_sm_per_module(4, {"schedule.cta=distributed",
                                                  "placement.policy=xor"}));
  // Blocks 2m and 2m + 1 run on module m; a page is local when its XOR hash is that module.
  std::uint64_t local_pages = 0;
  for (std::uint64_t block = 0; block < 8; ++block) {
    for (std::uint64_t page = 0x400000 / 4096 + 2 * block; page < 0x400000 / 4096 + 2 * block + 2;
         ++page) {
      std::uint64_t hash = 0;
      for (std::uint64_t p = page; p != 0; p >>= 2) {
        hash ^= p & 3;
      }
      local_pages += hash == block / 2 ? 1 : 0;
    }
  }
  EXPECT_EQ(numa_counter(r, "local"), local_pages * 32);
  EXPECT_NEAR(access_efficiency(r), 0.25, 0.15);
  std::uint64_t per_module = 0;
  for (const char* m : {"module_0", "module_1", "module_2", "module_3"}) {
    per_module += numa_counter(r, m);
  }
  EXPECT_EQ(per_module, numa_counter(r, "accesses"));
}

TEST(NumaLinks, TrialsAreTheSameWhateverTheThreadCount) {
  const HierarchyConfig config =
      one_sm_per_module(4, {"placement.policy=first-touch", "numa.link_latency=20",
                            "numa.link_bandwidth_gbs=2"});
  const CompiledTrace compiled =
      compile_trace(tracebuf::TraceReader::open(own_pages_per_block()), config);
  MonteCarloOptions options;
  options.trials = 6;
  options.threads = 1;
  const MonteCarloRun one = run_monte_carlo(compiled, config, options);
  options.threads = 2;
  const MonteCarloRun two = run_monte_carlo(compiled, config, options);
  ASSERT_EQ(one.trials.size(), two.trials.size());
  for (std::size_t t = 0; t < one.trials.size(); ++t) {
    TrialDigest a;
    TrialDigest b;
    a.add(one.trials[t]);
    b.add(two.trials[t]);
    EXPECT_EQ(a.value(), b.value()) << "trial " << t;
    EXPECT_EQ(one.trials[t].groups[kNuma].overall, two.trials[t].groups[kNuma].overall);
  }
}

TEST(NumaLinks, OneModuleEnablesNoNumaCounters) {
  const TrialResult r = run(reads_of_page_one(1), load_hierarchy("fermi-c2050"));
  EXPECT_EQ(r.groups[kNuma].width, 0u);
  EXPECT_TRUE(r.groups[kNuma].overall.empty());
}

TEST(NumaLinks, WithOneModuleEveryPlacementAndDistributedAreTheSingleChipEngine) {
  // One module: first-touch and xor place as interleaved, distributed plans as round-robin, and
  // nothing NUMA runs, so every counter of every trial is bit-identical.
  const std::string path = own_pages_per_block();
  const auto digest = [&](std::vector<std::string> settings) {
    const HierarchyConfig config = load_hierarchy("fermi-c2050", settings);
    const CompiledTrace compiled = compile_trace(tracebuf::TraceReader::open(path), config);
    MonteCarloOptions options;
    options.trials = 3;
    options.threads = 1;
    TrialDigest d;
    for (const TrialResult& trial : run_monte_carlo(compiled, config, options).trials) {
      d.add(trial);
    }
    return d.value();
  };
  const std::uint64_t today = digest({});
  EXPECT_EQ(digest({"numa.modules=1", "placement.policy=first-touch"}), today);
  EXPECT_EQ(digest({"placement.policy=xor", "schedule.cta=distributed"}), today);
  EXPECT_EQ(digest({"numa.link_latency=500", "numa.topology=tree"}), today);
}

TEST(NumaPresets, ThePapersSystemsLoad) {
  const HierarchyConfig ldesc = load_hierarchy("ldesc-numa-4");
  EXPECT_EQ(ldesc.numa.modules, 4u);
  EXPECT_EQ(ldesc.sm.count, 64u);
  EXPECT_EQ(ldesc.l2.size, 4u << 20);
  EXPECT_EQ(ldesc.numa.link_bandwidth_gbs, 192.0);
  const HierarchyConfig gtx = load_hierarchy("ldesc-gtx480");
  EXPECT_EQ(gtx.sm.count, 15u);
  EXPECT_EQ(gtx.l1.capacity(), 32u << 10);
  EXPECT_EQ(gtx.l1.associativity, 4u);
  EXPECT_EQ(gtx.l2.associativity, 16u);
  const HierarchyConfig tafe = load_hierarchy("tafe-multigpu-8");
  EXPECT_EQ(tafe.numa.modules, 8u);
  EXPECT_EQ(tafe.numa.topology, "tree");
  EXPECT_EQ(tafe.l1.capacity(), 16u << 10);
  EXPECT_EQ(tafe.l2.size, 1u << 20);
}

TEST(NumaKeys, BadValuesNameTheKey) {
  const auto message = [](const std::string& setting) {
    try {
      (void)load_hierarchy("fermi-c2050", {"sm.count=2", "l2.slices=2", "dram.channels=2",
                                           "numa.modules=2", setting});
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("numa.topology=ring").find("numa.topology"), std::string::npos);
  EXPECT_NE(message("numa.link_latency=-1").find("numa.link_latency"), std::string::npos);
  EXPECT_NE(message("numa.modules=9").find("numa.modules: expected an integer in [1, 8]"),
            std::string::npos);
}

}  // namespace
}  // namespace memcarlo::sim
