// Locality Descriptors recorded as trace annotations: which launches each record applies to
// ("launch", "since_launch", neither), re-specification between launches, reset, and errors that
// name the record.
#include <gtest/gtest.h>

#include <string>

#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/metadata.hpp"

namespace {

using namespace memcarlo::tracebuf;

std::string record(const std::string& scope, std::uint64_t address, const char* type,
                   std::uint32_t priority) {
  return R"({"kind": "locality_descriptor")" + scope + R"(, "payload": {"address": )" +
         std::to_string(address) + R"(, "size": 1024, "element_size": 4, "type": ")" + type +
         R"(", "pattern": "IRREGULAR", "compute_tile": [1], "priority": )" + std::to_string(priority) + "}}";
}

TEST(RecordedDescriptors, ScopesAndRespecificationFollowTheRecordOrder) {
  // A before every launch; B only for launch 1; A re-specified (priority 3) from launch 2 on.
  const std::string annotations = "[" + record("", 4096, "NO-REUSE", 1) + "," +
                                  record(R"(, "launch": 1)", 8192, "INTRA-THREAD", 2) + "," +
                                  R"({"kind": "kernel_arguments", "launch": 0, "payload": {}},)" +
                                  record(R"(, "since_launch": 2)", 4096, "NO-REUSE", 3) + "]";
  const auto at0 = recorded_descriptors(annotations, 0);
  ASSERT_EQ(at0.size(), 1u);
  EXPECT_EQ(at0[0].priority, 1u);
  const auto at1 = recorded_descriptors(annotations, 1);
  ASSERT_EQ(at1.size(), 2u);
  EXPECT_EQ(at1[0].address, 4096u);
  EXPECT_EQ(at1[1].type, LocalityType::kIntraThread);
  for (std::uint32_t launch : {2u, 7u}) {
    const auto later = recorded_descriptors(annotations, launch);
    ASSERT_EQ(later.size(), 1u);
    EXPECT_EQ(later[0].type, LocalityType::kNoReuse);  // replaced, not added
    EXPECT_EQ(later[0].priority, 3u);
  }
}

TEST(RecordedDescriptors, OneDataStructureMayHaveOneDescriptorPerLocalityType) {
  // Paper §3.3.2: a structure with both intra- and inter-thread reuse gets one of each.
  const std::string annotations = "[" + record("", 4096, "INTRA-THREAD", 1) + "," +
                                  record("", 4096, "INTER-THREAD", 2) + "," +
                                  record("", 4096, "INTRA-THREAD", 4) + "]";
  const auto descriptors = recorded_descriptors(annotations, 0);
  ASSERT_EQ(descriptors.size(), 2u);
  EXPECT_EQ(descriptors[0].type, LocalityType::kIntraThread);
  EXPECT_EQ(descriptors[0].priority, 4u);  // re-specified in place
  EXPECT_EQ(descriptors[1].type, LocalityType::kInterThread);
}

TEST(RecordedDescriptors, ResetRemovesFromItsLaunchOn) {
  const std::string annotations =
      "[" + record("", 4096, "INTER-THREAD", 1) + "," + record("", 8192, "NO-REUSE", 1) +
      R"(, {"kind": "locality_descriptor_reset", "since_launch": 1, "payload": {"address": "0x1000"}}])";
  EXPECT_EQ(recorded_descriptors(annotations, 0).size(), 2u);
  const auto at1 = recorded_descriptors(annotations, 1);
  ASSERT_EQ(at1.size(), 1u);
  EXPECT_EQ(at1[0].address, 8192u);
}

TEST(RecordedDescriptors, NoAnnotationsNoDescriptors) {
  EXPECT_TRUE(recorded_descriptors("[]", 0).empty());
  EXPECT_TRUE(recorded_descriptors(R"([{"kind": "taf_setRdy", "payload": {"base": 1}}])", 0)
                  .empty());
}

TEST(RecordedDescriptors, ErrorsNameTheRecordAndField) {
  const std::string bad_tile = R"([{"kind": "taf_setRdy", "payload": {}},
    {"kind": "locality_descriptor", "payload": {"address": 0, "size": 64, "type": "NO-REUSE",
     "compute_tile": [0]}}])";
  try {
    recorded_descriptors(bad_tile, 0);
    FAIL() << "a zero C-Tile was accepted";
  } catch (const DescriptorError& error) {
    EXPECT_EQ(error.field().rfind("annotations[1].payload.compute_tile", 0), 0u) << error.field();
  }
  const std::string bad_scope = R"([{"kind": "locality_descriptor", "since_launch": -1,
    "payload": {"address": 0, "size": 64, "type": "NO-REUSE", "compute_tile": [1]}}])";
  try {
    recorded_descriptors(bad_scope, 0);
    FAIL() << "a negative since_launch was accepted";
  } catch (const MetadataError& error) {
    EXPECT_NE(std::string(error.what()).find("annotations[0].since_launch"), std::string::npos)
        << error.what();
  }
}

}  // namespace
