// Frictions a new user met on public programs (issue 26 §7): an unknown command, an output path
// that cannot be written, a hierarchy file written before newer keys existed, a block that does
// not fit the hierarchy's SM.
#include <gtest/gtest.h>

#include "cli_fixtures.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::memcarlo;
using memcarlo::test_support::read_json_file;
using memcarlo::test_support::scratch_dir;
using memcarlo::test_support::write_trace;

TEST(UnknownCommand, IsAnErrorWhateverFollowsIt) {
  for (const std::string tail : {"", " --help", " -h x.mct"}) {
    const auto r = memcarlo("no-such-command" + tail);
    EXPECT_EQ(r.exit_code, 1) << tail << ": " << r.output;
    EXPECT_NE(r.output.find("unknown command 'no-such-command'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("simulate"), std::string::npos) << r.output;  // the list of commands
  }
  // A known command still takes --help.
  const auto help = memcarlo("simulate --help");
  EXPECT_EQ(help.exit_code, 0) << help.output;
}

TEST(OutputPath, AReportThatCannotBeWrittenIsFoundBeforeTheWorkWithTheSystemsReason) {
  const std::string trace = write_trace("unwritable.mct");
  const fs::path missing_dir = scratch_dir() / "no-such-dir" / "report.json";
  const auto r = memcarlo("simulate " + trace + " -n 2 -o " + missing_dir.string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("cannot write the report to " + missing_dir.string() +
                          ": No such file or directory"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("trials of"), std::string::npos) << "it simulated first: " << r.output;

  const fs::path page_dir = scratch_dir() / "a-directory.html";
  fs::create_directories(page_dir);
  const fs::path report = scratch_dir() / "writable.json";
  const auto page = memcarlo("simulate " + trace + " -n 2 -o " + report.string() + " --html " +
                             page_dir.string());
  EXPECT_EQ(page.exit_code, 1) << page.output;
  EXPECT_NE(page.output.find("cannot write the HTML report to " + page_dir.string() +
                             ": it is a directory"),
            std::string::npos)
      << page.output;
  EXPECT_FALSE(fs::exists(report)) << "the check left a file behind, or it simulated first";

  const auto sweep = memcarlo("sweep " + trace + " -n 2 --vary l1.size=16KiB,48KiB -o " +
                              missing_dir.string());
  EXPECT_EQ(sweep.exit_code, 1) << sweep.output;
  EXPECT_NE(sweep.output.find("cannot write the sweep report to " + missing_dir.string() +
                              ": No such file or directory"),
            std::string::npos)
      << sweep.output;
}

/// Removes `key` ("l2.between_launches") from a hierarchy file's JSON, flat or nested.
void erase_key(nlohmann::json& file, const std::string& key) {
  if (file.erase(key) > 0) {
    return;
  }
  const auto dot = key.find('.');
  ASSERT_NE(dot, std::string::npos) << key;
  ASSERT_TRUE(file.contains(key.substr(0, dot))) << key << " in " << file.dump();
  ASSERT_EQ(file[key.substr(0, dot)].erase(key.substr(dot + 1)), 1u) << key;
}

TEST(HierarchyFile, KeysAddedSinceTheFirstReleaseTakeTheirDefaultsWithANote) {
  const fs::path full = scratch_dir() / "fermi-full.json";
  const auto shown = memcarlo("hierarchy show fermi-c2050 --json > " + full.string());
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  nlohmann::json file = read_json_file(full);
  // As written before l1.unified_size and l2.between_launches existed.
  erase_key(file, "l1.unified_size");
  erase_key(file, "l2.between_launches");
  const fs::path old_file = scratch_dir() / "fermi-old.json";
  std::ofstream(old_file) << file.dump(2);
  const std::string trace = write_trace("old-hierarchy.mct");
  const fs::path with_preset = scratch_dir() / "old-preset.json";
  const fs::path with_file = scratch_dir() / "old-file.json";
  const auto preset = memcarlo("simulate " + trace + " -n 2 -q -o " + with_preset.string());
  ASSERT_EQ(preset.exit_code, 0) << preset.output;
  const auto r = memcarlo("simulate " + trace + " -H " + old_file.string() + " -n 2 -q -o " +
                          with_file.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("leaves out keys added since the first release"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("l1.unified_size=0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("l2.between_launches=\"keep\""), std::string::npos) << r.output;
  // The preset's values are the defaults here, so the results are the preset's.
  EXPECT_EQ(read_json_file(with_file)["overall"], read_json_file(with_preset)["overall"]);

  // A key of the first release stays required.
  erase_key(file, "l1.size");
  const fs::path older = scratch_dir() / "fermi-no-l1-size.json";
  std::ofstream(older) << file.dump(2);
  const auto refused = memcarlo("simulate " + trace + " -H " + older.string() + " -n 2 -q -o " +
                                (scratch_dir() / "refused.json").string());
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("missing keys: l1.size"), std::string::npos) << refused.output;
}

TEST(BlockThatDoesNotFit, SaysWhereTheRegistersComeFromAndWhichPresetsHoldIt) {
  // 1,024 threads x 44 registers = 45,056 > the C2050's 32,768.
  const std::string trace = write_trace(
      "big-block.mct", {.blocks = 4, .threads_per_block = 1024, .registers_per_thread = 44});
  const auto r = memcarlo("simulate " + trace + " -H fermi-c2050 -n 2 -q -o " +
                          (scratch_dir() / "big-block.json").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("45056 registers (44 per thread as the trace records them: memcarlo-cc "
                          "takes them from nvcc's resource usage) > sm.registers 32768"),
            std::string::npos)
      << r.output;
  const auto list = r.output.find("Presets whose SM holds this block: ");
  ASSERT_NE(list, std::string::npos) << r.output;
  const std::string presets = r.output.substr(list, r.output.find(';', list) - list);
  EXPECT_NE(presets.find("v100"), std::string::npos) << presets;
  EXPECT_EQ(presets.find("fermi-c2050"), std::string::npos) << presets;
  EXPECT_NE(r.output.find("memcarlo run -H PRESET"), std::string::npos) << r.output;
  // And the advice is right: the block fits a listed preset.
  const auto v100 = memcarlo("simulate " + trace + " -H v100 -n 2 -q -o " +
                             (scratch_dir() / "big-block-v100.json").string());
  EXPECT_EQ(v100.exit_code, 0) << v100.output;
}

}  // namespace
