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

TEST(LdescDescriptors, AFileReplacesTheTracesDescriptorsForEveryLaunch) {
  const std::string path = trace_with(
      R"([{"kind": "locality_descriptor", "payload": )" + descriptor("INTER-THREAD", 512, 1) + "}]",
      "ldesc-file");
  const std::string file = path + ".descriptors.json";
  std::ofstream(file) << R"({"descriptors": [)" + descriptor("INTRA-THREAD", 2048, 1) + "]}";
  // One D-Tile of 2048 elements for 4 C-Tiles of one block: not the 1:1 map, refused ...
  try {
    compile(path, file);
    FAIL() << "a descriptor with 1 D-Tile for 4 C-Tiles was accepted";
  } catch (const std::exception& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(file + ": descriptors[0]"), std::string::npos) << message;
    EXPECT_NE(message.find("(launch 0, test_kernel)"), std::string::npos) << message;
  }
  // ... and with 4 D-Tiles it replaces the trace's INTER-THREAD descriptor in both launches.
  std::ofstream(file) << R"({"descriptors": [)" + descriptor("INTRA-THREAD", 512, 1) + "]}";
  const sim::CompiledTrace compiled = compile(path, file);
  for (const sim::LaunchTrace& launch : compiled.launches) {
    ASSERT_EQ(launch.descriptors.size(), 1u);
    EXPECT_EQ(launch.descriptors[0].type, tracebuf::LocalityType::kIntraThread);
  }
  std::remove(file.c_str());
  try {
    compile(path, file);
    FAIL() << "a missing descriptors file was accepted";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find(file + ": cannot be read"), std::string::npos)
        << error.what();
  }
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
