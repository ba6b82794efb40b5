// memcarlo diff on two hand-made reports (data/diff_before.json, data/diff_after.json) whose
// answers are worked out by hand: loads matched exactly, moved by an edit, or found in one report
// only; Welch's t and degrees of freedom of summaries chosen to give round numbers; the inputs that
// differ; and messages naming the file and the key for reports that are not.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "memcarlo/reports/report_diff.hpp"

namespace memcarlo::reports {
namespace {

const std::string kData = std::string(MEMCARLO_SOURCE_DIR) + "/tests/reports/data/";

std::string read(const std::string& name) {
  std::ifstream in(kData + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ReportDiff before_after() {
  return diff_reports(read("diff_before.json"), "before.json", read("diff_after.json"),
                      "after.json");
}

const MetricDiff& metric(const std::vector<MetricDiff>& metrics, const std::string& key) {
  for (const MetricDiff& m : metrics) {
    if (m.metric == key) {
      return m;
    }
  }
  throw std::runtime_error("no metric " + key);
}

TEST(DiffMatching, LoadsPairByPlaceThenByExpressionWhenAnEditMovedThem) {
  const ReportDiff d = before_after();
  ASSERT_EQ(d.loads.size(), 3u);
  EXPECT_EQ(d.loads[0].a.expression, "rowIndices[myi]");
  EXPECT_EQ(d.loads[0].match, LoadMatch::kExact);
  EXPECT_EQ(d.loads[1].a.expression, "indices[j]");
  EXPECT_EQ(d.loads[1].match, LoadMatch::kMoved);
  EXPECT_EQ(d.loads[1].a.line, 34u);
  EXPECT_EQ(d.loads[1].b.line, 35u);
  EXPECT_EQ(d.loads[2].a.expression, "x[myi]");
  EXPECT_EQ(d.loads[2].match, LoadMatch::kMoved);
  ASSERT_EQ(d.only_in_a.size(), 1u);
  EXPECT_EQ(d.only_in_a[0].expression, "val[j]");
  ASSERT_EQ(d.only_in_b.size(), 1u);
  EXPECT_EQ(d.only_in_b[0].expression, "val4[j / 4]");
  EXPECT_EQ(d.only_in_b[0].requests, 8924u);
  ASSERT_EQ(d.kernels.size(), 1u);
  EXPECT_TRUE(d.kernels_only_in_a.empty());
}

TEST(DiffStatistics, WelchTestOnThePerTrialSummariesOfEachReport) {
  const ReportDiff d = before_after();
  // overall L1: 0.50 -> 0.51, s = 0.01, 32 trials each: se = 0.01 sqrt(2/32) = 0.0025, t = 4,
  // nu = 62, p = 1.7e-4.
  const MetricDiff& l1 = metric(d.overall, "l1_read_hit_ratio");
  ASSERT_TRUE(l1.change && l1.change->t && l1.change->p_value);
  EXPECT_NEAR(l1.change->difference, 0.01, 1e-12);
  EXPECT_NEAR(*l1.change->t, 4, 1e-9);
  EXPECT_NEAR(*l1.change->degrees_of_freedom, 62, 1e-9);
  EXPECT_LT(*l1.change->p_value, 0.001);
  EXPECT_TRUE(l1.change->significant);
  EXPECT_NEAR(*l1.relative_change, 0.02, 1e-12);
  // DRAM latency: 600 -> 601, s = 12: t = 1 / 3, not significant.
  const MetricDiff& dram = metric(d.overall, "dram_latency_cycles");
  EXPECT_NEAR(*dram.change->t, 1.0 / 3, 1e-9);
  EXPECT_FALSE(dram.change->significant);
  // A metric null in both reports has no change.
  EXPECT_FALSE(metric(d.overall, "l2_write_hit_ratio").change);
  // Added to the schema later: absent in the older report, so no change either.
  const MetricDiff& lookup = metric(d.overall, "l1_sector_lookup_hit_ratio");
  EXPECT_FALSE(lookup.a);
  EXPECT_FALSE(lookup.change);
}

TEST(DiffStatistics, CyclesAreRequestsTimesLatencyAndChangeWithTheSameT) {
  const ReportDiff d = before_after();
  const LoadDiff& indices = d.loads[1];
  // X: 553 -> 540, s = 4, 32 trials: se = 1, t = -13.
  const MetricDiff& x = metric(indices.metrics, "latency_cycles");
  EXPECT_NEAR(*x.change->t, -13, 1e-9);
  EXPECT_TRUE(x.change->significant);
  const MetricDiff& cycles = metric(indices.metrics, "cycles");
  EXPECT_NEAR(cycles.a->mean, 35696.0 * 553, 1e-6);
  EXPECT_NEAR(cycles.change->difference, -13.0 * 35696, 1e-6);
  EXPECT_NEAR(*cycles.change->t, -13, 1e-9);
  // An unchanged load: no difference, p = 1.
  const MetricDiff& same = metric(d.loads[0].metrics, "l1_hit_ratio");
  EXPECT_EQ(same.change->difference, 0);
  EXPECT_NEAR(*same.change->p_value, 1, 1e-12);
  EXPECT_FALSE(same.change->significant);
  // A store has no latency on either side.
  EXPECT_FALSE(metric(d.loads[2].metrics, "cycles").change);
}

TEST(DiffInputs, NameTheTraceTheHierarchyAndEachParameterThatDiffer) {
  const ReportDiff d = before_after();
  std::vector<std::string> inputs;
  for (const InputDifference& i : d.input_differences) {
    inputs.push_back(i.input);
  }
  EXPECT_EQ(inputs, (std::vector<std::string>{"trace_sha256", "hierarchy.name",
                                              "hierarchy.parameters.l1.size"}));
  EXPECT_EQ(d.input_differences[2].a, "16384");
  EXPECT_EQ(d.input_differences[2].b, "49152");
  const ReportDiff itself =
      diff_reports(read("diff_before.json"), "a.json", read("diff_before.json"), "b.json");
  EXPECT_TRUE(itself.input_differences.empty());
  EXPECT_TRUE(itself.only_in_a.empty() && itself.only_in_b.empty());
  for (const LoadDiff& load : itself.loads) {
    EXPECT_EQ(load.match, LoadMatch::kExact);
  }
}

TEST(DiffPrinters, TextShowsEachChangeAndJsonHoldsEveryMetric) {
  const ReportDiff d = before_after();
  std::ostringstream text;
  print_diff(text, d);
  const std::string t = text.str();
  EXPECT_NE(t.find("hierarchy.name: fermi-c2050 -> gtx480"), std::string::npos) << t;
  EXPECT_NE(t.find("spmv_scalar.cu:34:22 -> spmv_scalar.cu:35:22  indices[j]  read  "
                   "[spmv_csr_scalar]  (moved)"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("+0.010 [+0.005, +0.015]"), std::string::npos) << t;  // overall L1, ±2.000 se
  EXPECT_NE(t.find("<0.001 *"), std::string::npos) << t;
  EXPECT_NE(t.find("only in A: 1 load"), std::string::npos) << t;
  EXPECT_NE(t.find("val4[j / 4]"), std::string::npos) << t;
  const auto doc = nlohmann::json::parse(diff_json(d));
  EXPECT_EQ(doc["schema_version"], kDiffSchemaVersion);
  EXPECT_EQ(doc["loads"].size(), 3u);
  EXPECT_EQ(doc["loads"][1]["match"], "moved");
  EXPECT_EQ(doc["loads"][1]["metrics"].size(), 9u);  // 8 report metrics and cycles
  EXPECT_NEAR(doc["overall"][0]["t"].get<double>(), 4, 1e-9);
  EXPECT_EQ(doc["overall"][0]["significant"], true);
  EXPECT_TRUE(doc["overall"][1]["change"].is_null());
  EXPECT_EQ(doc["only_in_a"][0]["expression"], "val[j]");
}

TEST(DiffCounterGroups, AGroupsMetricsAreComparedWhereAReportHasThemAndAbsentOtherwise) {
  // Neither report enabled a counter group: no prefetch rows at all.
  const ReportDiff plain = before_after();
  for (const MetricDiff& m : plain.overall) {
    EXPECT_EQ(m.metric.rfind("prefetch_", 0), std::string::npos) << m.metric;
  }
  // Only B's run enabled the prefetch group: its metrics are listed after A's, empty on A's side.
  nlohmann::ordered_json b = nlohmann::ordered_json::parse(read("diff_after.json"));
  nlohmann::ordered_json accuracy = b["overall"]["l1_read_hit_ratio"];
  accuracy["mean"] = 0.75;
  b["overall"]["prefetch_accuracy"] = accuracy;
  const ReportDiff d = diff_reports(read("diff_before.json"), "a.json", b.dump(), "b.json");
  EXPECT_EQ(d.overall.size(), plain.overall.size() + 1);
  const MetricDiff& prefetch = metric(d.overall, "prefetch_accuracy");
  EXPECT_FALSE(prefetch.a.has_value());
  ASSERT_TRUE(prefetch.b.has_value());
  EXPECT_DOUBLE_EQ(prefetch.b->mean, 0.75);
  EXPECT_FALSE(prefetch.change.has_value());
  EXPECT_EQ(d.overall.back().metric, "prefetch_accuracy");
}

TEST(DiffReading, AMetricAReportLacksIsAbsentOnItsSideSoOlderReportsStillCompare) {
  // A report written before the metric table had a line (here: as if l2_read_hit_ratio were
  // newer than B's producer) is read with that metric empty, in its place in the list.
  nlohmann::ordered_json b = nlohmann::ordered_json::parse(read("diff_after.json"));
  b["overall"].erase("l2_read_hit_ratio");
  const ReportDiff d = diff_reports(read("diff_before.json"), "a.json", b.dump(), "b.json");
  const ReportDiff plain = before_after();
  ASSERT_EQ(d.overall.size(), plain.overall.size());
  for (std::size_t i = 0; i < d.overall.size(); ++i) {
    EXPECT_EQ(d.overall[i].metric, plain.overall[i].metric);
  }
  const MetricDiff& read_ratio = metric(d.overall, "l2_read_hit_ratio");
  EXPECT_TRUE(read_ratio.a.has_value());
  EXPECT_FALSE(read_ratio.b.has_value());
  EXPECT_FALSE(read_ratio.change.has_value());
}

TEST(DiffMalformedInput, NamesTheFileAndTheKey) {
  const auto message = [](const std::string& json) {
    try {
      diff_reports(read("diff_before.json"), "a.json", json, "b.json");
    } catch (const DiffInputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  nlohmann::json b = nlohmann::json::parse(read("diff_after.json"));
  b["loads"][1].erase("kind");
  EXPECT_EQ(message(b.dump()), "b.json: loads[1].kind: missing");
  b = nlohmann::json::parse(read("diff_after.json"));
  b["overall"]["l2_read_hit_ratio"]["stddev"] = "wide";
  EXPECT_EQ(message(b.dump()),
            "b.json: overall.l2_read_hit_ratio.stddev: expected a number, found \"wide\"");
  b = nlohmann::json::parse(read("diff_after.json"));
  b["schema_version"] = 2;
  EXPECT_EQ(message(b.dump()), "b.json: schema_version: is 2; this memcarlo reads report schema 1");
  EXPECT_NE(message("{\"schema_version\": 1,").find("b.json: not a JSON report"),
            std::string::npos);
  b = nlohmann::json::parse(read("diff_after.json"));
  b["inputs"]["hierarchy"].erase("name");
  EXPECT_EQ(message(b.dump()), "b.json: inputs.hierarchy.name: missing");
}

}  // namespace
}  // namespace memcarlo::reports
