// The study report's statistics on known answers: the arithmetic and geometric averages over
// programs with their Student-t intervals (worked by hand), and study_json's reading of the
// programs' sweep reports (baseline not first, a failed program, a latency's ratio).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "memcarlo/reports/study_report.hpp"

namespace {

using memcarlo::reports::arithmetic_average;
using memcarlo::reports::geometric_average;
using nlohmann::json;

TEST(StudyAverage, ArithmeticMeanWithStudentTIntervalOverPrograms) {
  const std::vector<double> values = {1, 2, 3, 4};
  const auto average = arithmetic_average(values);
  ASSERT_TRUE(average);
  EXPECT_DOUBLE_EQ(average->mean, 2.5);
  EXPECT_EQ(average->programs, 4u);
  // s = sqrt(5/3) = 1.2910, t_{0.975,3} = 3.18245: half-width 3.18245 * 1.2910 / 2 = 2.0543.
  ASSERT_TRUE(average->ci95);
  EXPECT_NEAR((*average->ci95)[0], 2.5 - 2.05426, 1e-4);
  EXPECT_NEAR((*average->ci95)[1], 2.5 + 2.05426, 1e-4);
  EXPECT_NE(average->method.find("arithmetic"), std::string::npos);
}

TEST(StudyAverage, GeometricMeanIsTheExponentOfTheMeanLogarithm) {
  const std::vector<double> values = {1, 4, 16};
  const auto average = geometric_average(values);
  ASSERT_TRUE(average);
  EXPECT_NEAR(average->mean, 4.0, 1e-12);
  // ln values 0, ln 4, 2 ln 4: mean ln 4, s = ln 4, t_{0.975,2} = 4.30265.
  const double half = 4.30265 * std::log(4.0) / std::sqrt(3.0);
  ASSERT_TRUE(average->ci95);
  EXPECT_NEAR((*average->ci95)[0], std::exp(std::log(4.0) - half), 1e-3);
  EXPECT_NEAR((*average->ci95)[1], std::exp(std::log(4.0) + half), 1e-1);
  EXPECT_NE(average->method.find("geometric"), std::string::npos);
}

TEST(StudyAverage, UndefinedWithoutValuesOrForANonPositiveValueAndNoIntervalForOne) {
  EXPECT_FALSE(arithmetic_average({}));
  const std::vector<double> with_zero = {2, 0};
  EXPECT_FALSE(geometric_average(with_zero));
  const std::vector<double> one = {3};
  const auto single = arithmetic_average(one);
  ASSERT_TRUE(single);
  EXPECT_FALSE(single->ci95);
}

/// A sweep report of two points (the sweep's order: baseline first) with one hit ratio and one
/// latency each, and their differences from the sweep's point 0.
json sweep(double hit0, double hit1, double x0, double x1) {
  const auto point = [&](double hit, double x) {
    return json{{"overall",
                 {{"l1_read_hit_ratio", {{"mean", hit}, {"ci95", {hit - 0.01, hit + 0.01}}}},
                  {"latency_cycles", {{"mean", x}, {"ci95", {x - 1, x + 1}}}}}},
                {"difference",
                 {{"overall",
                   {{"l1_read_hit_ratio",
                     {{"mean", hit - hit0},
                      {"ci95", {hit - hit0 - 0.001, hit - hit0 + 0.001}},
                      {"pairs", 8}}},
                    {"latency_cycles",
                     {{"mean", x - x0}, {"ci95", {x - x0 - 2, x - x0 + 2}}, {"pairs", 8}}}}}}}};
  };
  return {{"inputs", {{"trace_sha256", "00"}}}, {"points", {point(hit0, x0), point(hit1, x1)}}};
}

TEST(StudyReport, BaselineNotFirstFailedProgramsAndLatencyRatios) {
  memcarlo::reports::StudyInputs inputs;
  inputs.name = "known";
  inputs.metrics = {"l1_read_hit_ratio", "latency_cycles"};
  inputs.points = {{"prefetch", "v100", {{"prefetch.policy", "snake"}}}, {"none", "v100", {}}};
  inputs.baseline = 1;  // the sweeps run "none" first
  inputs.trials = 8;
  std::vector<memcarlo::reports::StudyProgram> programs(3);
  programs[0].name = "p";
  programs[0].sweep = sweep(0.2, 0.5, 400, 200);
  programs[1].name = "q";
  programs[1].sweep = sweep(0.4, 0.6, 100, 200);
  programs[2].name = "broken";
  programs[2].failed_stage = "build";
  programs[2].reason = "does not compile";
  const auto study = memcarlo::reports::study_json(inputs, programs, json::object());
  EXPECT_EQ(study["study"]["baseline"], "none");
  // The study's point 0 ("prefetch") is the sweeps' point 1.
  EXPECT_DOUBLE_EQ(study["programs"][0]["results"]["prefetch"]["l1_read_hit_ratio"]["mean"], 0.5);
  EXPECT_DOUBLE_EQ(study["programs"][0]["results"]["none"]["l1_read_hit_ratio"]["mean"], 0.2);
  EXPECT_DOUBLE_EQ(study["programs"][0]["results"]["prefetch"]["latency_cycles"]["ratio"]["mean"],
                   0.5);
  // Averages: hit ratio (0.5 + 0.6) / 2, its difference (0.3 + 0.2) / 2; latency sqrt(200 * 200),
  // its ratio sqrt(0.5 * 2) = 1.
  const auto& average = study["average"]["prefetch"];
  EXPECT_NEAR(average["l1_read_hit_ratio"]["mean"].get<double>(), 0.55, 1e-12);
  EXPECT_NEAR(average["l1_read_hit_ratio"]["difference"]["mean"].get<double>(), 0.25, 1e-12);
  EXPECT_EQ(average["l1_read_hit_ratio"]["programs"], 2);
  EXPECT_NEAR(average["latency_cycles"]["mean"].get<double>(), 200, 1e-9);
  EXPECT_NEAR(average["latency_cycles"]["ratio"]["mean"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(study["average"]["none"]["latency_cycles"]["mean"].get<double>(), 200, 1e-9);
  ASSERT_EQ(study["failures"].size(), 1u);
  EXPECT_EQ(study["failures"][0]["program"], "broken");
  EXPECT_EQ(study["failures"][0]["stage"], "build");
  EXPECT_EQ(study["programs"][2]["status"], "failed");
}

}  // namespace
