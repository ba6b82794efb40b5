// Known answers for the CTA schedulers: which blocks land on which SM queue under bcs and
// distributed, on tiny launches, and what that changes in a replay.
#include <gtest/gtest.h>

#include "memcarlo/sim/schedule/cta_scheduler.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::TraceBuilder;
using tracebuf::AccessKind;

LaunchTrace launch_of_blocks(std::uint32_t blocks) {
  LaunchTrace launch;
  for (std::uint32_t b = 0; b < blocks; ++b) {
    launch.blocks.push_back({b, b, 1});
  }
  return launch;
}

/// The blocks of each SM's queue, in order.
std::vector<std::vector<std::uint32_t>> queues_of_sms(const std::string& scheduler,
                                                      std::uint32_t blocks, std::uint32_t sms,
                                                      std::uint32_t modules) {
  HierarchyConfig config = load_hierarchy(
      "fermi-c2050", {"sm.count=" + std::to_string(sms), "schedule.cta=" + scheduler});
  const LaunchTrace launch = launch_of_blocks(blocks);
  RandomStream random(1, Purpose::kCtaSchedule, 0, 0);
  schedule::CtaPlan plan;
  schedule::make(config)->plan({launch, sms, 1, modules}, random, plan);
  schedule::check_plan(plan, blocks, sms, scheduler);
  std::vector<std::vector<std::uint32_t>> out(sms);
  for (std::uint32_t sm = 0; sm < sms; ++sm) {
    const std::uint32_t q = plan.queue_of_sm[sm];
    out[sm].assign(plan.order.begin() + plan.queue_begin[q],
                   plan.order.begin() + plan.queue_begin[q + 1]);
  }
  return out;
}

using Queues = std::vector<std::vector<std::uint32_t>>;

TEST(BlockClustering, ConsecutiveBlocksInPairsGoToOneSmRoundRobinOverTheSms) {
  // 7 blocks, 2 SMs: pairs {0,1} {2,3} {4,5} {6}; pair p on SM p mod 2.
  EXPECT_EQ(queues_of_sms("bcs", 7, 2, 1), (Queues{{0, 1, 4, 5}, {2, 3, 6}}));
  // More SMs than pairs: the last SMs get nothing.
  EXPECT_EQ(queues_of_sms("bcs", 4, 3, 1), (Queues{{0, 1}, {2, 3}, {}}));
}

TEST(Distributed, TheGridIsCutIntoOneContiguousChunkPerModuleSharedByItsSms) {
  // 10 blocks, 4 SMs in 2 modules: blocks 0-4 on SMs 0 and 1, blocks 5-9 on SMs 2 and 3.
  const Queues two = queues_of_sms("distributed", 10, 4, 2);
  EXPECT_EQ(two, (Queues{{0, 1, 2, 3, 4}, {0, 1, 2, 3, 4}, {5, 6, 7, 8, 9}, {5, 6, 7, 8, 9}}));
  // 7 blocks, 3 modules of 2 SMs: chunks [0, 2), [2, 4), [4, 7) (m x B / M).
  const Queues three = queues_of_sms("distributed", 7, 6, 3);
  EXPECT_EQ(three[0], (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(three[1], three[0]);
  EXPECT_EQ(three[2], (std::vector<std::uint32_t>{2, 3}));
  EXPECT_EQ(three[5], (std::vector<std::uint32_t>{4, 5, 6}));
}

TEST(Distributed, WithOneModuleIsRoundRobin) {
  EXPECT_EQ(queues_of_sms("distributed", 9, 3, 1), queues_of_sms("round-robin", 9, 3, 1));
}

TEST(BlockClustering, APairSharesTheL1OfItsSm) {
  // Blocks 0 and 1 read the same line; 2 SMs, one resident block each. Round-robin runs them
  // on SMs 0 and 1 (two misses); bcs runs both on SM 0, so the second one hits.
  TraceBuilder trace(2, 32);
  const std::uint32_t in_block0 = trace.add_load(AccessKind::kRead, "x[0] in block 0");
  const std::uint32_t in_block1 = trace.add_load(AccessKind::kRead, "x[0] in block 1");
  trace.coalesced(0, 0, in_block0, 0x4000);
  trace.coalesced(1, 0, in_block1, 0x4000);
  const std::string path = trace.write("bcs-pair");
  const auto run = [&](const std::string& scheduler) {
    const HierarchyConfig config = load_hierarchy(
        "fermi-c2050", {"sm.count=2", "sm.max_blocks=1", "schedule.cta=" + scheduler});
    const auto reader = tracebuf::TraceReader::open(path);
    TrialWorkspace workspace;
    return run_trial(compile_trace(reader, config), config, 7, 0, workspace);
  };
  const TrialResult round_robin = run("round-robin");
  EXPECT_EQ(round_robin.loads[0].l1_hits + round_robin.loads[1].l1_hits, 0u);
  const TrialResult bcs = run("bcs");
  EXPECT_EQ(bcs.loads[0].l1_hits + bcs.loads[1].l1_hits, 1u);
}

/// Per SM, its queue under `scheduler` for the first launch of a compiled trace.
Queues queues_of_trace(const std::string& path, const std::string& scheduler, std::uint32_t sms,
                       std::uint32_t modules) {
  const HierarchyConfig config = load_hierarchy(
      "fermi-c2050", {"sm.count=" + std::to_string(sms), "schedule.cta=" + scheduler});
  const auto reader = tracebuf::TraceReader::open(path);
  const CompiledTrace compiled = compile_trace(reader, config);
  const LaunchTrace& launch = compiled.launches.front();
  RandomStream random(1, Purpose::kCtaSchedule, 0, 0);
  schedule::CtaPlan plan;
  schedule::make(config)->plan({launch, sms, 1, modules, {}, &compiled}, random, plan);
  schedule::check_plan(plan, launch.blocks.size(), sms, scheduler);
  Queues out(sms);
  for (std::uint32_t sm = 0; sm < sms; ++sm) {
    const std::uint32_t q = plan.queue_of_sm[sm];
    for (std::uint32_t i = plan.queue_begin[q]; i < plan.queue_begin[q + 1]; ++i) {
      out[sm].push_back(static_cast<std::uint32_t>(launch.blocks[plan.order[i]].block_id));
    }
  }
  return out;
}

TEST(LocalityScheduler, BlocksThatShareLinesLandOnOneSmTwoBlocksPerSm) {
  // 8 blocks; block b reads line (b mod 4) + a private line: blocks b and b + 4 share. Two SMs
  // hold 4 blocks each (balance); the pairs {0,4} {1,5} go to SM 0, {2,6} {3,7} to SM 1, each
  // grown from its lowest block. Round-robin splits every pair over the two SMs.
  TraceBuilder trace(8, 32);
  const std::uint32_t shared = trace.add_load(AccessKind::kRead, "x[b % 4]");
  const std::uint32_t own = trace.add_load(AccessKind::kRead, "y[b]");
  for (std::uint32_t b = 0; b < 8; ++b) {
    trace.coalesced(b, 0, shared, 0x10000 + 0x1000 * (b % 4));
    trace.coalesced(b, 0, own, 0x80000 + 0x1000 * b);
  }
  const std::string path = trace.write("locality-pairs");
  EXPECT_EQ(queues_of_trace(path, "locality", 2, 1), (Queues{{0, 4, 1, 5}, {2, 6, 3, 7}}));
  // Four SMs in two modules: module 0 gets {0,4,1,5}, one pair per SM.
  EXPECT_EQ(queues_of_trace(path, "locality", 4, 2), (Queues{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
}

TEST(LocalityScheduler, WithoutATraceItIsRoundRobin) {
  EXPECT_EQ(queues_of_sms("locality", 9, 3, 1), queues_of_sms("round-robin", 9, 3, 1));
}

TEST(NumaModules, AMachineThatDoesNotSplitEvenlyIsRefusedNamingTheKeys) {
  try {
    (void)load_hierarchy("fermi-c2050", {"numa.modules=4"});  // 14 SMs
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("sm.count (14) must be a multiple of numa.modules (4)"),
              std::string::npos)
        << e.what();
  }
  try {
    (void)load_hierarchy("fermi-c2050", {"numa.modules=0"});
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("numa.modules: expected an integer in [1, 8]"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(load_hierarchy("fermi-c2050").numa.modules, 1u);
}

TEST(Partition, TheGridIsCutAlongColumnsOrRowsIntoOneChunkPerSm) {
  // Grid 4 x 2: block id = x + 4y. Column order (y fastest): 0 4 1 5 2 6 3 7; row order: the ids.
  LaunchTrace launch = launch_of_blocks(8);
  launch.grid = {4, 2, 1};
  const auto queues = [&](const std::string& order, std::uint32_t sms) {
    const HierarchyConfig config =
        load_hierarchy("fermi-c2050", {"sm.count=" + std::to_string(sms), "schedule.cta=partition",
                                       "schedule.partition.order=" + order});
    RandomStream random(1, Purpose::kCtaSchedule, 0, 0);
    schedule::CtaPlan plan;
    schedule::make(config)->plan({launch, sms, 1, 1}, random, plan);
    schedule::check_plan(plan, 8, sms, "partition");
    Queues out(sms);
    for (std::uint32_t sm = 0; sm < sms; ++sm) {
      const std::uint32_t q = plan.queue_of_sm[sm];
      out[sm].assign(plan.order.begin() + plan.queue_begin[q],
                     plan.order.begin() + plan.queue_begin[q + 1]);
    }
    return out;
  };
  EXPECT_EQ(queues("column", 2), (Queues{{0, 4, 1, 5}, {2, 6, 3, 7}}));
  EXPECT_EQ(queues("row", 2), (Queues{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  // 3 SMs: chunks [0, 2), [2, 5), [5, 8) of the order (s x B / S).
  EXPECT_EQ(queues("column", 3), (Queues{{0, 4}, {1, 5, 2}, {6, 3, 7}}));
  EXPECT_THROW((void)queues("diagonal", 2), std::invalid_argument);
}

}  // namespace
}  // namespace memcarlo::sim
