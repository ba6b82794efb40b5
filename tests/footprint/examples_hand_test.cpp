// The bundled BFS, SpMV and stencil examples register their relations by hand (memcarlo/tafe.h,
// TAFE's API); memcarlo derives the same relations from the instrumenter's loads table and the
// recorded kernel arguments. Built with memcarlo-cc, traced with memcarlo run: for every launch,
// the footprint from the hand registrations must equal the derived one, per block and byte, and
// so per page and per line x module.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "common/run_command.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::footprint {
namespace {

namespace fs = std::filesystem;

const std::string kBinaryDir = MEMCARLO_BINARY_DIR;
const std::string kExamples = std::string(MEMCARLO_SOURCE_DIR) + "/examples";

struct Example {
  const char* name;
  const char* source;
  const char* arguments;
};

void PrintTo(const Example& example, std::ostream* out) {
  *out << example.name;
}

/// Builds the example with memcarlo-cc, traces every launch (every block) with memcarlo run.
std::string trace_of(const Example& example) {
  const fs::path dir =
      fs::temp_directory_path() / ("memcarlo-examples-hand-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string exe = (dir / example.name).string();
  const auto built = test_support::run_command(kBinaryDir + "/cli/memcarlo-cc --backend host " +
                                               "-std=c++17 -O1 " + kExamples + "/" +
                                               example.source + " -o " + exe + " 2>&1");
  EXPECT_EQ(built.exit_code, 0) << built.output;
  const auto ran = test_support::run_command(
      kBinaryDir + "/cli/memcarlo run --launch all --trace " + exe + ".mct -- " + exe +
      " " + example.arguments + " 2>&1");
  EXPECT_EQ(ran.exit_code, 0) << ran.output;
  return exe + ".mct";
}

std::size_t count_source(const LaunchFootprint& fp, const std::string& source) {
  std::size_t n = 0;
  for (const RelationUse& use : fp.relations) {
    n += use.source == source ? 1 : 0;
  }
  return n;
}

class ExampleHandRegistrations : public ::testing::TestWithParam<Example> {};

TEST_P(ExampleHandRegistrations, AgreeWithTheDerivedRelationsOnEveryLaunch) {
  const std::string path = trace_of(GetParam());
  const auto reader = tracebuf::TraceReader::open(path);
  ASSERT_GT(reader.launches().size(), 0u);
  EstimateOptions derived_only;
  derived_only.hand_registrations = false;
  for (std::uint32_t launch = 0; launch < reader.launches().size(); ++launch) {
    SCOPED_TRACE("launch " + std::to_string(launch));
    ASSERT_FALSE(recorded_registrations(reader, launch).empty());
    ASSERT_FALSE(recorded_arguments(reader, launch).empty());
    const LaunchFootprint hand = launch_footprint(reader, launch);
    const LaunchFootprint derived = launch_footprint(reader, launch, derived_only);
    EXPECT_GT(count_source(hand, "taf_register"), 0u);
    EXPECT_EQ(count_source(derived, "taf_register"), 0u);
    std::set<std::uint32_t> executed;  // the loads this launch's records show
    for (const tracebuf::WarpStream& warp : reader.launches()[launch].warps) {
      warp.for_each([&](const tracebuf::RecordView& record) { executed.insert(record.static_id()); });
    }
    for (const RelationUse& use : derived.relations) {
      EXPECT_TRUE(use.fallback.empty()) << use.relation.expression << ": " << use.fallback;
      if (executed.count(use.relation.load) == 0) {
        continue;  // e.g. BFS's last level: no vertex left to walk its edges
      }
      // Every access the launch executes is described by a registration.
      const bool superseded = std::any_of(hand.relations.begin(), hand.relations.end(),
                                          [&](const RelationUse& h) {
                                            return h.relation.load == use.relation.load &&
                                                   h.superseded_by.has_value();
                                          });
      EXPECT_TRUE(superseded) << use.relation.expression;
    }
    ASSERT_EQ(hand.blocks.size(), derived.blocks.size());
    for (std::size_t b = 0; b < hand.blocks.size(); ++b) {
      ASSERT_EQ(hand.blocks[b].estimated, derived.blocks[b].estimated)
          << "block " << hand.blocks[b].block_id;
    }
    // The same per page and per line x module, 8 modules by contiguous block ranges.
    std::vector<std::uint32_t> modules(hand.blocks.size());
    for (std::size_t b = 0; b < modules.size(); ++b) {
      modules[b] = static_cast<std::uint32_t>(b * 8 / modules.size());
    }
    for (const std::uint64_t page : {std::uint64_t{4096}, std::uint64_t{128}}) {
      const FootprintComparison h = compare_footprints(reader, hand, modules, 8, page);
      const FootprintComparison d = compare_footprints(reader, derived, modules, 8, page);
      ASSERT_EQ(h.allocations.size(), d.allocations.size());
      for (std::size_t a = 0; a < h.allocations.size(); ++a) {
        EXPECT_EQ(h.allocations[a].estimated, d.allocations[a].estimated)
            << h.allocations[a].name << ", " << page << "-byte pages";
      }
      EXPECT_EQ(h.overall.false_negatives, d.overall.false_negatives);
      EXPECT_EQ(h.overall.false_positives, d.overall.false_positives);
    }
  }
  std::filesystem::remove(path);
}

INSTANTIATE_TEST_SUITE_P(
    Bundled, ExampleHandRegistrations,
    ::testing::Values(Example{"bfs_csr", "bfs/bfs_csr.cu", "--vertices 2048 --degree 6"},
                      Example{"spmv_scalar", "spmv/spmv_scalar.cu", "--matrix u --rows 2048"},
                      Example{"stencil2d", "stencil/stencil2d.cu",
                              "--width 96 --height 64 --steps 2"}),
    [](const ::testing::TestParamInfo<Example>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace memcarlo::footprint
