// Which Locality Descriptors each compiled launch runs with (sim/src/ldesc/descriptors.hpp): the
// trace's annotations per launch, a file given by hierarchy key ldesc.descriptors instead, in
// priority order; bad descriptors stop the compile with the source, field and launch named.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "trace_builder.hpp"

namespace {

using namespace memcarlo;
using sim::testing::TraceBuilder;

constexpr std::uint64_t kBase = 0x10000;

// 4 blocks, each reading its quarter of a 2048-float array; a second launch of the same shape.
std::string descriptor(const char* type, unsigned tile, unsigned priority,
                       std::uint64_t address = kBase) {
  return R"({"address": )" + std::to_string(address) +
         R"(, "size": 8192, "element_size": 4, "type": ")" + type + R"(", "data_tile": [)" +
         std::to_string(tile) + R"(], "compute_tile": [1], "pattern": "IRREGULAR", "priority": )" +
         std::to_string(priority) + "}";
}

std::string trace_with(const std::string& annotations, const std::string& name) {
  TraceBuilder builder(4, 32);
  builder.add_allocation(kBase, 8192, "data");
  builder.add_allocation(kBase + 8192, 8192, "other");
  const std::uint32_t load = builder.add_load(tracebuf::AccessKind::kRead, "data[i]");
  for (std::uint32_t b = 0; b < 4; ++b) builder.coalesced(b, 0, load, kBase + 2048 * b);
  builder.next_launch("second");
  for (std::uint32_t b = 0; b < 4; ++b) builder.coalesced(b, 0, load, kBase + 2048 * b);
  builder.set_annotations(annotations);
  return builder.write(name);
}

sim::CompiledTrace compile(const std::string& path, const std::string& file = "") {
  const sim::HierarchyConfig config = sim::load_hierarchy(
      "fermi-c2050", {file.empty() ? std::string("sm.count=4") : "ldesc.descriptors=" + file});
  return sim::compile_trace(tracebuf::TraceReader::open(path), config);
}

TEST(LdescDescriptors, EachLaunchGetsTheRecordsThatApplyToItInPriorityOrder) {
  const std::string path = trace_with(
      R"([{"kind": "locality_descriptor", "payload": )" + descriptor("INTER-THREAD", 512, 1) +
          R"(}, {"kind": "locality_descriptor", "since_launch": 1, "payload": )" +
          descriptor("NO-REUSE", 512, 5, kBase + 8192) + "}]",
      "ldesc-launches");
  const sim::CompiledTrace compiled = compile(path);
  ASSERT_EQ(compiled.launches.size(), 2u);
  ASSERT_EQ(compiled.launches[0].descriptors.size(), 1u);
  EXPECT_EQ(compiled.launches[0].descriptors[0].type, tracebuf::LocalityType::kInterThread);
  ASSERT_EQ(compiled.launches[1].descriptors.size(), 2u);
  EXPECT_EQ(compiled.launches[1].descriptors[0].priority, 5u);  // highest first
  EXPECT_EQ(compiled.launches[1].descriptors[0].address, kBase + 8192);
  std::remove(path.c_str());
}

/// `descriptor` with `"kernel": kernel` first.
std::string for_kernel(const std::string& kernel, const std::string& descriptor_json) {
  return R"({"kernel": ")" + kernel + R"(", )" + descriptor_json.substr(1);
}

/// The message of the exception `compile(path, file)` throws ("" when it compiles).
std::string compile_error(const std::string& path, const std::string& file) {
  try {
    compile(path, file);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

TEST(LdescDescriptors, AFileReplacesTheTracesDescriptorsForTheLaunchesOfItsKernels) {
  const std::string path = trace_with(
      R"([{"kind": "locality_descriptor", "payload": )" + descriptor("INTER-THREAD", 512, 1) + "}]",
      "ldesc-file");
  const std::string file = path + ".descriptors.json";
  // One D-Tile of 2048 elements for 4 C-Tiles of one block: not the 1:1 map, refused, naming the
  // file's entry (the second) and the launch it was checked against.
  std::ofstream(file) << R"({"descriptors": [)" +
                             for_kernel("test_kernel", descriptor("INTRA-THREAD", 512, 1)) + ", " +
                             for_kernel("second", descriptor("INTRA-THREAD", 2048, 1)) + "]}";
  std::string message = compile_error(path, file);
  EXPECT_NE(message.find(file + ": descriptors[1].data_tile"), std::string::npos) << message;
  EXPECT_NE(message.find("(launch 1, second)"), std::string::npos) << message;
  // With 4 D-Tiles each replaces the trace's INTER-THREAD descriptor in its kernel's launch.
  std::ofstream(file) << R"({"descriptors": [)" +
                             for_kernel("test_kernel", descriptor("INTRA-THREAD", 512, 1)) + ", " +
                             for_kernel("second", descriptor("NO-REUSE", 512, 1)) + "]}";
  const sim::CompiledTrace compiled = compile(path, file);
  ASSERT_EQ(compiled.launches.size(), 2u);
  ASSERT_EQ(compiled.launches[0].descriptors.size(), 1u);
  EXPECT_EQ(compiled.launches[0].descriptors[0].type, tracebuf::LocalityType::kIntraThread);
  ASSERT_EQ(compiled.launches[1].descriptors.size(), 1u);
  EXPECT_EQ(compiled.launches[1].descriptors[0].type, tracebuf::LocalityType::kNoReuse);
  // A file for one kernel leaves the other kernel's launch without descriptors.
  std::ofstream(file) << R"({"descriptors": [)" +
                             for_kernel("second", descriptor("NO-REUSE", 512, 1)) + "]}";
  const sim::CompiledTrace one = compile(path, file);
  EXPECT_TRUE(one.launches[0].descriptors.empty());
  ASSERT_EQ(one.launches[1].descriptors.size(), 1u);
  std::remove(file.c_str());
  message = compile_error(path, file);
  EXPECT_NE(message.find(file + ": cannot be read"), std::string::npos) << message;
  std::remove(path.c_str());
}

TEST(LdescDescriptors, AFileWithoutKernelNamesAppliesOnlyToATraceOfOneKernel) {
  // Two kernels: which one is it for? The error names both.
  const std::string path = trace_with("", "ldesc-unnamed");
  const std::string file = path + ".descriptors.json";
  std::ofstream(file) << R"({"descriptors": [)" + descriptor("INTRA-THREAD", 512, 1) + "]}";
  const std::string message = compile_error(path, file);
  EXPECT_NE(message.find(file + ": descriptors[0].kernel: missing"), std::string::npos) << message;
  EXPECT_NE(message.find("kernels (test_kernel, second)"), std::string::npos) << message;
  // One kernel (launched twice): the file's descriptors are that kernel's, in every launch.
  TraceBuilder builder(4, 32);
  builder.add_allocation(kBase, 8192, "data");
  const std::uint32_t load = builder.add_load(tracebuf::AccessKind::kRead, "data[i]");
  for (std::uint32_t b = 0; b < 4; ++b)
    builder.coalesced(b, 0, load, kBase + 2048 * b);
  builder.next_launch("test_kernel");
  for (std::uint32_t b = 0; b < 4; ++b)
    builder.coalesced(b, 0, load, kBase + 2048 * b);
  const std::string single = builder.write("ldesc-unnamed-single");
  const sim::CompiledTrace compiled = compile(single, file);
  ASSERT_EQ(compiled.launches.size(), 2u);
  for (const sim::LaunchTrace& launch : compiled.launches) {
    ASSERT_EQ(launch.descriptors.size(), 1u);
    EXPECT_EQ(launch.descriptors[0].type, tracebuf::LocalityType::kIntraThread);
  }
  std::remove(file.c_str());
  std::remove(single.c_str());
  std::remove(path.c_str());
}

TEST(LdescDescriptors, AKernelLaunchShapeOrAllocationTheTraceLacksIsNamed) {
  const std::string path = trace_with("", "ldesc-lacks");
  const std::string file = path + ".descriptors.json";
  std::ofstream(file) << R"({"descriptors": [)" +
                             for_kernel("third", descriptor("INTRA-THREAD", 512, 1)) + "]}";
  std::string message = compile_error(path, file);
  EXPECT_NE(message.find(file + ": descriptors[0].kernel: 'third' is not a kernel of the trace "
                                "(kernels: test_kernel, second)"),
            std::string::npos)
      << message;
  // The launch shape it was proposed for: grid (4, 1, 1) only.
  std::ofstream(file) << R"({"descriptors": [{"grid": [8], )" +
                             for_kernel("second", descriptor("INTRA-THREAD", 512, 1)).substr(1) +
                             "]}";
  message = compile_error(path, file);
  EXPECT_NE(message.find(file + ": descriptors[0].grid: kernel second has no launch with grid "
                                "[8, 1, 1] in the trace (its grids: [4, 1, 1])"),
            std::string::npos)
      << message;
  std::ofstream(file) << R"({"descriptors": [{"grid": [4], "block": [32], )" +
                             for_kernel("second", descriptor("INTRA-THREAD", 512, 1)).substr(1) +
                             "]}";
  EXPECT_EQ(compile_error(path, file), "");
  // An allocation the trace lacks: the descriptor's name and the trace's allocations.
  std::ofstream(file)
      << R"({"descriptors": [{"name": "tmp", )" +
             for_kernel("second", descriptor("INTRA-THREAD", 512, 1, 0x900000)).substr(1) + "]}";
  message = compile_error(path, file);
  EXPECT_NE(message.find(file + ": descriptors[0].address: 'tmp' ["), std::string::npos) << message;
  EXPECT_NE(message.find("not inside any allocation of the trace (allocations: data, other)"),
            std::string::npos)
      << message;
  std::remove(file.c_str());
  std::remove(path.c_str());
}

TEST(LdescDescriptors, ABadRecordedDescriptorNamesTheTraceRecordAndLaunch) {
  // Outside every allocation of the trace.
  const std::string path = trace_with(R"([{"kind": "locality_descriptor", "payload": )" +
                                          descriptor("NO-REUSE", 512, 1, 0x900000) + "}]",
                                      "ldesc-bad");
  try {
    compile(path);
    FAIL() << "a descriptor outside every allocation was accepted";
  } catch (const std::exception& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(path + ": descriptors[0]"), std::string::npos) << message;
    EXPECT_NE(message.find("launch 0"), std::string::npos) << message;
  }
  std::remove(path.c_str());
}

TEST(LdescDescriptors, NoDescriptorsLeaveEveryLaunchWithout) {
  const std::string path = trace_with("", "ldesc-none");
  for (const sim::LaunchTrace& launch : compile(path).launches) {
    EXPECT_TRUE(launch.descriptors.empty());
  }
  std::remove(path.c_str());
}

}  // namespace
