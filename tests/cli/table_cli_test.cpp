// The table `memcarlo simulate` prints: the kernel and cost columns, rows by cost, --sort and
// --width, and the fixed width of a pipe; the report itself does not depend on them.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "cli_fixtures.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::memcarlo;
using memcarlo::test_support::results_of;
using memcarlo::test_support::scratch_dir;
using memcarlo::test_support::write_trace;

/// The rows of the printed table (after the header row, before the footnote).
std::vector<std::string> table_rows(const std::string& output) {
  std::istringstream in(output);
  std::vector<std::string> rows;
  bool in_rows = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("cost = ", 0) == 0) {
      break;
    }
    if (in_rows) {
      rows.push_back(line);
    }
    in_rows = in_rows || line.rfind("  id  ", 0) == 0;
  }
  return rows;
}

std::size_t columns(const std::string& line) {
  std::size_t n = 0;
  for (const char c : line) {
    n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }
  return n;
}

TEST(TableCli, EachKernelsLoadsShareItsCostAndTheCostliestComeFirst) {
  const std::string trace = write_trace("two-kernels.mct", {.kernels = {"gather_a", "gather_b"}});
  const fs::path report = scratch_dir() / "two-kernels.json";
  const auto r = memcarlo("simulate " + trace + " -n 4 -o " + report.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // requests x mean X per load, and its kernel's total, from the report.
  std::map<std::string, double> cycles;
  std::map<std::string, double> kernel_total;
  const nlohmann::json json = memcarlo::test_support::read_json_file(report);
  for (const auto& load : json["loads"]) {
    if (!load["latency_cycles"].is_null()) {
      const double c =
          load["requests"].get<double>() * load["latency_cycles"]["mean"].get<double>();
      cycles[std::to_string(load["id"].get<int>())] = c;
      kernel_total[load["kernels"][0].get<std::string>()] += c;
    }
  }
  const auto rows = table_rows(r.output);
  ASSERT_EQ(rows.size(), 6u) << r.output;
  // The cost column is a share of the kernel's cycles, so the rows stay with their kernel: the
  // costliest kernel's loads first, each kernel's by cost, then the stores.
  double previous = 1e300;
  std::string previous_kernel;
  std::vector<std::string> kernel_order;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::istringstream words(rows[i]);
    std::string id, cost, kernel;
    words >> id >> cost >> kernel;
    if (i >= 4) {  // the two stores: no latency, no cost, last
      EXPECT_EQ(cost, "-") << rows[i];
      EXPECT_EQ(cycles.count(id), 0u) << rows[i];
      continue;
    }
    ASSERT_EQ(cycles.count(id), 1u) << rows[i];
    if (kernel != previous_kernel) {
      EXPECT_EQ(std::count(kernel_order.begin(), kernel_order.end(), kernel), 0) << r.output;
      kernel_order.push_back(kernel);
      previous_kernel = kernel;
      previous = 1e300;
    }
    EXPECT_LE(cycles[id], previous) << r.output;
    previous = cycles[id];
    EXPECT_NEAR(std::stod(cost), 100 * cycles[id] / kernel_total[kernel], 0.051) << rows[i];
  }
  ASSERT_EQ(kernel_order.size(), 2u) << r.output;
  EXPECT_GE(kernel_total[kernel_order[0]], kernel_total[kernel_order[1]]) << r.output;
  EXPECT_NE(r.output.find("sorted by cost within each kernel"), std::string::npos) << r.output;
}

TEST(TableCli, SortAndWidthChangeTheTableNotTheReport) {
  const std::string trace = write_trace("sort.mct");
  const fs::path by_id = scratch_dir() / "by-id.json";
  const fs::path by_cost = scratch_dir() / "by-cost.json";
  const auto r = memcarlo("simulate " + trace + " -n 4 --sort id --width 90 -o " + by_id.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto rows = table_rows(r.output);
  ASSERT_EQ(rows.size(), 3u) << r.output;
  EXPECT_EQ(rows[0].rfind("   0  ", 0), 0u) << r.output;
  EXPECT_EQ(rows[2].rfind("   2  ", 0), 0u) << r.output;
  // 90 columns: the path gives way, file:line:column stays.
  EXPECT_EQ(r.output.find("/src/project"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("…/gather.cu:10:5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("sorted by id (--sort)"), std::string::npos) << r.output;
  ASSERT_EQ(memcarlo("simulate " + trace + " -n 4 -o " + by_cost.string()).exit_code, 0);
  EXPECT_EQ(results_of(by_id), results_of(by_cost));
}

TEST(TableCli, InAPipeTheTableFitsTheFixedWidthWithTheWholePathWhenItCan) {
  const std::string trace = write_trace("pipe.mct");
  const auto r = memcarlo("simulate " + trace + " -n 4 -o " + (scratch_dir() / "p.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("/src/project/kernels/gather.cu:10:5"), std::string::npos) << r.output;
  for (const std::string& row : table_rows(r.output)) {
    EXPECT_LE(columns(row), 160u) << row;
  }
}

TEST(TableCli, AnUnknownSortIsABadOptionValue) {
  const std::string trace = write_trace("bad-sort.mct");
  const auto r = memcarlo("simulate " + trace + " -n 1 --sort cycles -o /dev/null");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--sort"), std::string::npos) << r.output;
  const auto w = memcarlo("simulate " + trace + " -n 1 --width 3 -o /dev/null");
  EXPECT_EQ(w.exit_code, 2) << w.output;
}

}  // namespace
