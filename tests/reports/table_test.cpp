// The terminal table on a hand-made summary: the cost column (requests x mean latency as a share of
// the kernel's total) worked out by hand, rows sorted by it or by --sort, the kernel column, and a
// width that cuts the location from the left without ever hiding file:line:column.
#include <gtest/gtest.h>

#include <sstream>

#include "memcarlo/reports/report.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::reports {
namespace {

analysis::Distribution mean_of(double mean, double half = 0) {
  analysis::Distribution d;
  d.count = 8;
  d.mean = mean;
  d.ci95 = std::array<double, 2>{mean - half, mean + half};
  return d;
}

/// Kernel "spmv" with three loads and a store, kernel "scale" with one load:
///   id  requests  X     requests x X   share of its kernel
///   0   100       200   20000          20000 / 80000 = 25.0 %
///   1   300       200   60000          75.0 %
///   2   10        0     0              0.0 %
///   3   50        -     (store)        -
///   4   40        100   4000           100.0 % (alone in "scale")
struct Fixture {
  sim::CompiledTrace trace;
  analysis::SimulationSummary summary;
  sim::HierarchyConfig config = sim::load_hierarchy("fermi-c2050");

  Fixture() {
    trace.kernel_names = {"spmv", "scale"};
    const char* expressions[] = {"rowIndices[i]", "indices[j]", "flag[0]", "x[i]", "v[k]"};
    const std::uint64_t requests[] = {100, 300, 10, 50, 40};
    const double latency[] = {200, 200, 0, -1, 100};
    const double l1[] = {0.5, 0.1, 0.9, 0.0, 0.3};
    for (std::uint32_t id = 0; id < 5; ++id) {
      tracebuf::LoadInfo info;
      info.id = id;
      info.file = "/home/user/project/src/sparse/spmv_kernels.cu";
      info.line = 30 + id;
      info.column = id == 4 ? 7 : 19;
      info.expression = expressions[id];
      info.kind = id == 3 ? tracebuf::AccessKind::kWrite : tracebuf::AccessKind::kRead;
      trace.load_info.push_back(info);
      trace.slots.push_back({id, 0, static_cast<std::uint16_t>(id == 4 ? 1 : 0)});
      analysis::LoadSummary load;
      load.id = id;
      load.counts.requests = requests[id];
      load.counts.transactions = requests[id] * 2;
      if (id != 3) {
        load.metrics["l1_hit_ratio"] = mean_of(l1[id], 0.01);
        load.metrics["latency_cycles"] = mean_of(latency[id], 1);
      }
      load.metrics["l2_hit_ratio"] = mean_of(0.5);
      summary.loads.push_back(load);
    }
    summary.trials = 8;
  }

  std::string table(TableOptions options = {}) const {
    std::ostringstream out;
    print_table(out, summary, trace, config, options);
    return out.str();
  }
};

/// The table's rows (the lines after the header row, up to the footnote), split at spaces.
std::vector<std::vector<std::string>> rows(const std::string& table) {
  std::istringstream in(table);
  std::string line;
  std::vector<std::vector<std::string>> out;
  bool in_rows = false;
  while (std::getline(in, line)) {
    if (line.rfind("cost = ", 0) == 0) {
      break;
    }
    if (in_rows) {
      std::istringstream words(line);
      std::vector<std::string> row;
      for (std::string w; words >> w;) {
        row.push_back(w);
      }
      out.push_back(row);
    }
    in_rows = in_rows || line.find("  id  ") == 0;
  }
  return out;
}

TEST(TablePrefetchColumns, AppearOnlyWhenTheRunHadAPrefetcher) {
  Fixture f;
  TableOptions wide;
  wide.width = 400;
  const std::string plain = f.table(wide);
  EXPECT_EQ(plain.find("prefetch coverage"), std::string::npos) << plain;
  // A run with a prefetcher reports the prefetch group: its columns and overall lines appear.
  f.summary.counter_groups = {&sim::kPrefetchGroup};
  for (analysis::LoadSummary& load : f.summary.loads) {
    load.metrics["prefetch_coverage"] = mean_of(0.25);
    load.metrics["prefetch_accuracy"] = mean_of(0.5);
  }
  const std::string with = f.table(wide);
  for (const char* label :
       {"prefetch coverage", "timely coverage (Snake's accuracy)",
        "prefetch accuracy (useful / issued)", "late prefetches", "useless prefetches"}) {
    EXPECT_NE(with.find(label), std::string::npos) << label << "\n" << with;
  }
  EXPECT_NE(with.find("0.250"), std::string::npos) << with;
}

TEST(TableCost, IsRequestsTimesLatencyAsAShareOfTheKernelsTotalAndOrdersTheRows) {
  const Fixture f;
  const auto r = rows(f.table({TableSort::kCost, 300}));
  ASSERT_EQ(r.size(), 5u);
  // id, cost, kernel: spmv's loads (80000 cycles in all) 1 (60000), 0 (20000), 2 (0); then
  // scale's 4 (4000): a kernel's 100 % never sits between another's rows; then the store.
  const std::vector<std::vector<std::string>> expected = {{"1", "75.0%", "spmv"},
                                                          {"0", "25.0%", "spmv"},
                                                          {"2", "0.0%", "spmv"},
                                                          {"4", "100.0%", "scale"},
                                                          {"3", "-", "spmv"}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(std::vector<std::string>(r[i].begin(), r[i].begin() + 3), expected[i]) << i;
  }
  EXPECT_NE(f.table().find("stores: no latency, no cost"), std::string::npos);
  EXPECT_NE(f.table().find("sorted by cost within each kernel"), std::string::npos);
}

TEST(TableSortOption, OrdersByIdLocationHitRatiosAndLatency) {
  const Fixture f;
  const auto ids = [&](TableSort sort) {
    std::vector<std::string> out;
    for (const auto& row : rows(f.table({sort, 300}))) {
      out.push_back(row[0]);
    }
    return out;
  };
  EXPECT_EQ(ids(TableSort::kId), (std::vector<std::string>{"0", "1", "2", "3", "4"}));
  EXPECT_EQ(ids(TableSort::kLocation), (std::vector<std::string>{"0", "1", "2", "3", "4"}));
  // Lowest L1 hit ratio first; the store has none and comes last.
  EXPECT_EQ(ids(TableSort::kL1), (std::vector<std::string>{"1", "4", "0", "2", "3"}));
  // Longest latency first, ties by id.
  EXPECT_EQ(ids(TableSort::kLatency), (std::vector<std::string>{"0", "1", "4", "2", "3"}));
  EXPECT_EQ(table_sort_from_string("latency"), TableSort::kLatency);
  EXPECT_FALSE(table_sort_from_string("cycles").has_value());
}

TEST(TableWidth, AWideTableShowsTheWholePath) {
  const Fixture f;
  const std::string table = f.table({TableSort::kId, 300});
  EXPECT_NE(table.find("/home/user/project/src/sparse/spmv_kernels.cu:30:19"), std::string::npos)
      << table;
}

TEST(TableWidth, ANarrowTableCutsThePathFromTheLeftAndKeepsFileLineAndColumn) {
  const Fixture f;
  const std::string table = f.table({TableSort::kId, 100});
  EXPECT_EQ(table.find("/home/user"), std::string::npos) << table;
  // The column is as wide as the longest "…/file:line:column"; shorter ones keep more of the path.
  for (const char* place :
       {"…/spmv_kernels.cu:30:19", "…/spmv_kernels.cu:31:19", "…e/spmv_kernels.cu:34:7"}) {
    EXPECT_NE(table.find(place), std::string::npos) << place << "\n" << table;
  }
  // Far narrower than the table can be: file:line:column still whole.
  const std::string narrow = f.table({TableSort::kId, 20});
  EXPECT_NE(narrow.find("spmv_kernels.cu:34:7"), std::string::npos) << narrow;
}

TEST(TableWidth, RowsFitTheWidthWhenThePathCanGiveWay) {
  const Fixture f;
  const std::string table = f.table({TableSort::kId, 130});
  std::istringstream in(table);
  std::string line;
  bool header_seen = false;
  while (std::getline(in, line)) {
    header_seen = header_seen || line.find("  id  ") == 0;
    if (header_seen && line.rfind("cost = ", 0) != 0) {
      std::size_t columns = 0;
      for (const char c : line) {
        columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      }
      EXPECT_LE(columns, 130u) << line;
    }
  }
  EXPECT_EQ(table.find("/home/user"), std::string::npos) << table;  // it had to give way
}

TEST(TableInflightLine, AppearsWhenALocalityDescriptorMechanismIsOn) {
  Fixture f;
  f.summary.overall["l1_read_hit_ratio"] = mean_of(0.5);
  f.summary.overall["l1_inflight_ratio"] = mean_of(0.125);
  EXPECT_EQ(f.table().find("in-flight"), std::string::npos) << f.table();
  f.config.params.set("ldesc.cache", "true");
  const std::string cache = f.table();
  EXPECT_NE(cache.find("  L1 in-flight hit ratio 0.125"), std::string::npos) << cache;
  EXPECT_NE(cache.find("  L1 read hit ratio   0.500"), std::string::npos) << cache;  // as before
  f.config.params.set("ldesc.cache", "false");
  f.config.prefetch.policy = "ldesc";
  EXPECT_NE(f.table().find("L1 in-flight hit ratio"), std::string::npos) << f.table();
}

}  // namespace
}  // namespace memcarlo::reports
