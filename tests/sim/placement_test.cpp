// Known answers for the page placements across NUMA modules: which module holds each page under
// interleaved and xor, that a line's L2 sets and DRAM channel are its home module's, and
// per-allocation overrides (placement.allocations) with their errors.
#include <gtest/gtest.h>

#include <map>

#include "memcarlo/sim/placement/placement.hpp"
#include "memcarlo/sim/policy_registry.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::TraceBuilder;
using tracebuf::AccessKind;

constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t kBase = 0x100000;  // page 256

/// One warp reads the first line of each of `pages` consecutive 4 KiB pages; allocation "a"
/// holds the first half of them, "b" the second half.
std::string one_line_per_page(std::uint32_t pages) {
  TraceBuilder trace(1, 32);
  trace.add_allocation(kBase, pages / 2 * kPage, "a");
  trace.add_allocation(kBase + pages / 2 * kPage, pages / 2 * kPage, "b");
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "x[i]");
  for (std::uint64_t page = 0; page < pages; ++page) {
    trace.coalesced(0, 0, id, kBase + page * kPage);
  }
  return trace.write("one-line-per-page-" + std::to_string(pages));
}

/// 4 modules of the v100's 80 SMs, 64 L2 slices and 32 DRAM channels.
HierarchyConfig four_modules(std::vector<std::string> settings) {
  settings.push_back("numa.modules=4");
  return load_hierarchy("v100", settings);
}

/// Module of the line at each page's start.
std::map<std::uint64_t, std::uint32_t> modules_of_pages(const CompiledTrace& trace,
                                                        std::uint32_t pages) {
  std::map<std::uint64_t, std::uint32_t> out;
  for (std::uint64_t page = 0; page < pages; ++page) {
    const auto id = trace.find_line(kBase + page * kPage);
    EXPECT_TRUE(id.has_value());
    out[kBase / kPage + page] = trace.line_module[*id];
  }
  return out;
}

void expect_homes_inside_their_modules(const CompiledTrace& trace, const HierarchyConfig& config) {
  const std::uint32_t modules = config.numa.modules;
  const std::uint64_t sets_per_module = config.l2.sets() / modules;
  const std::uint32_t channels_per_module = config.dram.channels / modules;
  const std::uint32_t parts = trace.l2_lines_per_l1_line;
  for (std::uint32_t id = 0; id < trace.l1_line_count(); ++id) {
    const std::uint32_t module = trace.line_module[id];
    EXPECT_LT(module, modules);
    for (std::uint32_t part = 0; part < parts; ++part) {
      EXPECT_EQ(trace.l2_set[id * parts + part] / sets_per_module, module) << "line " << id;
    }
    EXPECT_EQ(trace.dram_location[id].channel / channels_per_module, module) << "line " << id;
  }
}

CompiledTrace compile(const std::string& path, const HierarchyConfig& config) {
  const auto reader = tracebuf::TraceReader::open(path);
  return compile_trace(reader, config);
}

TEST(InterleavedPlacement, PagesGoRoundRobinOverTheModules) {
  const HierarchyConfig config = four_modules({});
  const CompiledTrace trace = compile(one_line_per_page(16), config);
  for (const auto& [page, module] : modules_of_pages(trace, 16)) {
    EXPECT_EQ(module, page % 4) << "page " << page;
  }
  expect_homes_inside_their_modules(trace, config);
}

TEST(XorPlacement, APagesModuleIsTheXorOfItsPageNumbersDigits) {
  const HierarchyConfig config = four_modules({"placement.policy=xor"});
  const CompiledTrace trace = compile(one_line_per_page(64), config);
  std::map<std::uint32_t, int> pages_per_module;
  for (const auto& [page, module] : modules_of_pages(trace, 64)) {
    std::uint64_t expected = 0;
    for (std::uint64_t p = page; p != 0; p >>= 2) {
      expected ^= p & 3;
    }
    EXPECT_EQ(module, expected) << "page " << page;
    ++pages_per_module[module];
  }
  // Page 256 + 6 = 0b1_00_00_01_10: digits 1, 0, 0, 1, 2 -> module 2.
  EXPECT_EQ(modules_of_pages(trace, 64)[262], 2u);
  // 64 consecutive pages are 16 groups of 4 that share page / 4: each group covers every module.
  for (std::uint32_t module = 0; module < 4; ++module) {
    EXPECT_EQ(pages_per_module[module], 16) << "module " << module;
  }
  expect_homes_inside_their_modules(trace, config);
}

TEST(XorPlacement, NeedsAPowerOfTwoModules) {
  const HierarchyConfig config =
      load_hierarchy("v100", {"sm.count=72", "l2.slices=48", "dram.channels=24",
                              "numa.modules=3", "placement.policy=xor"});
  try {
    (void)compile(one_line_per_page(4), config);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("xor needs numa.modules to be a power of two; got 3"),
              std::string::npos)
        << e.what();
  }
}

TEST(PlacementPerAllocation, AnAllocationCanHaveItsOwnPlacement) {
  const HierarchyConfig config = four_modules({"placement.allocations=b:xor"});
  const CompiledTrace trace = compile(one_line_per_page(16), config);
  for (const auto& [page, module] : modules_of_pages(trace, 16)) {
    std::uint64_t hashed = 0;
    for (std::uint64_t p = page; p != 0; p >>= 2) {
      hashed ^= p & 3;
    }
    const bool in_b = page >= kBase / kPage + 8;
    EXPECT_EQ(module, in_b ? hashed : page % 4) << "page " << page;
  }
  expect_homes_inside_their_modules(trace, config);
}

TEST(PlacementPerAllocation, BadOverridesAreRefusedNamingTheKey) {
  const std::string path = one_line_per_page(4);
  const auto message = [&](const std::string& setting) {
    try {
      (void)compile(path, four_modules({setting}));
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("placement.allocations=c:xor")
                .find("placement.allocations: the trace has no allocation named \"c\"; it has a, b"),
            std::string::npos);
  EXPECT_NE(message("placement.allocations=a").find("expected \"name:policy\" pairs"),
            std::string::npos);
  EXPECT_NE(message("placement.allocations=a:nope").find("unknown policy \"nope\""),
            std::string::npos);
}

}  // namespace
}  // namespace memcarlo::sim
