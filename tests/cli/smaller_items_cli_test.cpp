// Smaller things a user meets: the device a trace's snapshot was sized for (trace info, and a
// warning from simulate on another GPU), `hierarchy show --json` files that simulate reads back
// unchanged, the unknown-key hint naming a command that exists, and the truncated-trace error
// naming --allow-truncated.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_fixtures.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/schedule/cta_scheduler.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::memcarlo;
using memcarlo::test_support::read_json_file;
using memcarlo::test_support::results_of;
using memcarlo::test_support::scratch_dir;
using memcarlo::test_support::write_trace;

/// The Meta device of `memcarlo run -H fermi-c2050` as the host runtime writes it.
constexpr const char* kFermiDevice =
    R"({"sm_count":14,"max_threads_per_sm":1536,"max_blocks_per_sm":8,"max_warps_per_sm":48,)"
    R"("shared_bytes_per_sm":49152,"registers_per_sm":32768,"max_threads_per_block":1024,)"
    R"("default_registers_per_thread":32,"snapshot_factor":4})";
/// The same for h100, with the hierarchy's name, as a runtime that records it would write it.
constexpr const char* kNamedH100Device =
    R"({"hierarchy":"h100","sm_count":132,"max_threads_per_sm":2048,"max_blocks_per_sm":32,)"
    R"("max_warps_per_sm":64,"shared_bytes_per_sm":233472,"registers_per_sm":65536,)"
    R"("default_registers_per_thread":32,"snapshot_factor":4})";

TEST(RecordedDevice, TraceInfoSaysWhatTheSnapshotWasSizedFor) {
  const std::string fermi = write_trace("fermi-device.mct", {.device_json = kFermiDevice});
  const auto r = memcarlo("trace info " + fermi);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("device:       sm_count 14, max_threads_per_sm 1536"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("snapshot_factor 4 (the numbers of fermi-c2050)"), std::string::npos)
      << r.output;
  const std::string h100 = write_trace("h100-device.mct", {.device_json = kNamedH100Device});
  const auto named = memcarlo("trace info " + h100);
  EXPECT_NE(named.output.find("device:       sized for h100 (memcarlo run -H h100): sm_count 132"),
            std::string::npos)
      << named.output;
  const auto synthetic = memcarlo("trace info " + write_trace("no-device.mct"));
  EXPECT_EQ(synthetic.output.find("device:"), std::string::npos) << synthetic.output;
}

TEST(RecordedDevice, SimulateWarnsOnAnotherGpuOnStandardErrorOnly) {
  const std::string fermi = write_trace("fermi-sim.mct", {.device_json = kFermiDevice});
  const fs::path report = scratch_dir() / "other-gpu.json";
  const auto other = memcarlo("simulate " + fermi + " -H h100 -n 2 -o " + report.string());
  ASSERT_EQ(other.exit_code, 0) << other.output;
  EXPECT_NE(other.output.find("memcarlo: warning: " + fermi +
                              ": its snapshot was sized for the SM numbers of fermi-c2050 and is "
                              "simulated on h100 (sm_count 14 vs sm.count 132"),
            std::string::npos)
      << other.output;
  EXPECT_NE(other.output.find("`memcarlo run -H h100`"), std::string::npos) << other.output;
  std::ifstream in(report);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(json.find("sized for"), std::string::npos);
  const auto same = memcarlo("simulate " + fermi + " -H fermi-c2050 -n 2 -o /dev/null");
  EXPECT_EQ(same.output.find("warning"), std::string::npos) << same.output;
  const auto quiet = memcarlo("simulate " + fermi + " -H h100 -n 2 -q -o /dev/null");
  EXPECT_EQ(quiet.output, "");
  const std::string h100 = write_trace("h100-sim.mct", {.device_json = kNamedH100Device});
  const auto named = memcarlo("simulate " + h100 + " -H v100 -n 2 -o /dev/null");
  EXPECT_NE(named.output.find("its snapshot was sized for h100 (memcarlo run -H h100) and is "
                              "simulated on v100"),
            std::string::npos)
      << named.output;
}

TEST(HierarchyShowJson, IsAFileThatSimulateReadsBackWithTheSameParameters) {
  const std::string trace = write_trace("round-trip.mct");
  for (const std::string& preset : memcarlo::sim::preset_names()) {
    const fs::path file = scratch_dir() / (preset + ".json");
    const auto shown = memcarlo("hierarchy show " + preset + " --json");
    ASSERT_EQ(shown.exit_code, 0) << shown.output;
    std::ofstream(file) << shown.output;
    const auto parsed = nlohmann::json::parse(shown.output);
    EXPECT_TRUE(parsed["l1"].is_object()) << preset;  // nested as the component tree
    // The file shows as the preset does ...
    EXPECT_EQ(memcarlo("hierarchy show " + file.string()).output,
              memcarlo("hierarchy show " + preset).output)
        << preset;
    EXPECT_EQ(memcarlo("hierarchy show " + file.string() + " --json").output, shown.output)
        << preset;
    // ... and simulates as the preset does.
    const fs::path from_file = scratch_dir() / (preset + "-file-report.json");
    const fs::path from_preset = scratch_dir() / (preset + "-preset-report.json");
    ASSERT_EQ(
        memcarlo("simulate " + trace + " -n 2 -q -H " + file.string() + " -o " + from_file.string())
            .exit_code,
        0);
    ASSERT_EQ(
        memcarlo("simulate " + trace + " -n 2 -q -H " + preset + " -o " + from_preset.string())
            .exit_code,
        0);
    EXPECT_EQ(read_json_file(from_file)["inputs"]["hierarchy"],
              read_json_file(from_preset)["inputs"]["hierarchy"])
        << preset;
    EXPECT_EQ(results_of(from_file), results_of(from_preset)) << preset;
  }
  // With --set, the file carries the override.
  const auto changed = nlohmann::json::parse(
      memcarlo("hierarchy show fermi-c2050 --set l1.size=48KiB --json").output);
  EXPECT_EQ(changed["l1"]["size"], 49152);
}

TEST(UnknownKeyHint, NamesACommandThatExists) {
  const std::string trace = write_trace("hint.mct");
  const auto r = memcarlo("simulate " + trace + " --set l1.sise=1 -o /dev/null");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("l1.sise: unknown key; did you mean l1.size? (`memcarlo hierarchy keys` "
                          "lists every key)"),
            std::string::npos)
      << r.output;
  const auto keys = memcarlo("hierarchy keys");
  EXPECT_EQ(keys.exit_code, 0) << keys.output;
  EXPECT_NE(keys.output.find("l1.size ("), std::string::npos) << keys.output;
  // Keys that policies own, and the policy choices, say they may be left out and what they
  // default to.
  std::string schedulers;  // the registry's names, whatever schedulers are built in
  for (const std::string& name : memcarlo::sim::schedule::registry().names()) {
    schedulers += (schedulers.empty() ? "" : " ") + name;
  }
  EXPECT_NE(keys.output.find("schedule.cta (choice: " + schedulers +
                             "), optional, default \"round-robin\""),
            std::string::npos)
      << keys.output;
  EXPECT_NE(keys.output.find("placement.page_bytes (size), optional, default 4096"),
            std::string::npos)
      << keys.output;
}

TEST(TruncatedTrace, TheErrorNamesAllowTruncated) {
  const std::string whole = write_trace("whole.mct");
  const fs::path cut = scratch_dir() / "cut.mct";
  fs::copy_file(whole, cut, fs::copy_options::overwrite_existing);
  fs::resize_file(cut, fs::file_size(cut) - 100);
  const auto r = memcarlo("simulate " + cut.string() + " -n 1 -o /dev/null");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("truncated trace"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--allow-truncated"), std::string::npos) << r.output;
  const auto check = memcarlo("trace check " + cut.string());
  EXPECT_EQ(check.exit_code, 2) << check.output;
  EXPECT_NE(check.output.find("--allow-truncated accepts them"), std::string::npos) << check.output;
  const auto allowed =
      memcarlo("simulate " + cut.string() + " -n 1 --allow-truncated -q -o /dev/null");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.output;
}

}  // namespace
