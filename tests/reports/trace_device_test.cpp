// The device a trace's snapshot was sized for: read from the Meta `device` object, matched to the
// presets with the same SM numbers, and checked against the hierarchy a simulation uses.
#include <gtest/gtest.h>

#include "memcarlo/reports/trace_device.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::reports {
namespace {

/// What the host runtime records under `memcarlo run -H fermi-c2050` (tracebuf/host trace_meta).
constexpr const char* kFermiDevice =
    R"({"sm_count":14,"max_threads_per_sm":1536,"max_blocks_per_sm":8,"max_warps_per_sm":48,)"
    R"("shared_bytes_per_sm":49152,"registers_per_sm":32768,"max_threads_per_block":1024,)"
    R"("shared_bytes_per_block":49152,"register_allocation_unit":64,)"
    R"("default_registers_per_thread":32,"snapshot_factor":4})";

TEST(RecordedDevice, TheSmNumbersOfAPresetNameThatPreset) {
  const RecordedDevice device = read_recorded_device(kFermiDevice);
  EXPECT_FALSE(device.hierarchy);
  ASSERT_EQ(device.limits.size(), 7u);
  EXPECT_EQ(device.limits[0], (std::pair<std::string, std::uint64_t>{"sm_count", 14}));
  EXPECT_EQ(device.snapshot_factor, 4u);
  EXPECT_EQ(device.matching_presets, std::vector<std::string>{"fermi-c2050"});
  const std::string text = describe_recorded_device(device);
  EXPECT_NE(text.find("sm_count 14, max_threads_per_sm 1536"), std::string::npos) << text;
  EXPECT_NE(text.find("(the numbers of fermi-c2050)"), std::string::npos) << text;
}

TEST(RecordedDevice, ARecordedHierarchyIsNamedAndNothingRecordedSaysNothing) {
  const RecordedDevice device = read_recorded_device(R"({"hierarchy":"h100","sm_count":132})");
  EXPECT_EQ(device.hierarchy, "h100");
  EXPECT_EQ(describe_recorded_device(device),
            "sized for h100 (memcarlo run -H h100): sm_count 132");
  EXPECT_EQ(describe_recorded_device(read_recorded_device("{}")), "");
  EXPECT_EQ(describe_recorded_device(read_recorded_device("not json")), "");
}

TEST(SnapshotMismatch, OtherSmNumbersThanTheSimulatedHierarchyAreNamed) {
  const RecordedDevice device = read_recorded_device(kFermiDevice);
  EXPECT_FALSE(snapshot_mismatch(device, sim::load_hierarchy("fermi-c2050"), "fermi-c2050"));
  // A file that changes the caches of the preset sizes the same snapshot.
  EXPECT_FALSE(snapshot_mismatch(device, sim::load_hierarchy("fermi-c2050", {"l1.size=48KiB"}),
                                 "fermi-c2050"));
  const auto h100 = snapshot_mismatch(device, sim::load_hierarchy("h100"), "h100");
  ASSERT_TRUE(h100);
  EXPECT_NE(h100->find("sized for the SM numbers of fermi-c2050 and is simulated on h100"),
            std::string::npos)
      << *h100;
  EXPECT_NE(h100->find("sm_count 14 vs sm.count 132"), std::string::npos) << *h100;
  EXPECT_NE(h100->find("memcarlo run -H h100"), std::string::npos) << *h100;
  // Nothing recorded (a synthetic trace): nothing to say.
  EXPECT_FALSE(snapshot_mismatch(read_recorded_device("{}"), sim::load_hierarchy("h100"), "h100"));
}

TEST(SnapshotMismatch, ARecordedNameAloneDecidesWithoutNumbers) {
  const RecordedDevice named = read_recorded_device(R"({"hierarchy":"h100"})");
  EXPECT_FALSE(snapshot_mismatch(named, sim::load_hierarchy("h100"), "h100"));
  const auto other = snapshot_mismatch(named, sim::load_hierarchy("v100"), "v100");
  ASSERT_TRUE(other);
  EXPECT_NE(other->find("sized for h100 (memcarlo run -H h100) and is simulated on v100"),
            std::string::npos)
      << *other;
}

}  // namespace
}  // namespace memcarlo::reports
