// `memcarlo footprint` on the TAFE CSR example: the cells through the command, its JSON, the exit
// code 2 for a trace without index forms.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "common/run_command.hpp"
#include "footprint/csr_trace.hpp"

namespace memcarlo::cli {
namespace {

using test_support::run_command;
const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";

std::string temp(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("memcarlo_fpcli_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(FootprintCommand, CsrExampleThroughTheDistributedScheduler) {
  const std::string trace = temp("csr.mct");
  const std::string json = temp("csr.json");
  test_support::write_csr_trace(trace);
  // distributed on 2 modules: block 0 on module 0, block 1 on module 1; one element per page.
  const auto result =
      run_command(kMemcarlo + " footprint " + trace +
                  " --modules 2 --page 4 --schedule distributed -o " + json + " 2>&1");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("INDIR_RANGE"), std::string::npos) << result.output;
  std::ifstream in(json);
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_EQ(report["modules"], 2);
  EXPECT_EQ(report["page_bytes"], 4);
  EXPECT_EQ(report["allocations"]["Cost"]["false_positives"], 2);
  EXPECT_EQ(report["allocations"]["Cost"]["true_positives"], 8);
  EXPECT_EQ(report["overall"]["cells"], 46);
  EXPECT_EQ(report["overall"]["true_positives"], 22);
  EXPECT_EQ(report["overall"]["false_negatives"], 0);
  // §4.3's history buffer over Nodes and Edges initialized in order (by hand in
  // CsrExample.HistoryBufferOverSequentialInitialization): 2 of 5 and 6 of 8 stores hit.
  const nlohmann::json& tracking = report["launches"][0]["primary_tracking"];
  ASSERT_EQ(tracking.size(), 2u);
  EXPECT_EQ(tracking[0]["array"], "Nodes");
  EXPECT_EQ(tracking[0]["hits"], 2);
  EXPECT_EQ(tracking[0]["stores"], 5);
  EXPECT_EQ(tracking[1]["array"], "Edges");
  EXPECT_EQ(tracking[1]["hits"], 6);
  EXPECT_EQ(tracking[1]["stores"], 8);
  std::filesystem::remove(trace);
  std::filesystem::remove(json);
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(FootprintCommand, HtmlMapHasOneCellPerPageAndModuleClassedAsTheCounts) {
  const std::string trace = temp("csr-html.mct");
  const std::string html = temp("csr.html");
  test_support::write_csr_trace(trace);
  const auto result = run_command(kMemcarlo + " footprint " + trace +
                                  " --modules 2 --page 4 --schedule distributed --html " + html +
                                  " 2>&1");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::ifstream in(html);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(text.find("<script"), std::string::npos);  // self-contained, nothing to load
  // The CSR example's cells (CsrExampleThroughTheDistributedScheduler): 46 cells, 22 true+, and
  // Cost's 2 false+ from the extent approximation (paper Fig. 8b), no false-.
  EXPECT_EQ(occurrences(text, "<rect class="), 46u);
  EXPECT_EQ(occurrences(text, "<rect class=\"tp\""), 22u);
  EXPECT_EQ(occurrences(text, "<rect class=\"fp\""), 2u);
  EXPECT_EQ(occurrences(text, "<rect class=\"fn\""), 0u);
  EXPECT_NE(text.find("<h3>Cost</h3>"), std::string::npos);
  EXPECT_NE(text.find("<td>8</td><td>2</td><td>0</td>"), std::string::npos);  // Cost's counts
  std::filesystem::remove(trace);
  std::filesystem::remove(html);
}

TEST(FootprintCommand, TraceWithoutIndexFormsExitsWith2) {
  const std::string trace = temp("plain.mct");
  test_support::write_csr_trace(trace, false);
  const auto result = run_command(kMemcarlo + " footprint " + trace + " 2>&1");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("no index forms"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find(trace), std::string::npos) << result.output;
  std::filesystem::remove(trace);
}

TEST(FootprintCommand, BadPageSizeIsRefused) {
  const auto result = run_command(kMemcarlo + " footprint x.mct --page 4QB 2>&1");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("--page"), std::string::npos) << result.output;
}

TEST(FootprintCommand, HelpExplainsTheCells) {
  const auto result = run_command(kMemcarlo + " footprint --help 2>&1");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.output.find("INDIR_RANGE"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace memcarlo::cli
