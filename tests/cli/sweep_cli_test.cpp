// `memcarlo sweep`: the point lists of --vary, --zip and --points, points on another preset
// (`base`), exact zero differences for a point equal to the baseline, paired intervals narrower
// than unpaired ones under common random numbers, every metric paired, the terminal table's
// columns by the varied keys, errors that name the point and the key, thread-count independence
// and the compile cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "cli_fixtures.hpp"
#include "memcarlo/analysis/mean_difference.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::memcarlo;
using memcarlo::test_support::read_json_file;
using memcarlo::test_support::scratch_dir;
using memcarlo::test_support::without_performance;
using nlohmann::json;

/// A synthetic trace written once per test process.
std::string synth_trace(const std::string& name, const std::string& arguments) {
  const fs::path path = scratch_dir() / name;
  if (!fs::exists(path)) {
    const auto r = memcarlo("synth " + arguments + " -o " + path.string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
  }
  return path.string();
}

std::string reuse_trace() {
  return synth_trace("sweep-reuse.mct", "--pattern reuse --blocks 16 --threads 128");
}

std::string spmv_trace() {
  return synth_trace("sweep-spmv.mct", "--pattern spmv --blocks 28 --threads 128");
}

std::string chain_trace() {
  return synth_trace("sweep-chain.mct", "--pattern chain --blocks 16");
}

json sweep(const std::string& arguments, const std::string& report_name) {
  const fs::path report = scratch_dir() / report_name;
  const auto r = memcarlo("sweep " + arguments + " -q -o " + report.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return read_json_file(report);
}

std::vector<json> parameter_list(const json& report) {
  std::vector<json> out;
  for (const json& point : report.at("points")) {
    out.push_back(point.at("parameters"));
  }
  return out;
}

double half_width(const json& interval) {
  return (interval.at(1).get<double>() - interval.at(0).get<double>()) / 2;
}

TEST(SweepPoints, VaryGivesTheCartesianProductLastListFastest) {
  const json report = sweep(reuse_trace() +
                                " -n 2 --vary l1.replacement=lru,fifo --vary "
                                "l2.replacement=lru,fifo,random",
                            "cartesian.json");
  EXPECT_EQ(report.at("schema"), "memcarlo-sweep");
  EXPECT_EQ(report.at("inputs").at("mode"), "cartesian");
  EXPECT_EQ(report.at("inputs").at("varied_keys"),
            json::parse(R"(["l1.replacement", "l2.replacement"])"));
  const std::vector<json> expected = {{{"l1.replacement", "lru"}, {"l2.replacement", "lru"}},
                                      {{"l1.replacement", "lru"}, {"l2.replacement", "fifo"}},
                                      {{"l1.replacement", "lru"}, {"l2.replacement", "random"}},
                                      {{"l1.replacement", "fifo"}, {"l2.replacement", "lru"}},
                                      {{"l1.replacement", "fifo"}, {"l2.replacement", "fifo"}},
                                      {{"l1.replacement", "fifo"}, {"l2.replacement", "random"}}};
  EXPECT_EQ(parameter_list(report), expected);
}

TEST(SweepPoints, ZipPairsTheListsAndPointsFileListsThemExplicitly) {
  const json zipped = sweep(reuse_trace() +
                                " -n 2 --zip --vary l1.replacement=lru,fifo --vary "
                                "l1.size=16KiB,48KiB",
                            "zip.json");
  const std::vector<json> expected = {{{"l1.replacement", "lru"}, {"l1.size", "16KiB"}},
                                      {{"l1.replacement", "fifo"}, {"l1.size", "48KiB"}}};
  EXPECT_EQ(zipped.at("inputs").at("mode"), "zip");
  EXPECT_EQ(parameter_list(zipped), expected);

  const fs::path points = scratch_dir() / "points.json";
  std::ofstream(points) << R"([{"l1.replacement": "lru", "l1.size": "16KiB"},
                              {"l1.replacement": "fifo", "l1.size": 49152}])";
  const json listed = sweep(reuse_trace() + " -n 2 --points " + points.string(), "points.json.out");
  EXPECT_EQ(listed.at("inputs").at("mode"), "points");
  const std::vector<json> expected_listed = {{{"l1.replacement", "lru"}, {"l1.size", "16KiB"}},
                                             {{"l1.replacement", "fifo"}, {"l1.size", "49152"}}};
  EXPECT_EQ(parameter_list(listed), expected_listed);
  // 48KiB and 49152 are the same setting: the zipped and the listed sweep agree.
  EXPECT_EQ(zipped.at("points").at(1).at("overall"), listed.at("points").at(1).at("overall"));
}

TEST(SweepDifference, AKeySetToTheValueItHasDiffersByExactlyZero) {
  // fermi-c2050's L1 is 16 KiB with LRU replacement.
  const json report = sweep(
      spmv_trace() + " -n 6 --vary l1.size=16KiB,16384 --vary l1.replacement=lru", "zero.json");
  ASSERT_EQ(report.at("points").size(), 2u);
  const json& point = report.at("points").at(1);
  EXPECT_EQ(point.at("overall"), report.at("points").at(0).at("overall"));
  const json& difference = point.at("difference");
  ASSERT_FALSE(difference.at("overall").empty());
  for (const auto& [metric, value] : difference.at("overall").items()) {
    if (value.is_null()) {
      continue;  // undefined in every trial (no L2 writes)
    }
    EXPECT_EQ(value.at("mean"), 0.0) << metric;
    EXPECT_EQ(value.at("ci95"), json::parse("[0.0, 0.0]")) << metric;
    EXPECT_EQ(value.at("pairs"), 6) << metric;
  }
  ASSERT_FALSE(difference.at("loads").empty());
  std::size_t compared = 0;
  for (const json& load : difference.at("loads")) {
    for (const auto& [metric, value] : load.items()) {
      if (metric == "id" || value.is_null()) {
        continue;
      }
      EXPECT_EQ(value.at("mean"), 0.0) << "load " << load.at("id") << " " << metric;
      EXPECT_EQ(value.at("ci95"), json::parse("[0.0, 0.0]")) << metric;
      ++compared;
    }
  }
  EXPECT_GT(compared, 3u);
}

TEST(SweepDifference, PairedIntervalIsNarrowerThanWelchAndHasTheRightSign) {
  // A larger L1 keeps more of the x vector: more L1 hits, and the L2 sees fewer of its hits.
  const json report = sweep(spmv_trace() + " -n 16 --vary l1.size=16KiB,48KiB", "paired.json");
  const json& base = report.at("points").at(0).at("overall");
  const json& big = report.at("points").at(1).at("overall");
  const json& difference = report.at("points").at(1).at("difference").at("overall");
  for (const std::string metric : {"l1_read_hit_ratio", "l2_read_hit_ratio"}) {
    const memcarlo::analysis::MeanDifference welch = memcarlo::analysis::welch_test(
        {base.at(metric).at("mean"), base.at(metric).at("stddev"), base.at(metric).at("trials")},
        {big.at(metric).at("mean"), big.at(metric).at("stddev"), big.at(metric).at("trials")});
    ASSERT_TRUE(welch.interval) << metric;
    const double unpaired = ((*welch.interval)[1] - (*welch.interval)[0]) / 2;
    const double paired = half_width(difference.at(metric).at("ci95"));
    EXPECT_LT(paired, unpaired) << metric;
    EXPECT_NEAR(difference.at(metric).at("mean").get<double>(), welch.difference, 1e-12) << metric;
  }
  EXPECT_GT(difference.at("l1_read_hit_ratio").at("ci95").at(0).get<double>(), 0.0);
  EXPECT_LT(difference.at("l2_read_hit_ratio").at("ci95").at(1).get<double>(), 0.0);
}

TEST(SweepDifference, EachPointIsSummarisedExactlyLikeSimulateWithItsSettings) {
  const json report =
      sweep(spmv_trace() + " -n 4 --vary l1.size=16KiB,48KiB --vary l2.replacement=lru,random",
            "like-simulate.json");
  const fs::path simulated = scratch_dir() / "like-simulate-point3.json";
  const auto r =
      memcarlo("simulate " + spmv_trace() +
               " -n 4 -q --set l1.size=48KiB --set l2.replacement=random -o " + simulated.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json single = read_json_file(simulated);
  const json& point = report.at("points").at(3);
  EXPECT_EQ(point.at("overall"), single.at("overall"));
  EXPECT_EQ(point.at("loads"), single.at("loads"));
  // Latency histograms included: the series' pooled counts give simulate's histogram.
  ASSERT_TRUE(point.at("loads").at(0).contains("latency_histogram"));
  EXPECT_EQ(point.at("loads").at(0).at("latency_histogram").at("trials"), 4);
}

TEST(SweepDifference, WithUntilCiThePairsAreTheTrialsBothPointsRan) {
  // Without an L1 the run converges in fewer trials than the baseline needs.
  const json report =
      sweep(spmv_trace() + " -n 2 --until-ci 0.03 --max-trials 40 --vary l1.enabled=true,false",
            "until-ci.json");
  const json& points = report.at("points");
  const auto baseline_trials = points.at(0).at("trials").get<std::uint64_t>();
  const auto point_trials = points.at(1).at("trials").get<std::uint64_t>();
  ASSERT_NE(baseline_trials, point_trials);
  EXPECT_EQ(points.at(1).at("difference").at("overall").at("l2_read_hit_ratio").at("pairs"),
            std::min(baseline_trials, point_trials));
  EXPECT_TRUE(points.at(0).at("converged").get<bool>());
  EXPECT_TRUE(points.at(1).at("converged").get<bool>());
}

TEST(SweepBase, APointOnAnotherPresetIsThatPresetsSimulateRun) {
  // fermi-c2050 has 14 SMs, v100 80: each point compiles for its own geometry, and each is the
  // simulate run of its preset with the same seed and trials.
  const json report =
      sweep(spmv_trace() + " -n 3 -H fermi-c2050 --vary base=fermi-c2050,v100", "base.json");
  ASSERT_EQ(report.at("points").size(), 2u);
  EXPECT_EQ(report.at("points").at(1).at("parameters"), json::parse(R"({"base": "v100"})"));
  EXPECT_EQ(report.at("performance").at("compiles"), 2);
  for (const auto& [index, preset] : {std::pair<int, std::string>{0, "fermi-c2050"}, {1, "v100"}}) {
    const fs::path simulated = scratch_dir() / ("base-" + preset + ".json");
    const auto r = memcarlo("simulate " + spmv_trace() + " -n 3 -q -H " + preset + " -o " +
                            simulated.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const json& point = report.at("points").at(index);
    EXPECT_EQ(point.at("overall"), read_json_file(simulated).at("overall")) << preset;
    EXPECT_EQ(point.at("loads"), read_json_file(simulated).at("loads")) << preset;
  }
  // The v100 point is paired with the baseline trial by trial: 3 pairs.
  EXPECT_EQ(
      report.at("points").at(1).at("difference").at("overall").at("l1_read_hit_ratio").at("pairs"),
      3);

  // The same from a points file, with another key beside it; the sweep's --set applies too.
  const fs::path points = scratch_dir() / "base-points.json";
  std::ofstream(points)
      << R"([{"base": "fermi-c2050"}, {"base": "v100", "l1.replacement": "fifo"}])";
  const json from_file =
      sweep(spmv_trace() + " -n 2 --points " + points.string(), "base-file.json");
  const fs::path simulated = scratch_dir() / "base-v100-fifo.json";
  ASSERT_EQ(memcarlo("simulate " + spmv_trace() + " -n 2 -q -H v100 --set l1.replacement=fifo -o " +
                     simulated.string())
                .exit_code,
            0);
  EXPECT_EQ(from_file.at("points").at(1).at("overall"), read_json_file(simulated).at("overall"));

  const auto unknown =
      memcarlo("sweep " + spmv_trace() + " -q -n 2 -o /dev/null --vary base=v100,nosuch");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("point 1 (base=nosuch)"), std::string::npos) << unknown.output;
}

TEST(SweepDifference, EveryMetricTheReportGivesIsPaired) {
  // A 4-module GPU: the numa group's metrics (access efficiency, link bytes, crossing latency,
  // module shares) and the overall X are paired like the hit ratios; with every trial defining
  // both sides, the mean of the differences is the difference of the means.
  const json report =
      sweep(spmv_trace() + " -n 4 -H ldesc-numa-4 --vary placement.policy=interleaved,first-touch",
            "every-metric.json");
  const json& base = report.at("points").at(0).at("overall");
  const json& point = report.at("points").at(1).at("overall");
  const json& difference = report.at("points").at(1).at("difference").at("overall");
  for (const std::string metric :
       {"numa_access_efficiency", "numa_link_bytes", "numa_crossing_latency_cycles",
        "numa_module_0_share", "numa_remote_accesses", "latency_cycles", "l1_read_hit_ratio"}) {
    ASSERT_TRUE(difference.contains(metric)) << metric;
  }
  std::size_t checked = 0;
  for (const auto& [metric, distribution] : point.items()) {
    ASSERT_TRUE(difference.contains(metric)) << metric << " is reported but not paired";
    if (distribution.is_null() || base.at(metric).is_null() || distribution.at("trials") != 4 ||
        base.at(metric).at("trials") != 4) {
      continue;
    }
    EXPECT_NEAR(difference.at(metric).at("mean").get<double>(),
                distribution.at("mean").get<double>() - base.at(metric).at("mean").get<double>(),
                1e-9 * std::max(1.0, std::abs(distribution.at("mean").get<double>())))
        << metric;
    ++checked;
  }
  EXPECT_GT(checked, 15u);
  // Per load too: every metric of a load is paired.
  const json& load = report.at("points").at(1).at("loads").at(0);
  const json& load_difference = report.at("points").at(1).at("difference").at("loads").at(0);
  ASSERT_EQ(load_difference.at("id"), load.at("id"));
  for (const std::string metric : {"numa_access_efficiency", "latency_cycles", "l1_hit_ratio"}) {
    EXPECT_TRUE(load_difference.contains(metric)) << metric;
  }
}

TEST(SweepDifference, APrefetcherIsPairedWithNoneWhoseCoverageIsZero) {
  const json report =
      sweep(chain_trace() + " -n 3 --vary prefetch.policy=none,mta", "prefetch.json");
  const json& point = report.at("points").at(1);
  const json& coverage = point.at("difference").at("overall").at("prefetch_coverage");
  ASSERT_TRUE(coverage.is_object()) << point.at("difference").dump();
  // none covers nothing: the change is the prefetcher's own coverage, trial by trial.
  EXPECT_NEAR(coverage.at("mean").get<double>(),
              point.at("overall").at("prefetch_coverage").at("mean").get<double>(), 1e-12);
  EXPECT_GT(coverage.at("mean").get<double>(), 0.0);
  // Accuracy is useful / issued, 0 / 0 without a prefetcher: no pair.
  EXPECT_TRUE(point.at("difference").at("overall").at("prefetch_accuracy").is_null());
  // The baseline's own summary still has no prefetch metric.
  EXPECT_FALSE(report.at("points").at(0).at("overall").contains("prefetch_coverage"));
}

TEST(SweepTable, ShowsTheMetricsTheVariedKeysActOn) {
  const auto table = [](const std::string& arguments) {
    const fs::path report = scratch_dir() / "table.json";
    const auto r = memcarlo("sweep " + arguments + " -o " + report.string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const std::size_t header = r.output.find("  parameters");
    EXPECT_NE(header, std::string::npos) << r.output;
    const std::size_t start = r.output.rfind('\n', header);
    const std::size_t begin = start == std::string::npos ? 0 : start + 1;
    return r.output.substr(begin, r.output.find('\n', header) - begin);  // the header line
  };
  const std::string placement =
      table(spmv_trace() + " -n 2 -H ldesc-numa-4 --vary placement.policy=interleaved,first-touch");
  for (const char* column : {"Δ local", "Δ crossing", "Δ link bytes", "Δ latency"}) {
    EXPECT_NE(placement.find(column), std::string::npos) << column << " in " << placement;
  }
  EXPECT_EQ(placement.find("L2 read hit"), std::string::npos) << placement;
  const std::string prefetch = table(chain_trace() + " -n 2 --vary prefetch.policy=none,mta");
  for (const char* column : {"Δ prefetch coverage", "Δ prefetch accuracy", "Δ L1 read hit"}) {
    EXPECT_NE(prefetch.find(column), std::string::npos) << column << " in " << prefetch;
  }
  // A key with no family of its own: the hit ratios and Tm.
  const std::string other = table(reuse_trace() + " -n 2 --vary base=fermi-c2050,gtx480");
  for (const char* column : {"Δ L1 read hit", "Δ L2 read hit", "Δ DRAM latency"}) {
    EXPECT_NE(other.find(column), std::string::npos) << column << " in " << other;
  }
}

TEST(SweepErrors, BadKeyValueZipLengthsAndPointsFileAreNamed) {
  const std::string trace = reuse_trace();
  const auto bad_key = memcarlo("sweep " + trace + " -q -n 2 -o /dev/null --vary l1.sise=1,2");
  EXPECT_EQ(bad_key.exit_code, 2) << bad_key.output;
  EXPECT_NE(bad_key.output.find("point 0 (l1.sise=1)"), std::string::npos) << bad_key.output;
  EXPECT_NE(bad_key.output.find("l1.sise"), std::string::npos) << bad_key.output;

  const auto bad_value =
      memcarlo("sweep " + trace + " -q -n 2 -o /dev/null --vary l1.replacement=lru,mru");
  EXPECT_EQ(bad_value.exit_code, 2) << bad_value.output;
  EXPECT_NE(bad_value.output.find("point 1 (l1.replacement=mru)"), std::string::npos)
      << bad_value.output;

  const auto zip = memcarlo("sweep " + trace +
                            " -q -n 2 -o /dev/null --zip --vary l1.size=16KiB,48KiB --vary "
                            "l1.replacement=lru,fifo,random");
  EXPECT_EQ(zip.exit_code, 2) << zip.output;
  EXPECT_NE(zip.output.find("--vary l1.size has 2 values, --vary l1.replacement has 3"),
            std::string::npos)
      << zip.output;

  const auto unreadable =
      memcarlo("sweep " + trace + " -q -n 2 -o /dev/null --points /nonexistent/points.json");
  EXPECT_EQ(unreadable.exit_code, 2) << unreadable.output;
  EXPECT_NE(unreadable.output.find("--points /nonexistent/points.json: cannot read"),
            std::string::npos)
      << unreadable.output;

  const auto neither = memcarlo("sweep " + trace + " -q -n 2 -o /dev/null");
  EXPECT_EQ(neither.exit_code, 2) << neither.output;
}


TEST(SweepDeterminism, OneAndTwoThreadsGiveTheSameReport) {
  const std::string arguments = spmv_trace() +
                                " -n 6 --vary l1.size=16KiB,48KiB --vary "
                                "l1.replacement=lru,random";
  const json one = sweep(arguments + " -j1", "j1.json");
  const json two = sweep(arguments + " -j2", "j2.json");
  EXPECT_EQ(without_performance(one), without_performance(two));
}

TEST(SweepResume, StoredPointsAreReusedAndTheReportIsTheSame) {
  const fs::path report = scratch_dir() / "resume.json";
  const fs::path stored = scratch_dir() / "resume.json.points";
  fs::remove_all(stored);
  const std::string arguments = "sweep " + spmv_trace() +
                                " -q -n 4 --vary l1.size=16KiB,48KiB --vary "
                                "l1.replacement=lru,random --resume -o " +
                                report.string();
  const auto first = memcarlo(arguments);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const json full = read_json_file(report);
  EXPECT_EQ(full.at("performance").at("resumed_points"), 0);
  ASSERT_TRUE(fs::exists(stored / "point-3.json"));
  fs::remove(stored / "point-2.json");  // as if the sweep had been killed during point 2

  const auto second = memcarlo(arguments);
  ASSERT_EQ(second.exit_code, 0) << second.output;
  const json resumed = read_json_file(report);
  EXPECT_EQ(resumed.at("performance").at("resumed_points"), 3);
  EXPECT_TRUE(fs::exists(stored / "point-2.json"));
  EXPECT_EQ(without_performance(resumed), without_performance(full));
  // The resumed points' latency histograms came back from the store.
  for (const json& point : resumed.at("points")) {
    for (const json& load : point.at("loads")) {
      if (load.at("kind") == "read") {
        EXPECT_GT(load.at("latency_histogram").at("accesses").get<std::uint64_t>(), 0u);
      } else {
        EXPECT_FALSE(load.contains("latency_histogram"));  // a store's accesses have none
      }
    }
  }

  // Other trials: no stored point fits, every one runs again.
  const auto other = memcarlo("sweep " + spmv_trace() +
                              " -q -n 3 --vary l1.size=16KiB,48KiB --vary "
                              "l1.replacement=lru,random --resume -o " +
                              report.string());
  ASSERT_EQ(other.exit_code, 0) << other.output;
  EXPECT_EQ(read_json_file(report).at("performance").at("resumed_points"), 0);
}

TEST(SweepCompileCache, PointsOfOneGeometryShareOneCompile) {
  const json replacement =
      sweep(reuse_trace() + " -n 2 --vary l1.replacement=lru,fifo,random", "cache1.json");
  EXPECT_EQ(replacement.at("performance").at("compiles"), 1);
  const json sizes = sweep(reuse_trace() +
                               " -n 2 --vary l1.size=16KiB,48KiB --vary "
                               "l1.replacement=lru,fifo",
                           "cache2.json");
  EXPECT_EQ(sizes.at("performance").at("compiles"), 2);
}

TEST(SweepOutputs, CsvHasOneRowPerPointScopeAndMetric) {
  const fs::path csv = scratch_dir() / "sweep.csv";
  const auto r =
      memcarlo("sweep " + reuse_trace() + " -q -n 2 -o " + (scratch_dir() / "csv.json").string() +
               " --vary l1.replacement=lru,fifo --csv " + csv.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json report = read_json_file(scratch_dir() / "csv.json");
  std::size_t expected = 1;  // the header
  for (const json& point : report.at("points")) {
    expected += point.at("difference").at("overall").size();
    for (const json& load : point.at("difference").at("loads")) {
      expected += load.size() - 1;  // less the id
    }
  }
  std::ifstream in(csv);
  std::size_t rows = 0;
  for (std::string line; std::getline(in, line);) {
    ++rows;
  }
  EXPECT_EQ(rows, expected);
}

}  // namespace
