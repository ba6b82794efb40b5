// Accel-Sim's standard output as the measurements of `memcarlo validate` (scripts/
// validate-accelsim.sh): cumulative cache statistics turned into per-launch hit rates, both the
// in-flight-inclusive one and Accel-Sim's own HIT-only one, worked out by hand below.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "memcarlo/reports/validation.hpp"

namespace {

namespace reports = memcarlo::reports;
using reports::CompareInputError;

constexpr std::size_t kL1 = 0;
constexpr std::size_t kL2Read = 1;
constexpr std::size_t kL2Write = 2;

const std::string kData = std::string(MEMCARLO_SOURCE_DIR) + "/tests/reports/data/";

/// One statistics block as Accel-Sim prints it when a kernel finishes (only the lines read).
std::string block(const std::string& kernel, const std::string& l1, const std::string& l2) {
  return "kernel_name = " + kernel + " \nkernel_launch_uid = 1 \ngpu_sim_cycle = 10\n" + l1 +
         "L2_total_cache_breakdown:\n" + l2;
}

std::string counts(const std::string& cache, const std::string& type, int hit, int reserved,
                   int miss, int sector_miss) {
  const std::string at = "\t" + cache + "[" + type + "][";
  return at + "HIT] = " + std::to_string(hit) + "\n" + at +
         "HIT_RESERVED] = " + std::to_string(reserved) + "\n" + at +
         "MISS] = " + std::to_string(miss) + "\n" + at + "RESERVATION_FAIL] = 99\n" + at +
         "SECTOR_MISS] = " + std::to_string(sector_miss) + "\n" + at + "MSHR_HIT] = 7\n";
}

reports::NcuMeasurements parse(const std::string& text) {
  std::istringstream in(text);
  return reports::parse_accelsim_stats(in, "accel-sim.out");
}

// Launch 1: L1 reads 30 HIT, 10 HIT_RESERVED, 40 MISS, 20 SECTOR_MISS and stores 20 MISS:
// (30 + 10) / 120 = 1/3 in flight included, 30 / 120 = 1/4 HIT only (RESERVATION_FAIL and MSHR_HIT,
// which SECTOR_MISS already counts, are not lookups). L2 reads 50 / 100; L2 writes 8 / 10.
// Launch 2 (the counts add up): L1 +60 HIT, +20 MISS, +20 SECTOR_MISS: 60 / 100 both ways; L2
// reads +30 HIT, +10 HIT_RESERVED, +10 MISS, +50 SECTOR_MISS: 40 / 100 and 30 / 100; no L2 write.
TEST(AccelsimStats, CumulativeCountsBecomePerLaunchHitRates) {
  const std::string l1 = "Total_core_cache_stats_breakdown";
  const std::string l2 = "L2_cache_stats_breakdown";
  const auto m = parse(
      "Accel-Sim [build x]\n" +
      block("_Z4stepPf",
            counts(l1, "GLOBAL_ACC_R", 30, 10, 40, 20) + counts(l1, "GLOBAL_ACC_W", 0, 0, 20, 0) +
                counts(l1, "INST_ACC_R", 900, 0, 1, 0),
            counts(l2, "GLOBAL_ACC_R", 50, 0, 25, 25) + counts(l2, "GLOBAL_ACC_W", 8, 0, 2, 0) +
                counts(l2, "L1_WR_ALLOC_R", 0, 0, 40, 0)) +
      block("_Z4stepPf",
            counts(l1, "GLOBAL_ACC_R", 90, 10, 60, 40) + counts(l1, "GLOBAL_ACC_W", 0, 0, 20, 0) +
                counts(l1, "INST_ACC_R", 1900, 0, 1, 0),
            counts(l2, "GLOBAL_ACC_R", 80, 10, 35, 75) + counts(l2, "GLOBAL_ACC_W", 8, 0, 2, 0) +
                counts(l2, "L1_WR_ALLOC_R", 0, 0, 80, 0)));
  EXPECT_EQ(m.layout, reports::NcuCsvLayout::kAccelsim);
  ASSERT_EQ(m.kernels.size(), 1u);
  const auto& k = m.kernels[0];
  EXPECT_EQ(k.name, "_Z4stepPf");
  EXPECT_EQ(k.launches, 2u);
  ASSERT_EQ(k.percent[kL1].size(), 2u);
  EXPECT_NEAR(k.percent[kL1][0], 100.0 / 3.0, 1e-9);
  EXPECT_NEAR(k.hit_only_percent[kL1][0], 25.0, 1e-9);
  EXPECT_NEAR(k.percent[kL1][1], 60.0, 1e-9);
  EXPECT_NEAR(k.hit_only_percent[kL1][1], 60.0, 1e-9);
  ASSERT_EQ(k.percent[kL2Read].size(), 2u);
  EXPECT_NEAR(k.percent[kL2Read][0], 50.0, 1e-9);
  EXPECT_NEAR(k.percent[kL2Read][1], 40.0, 1e-9);
  EXPECT_NEAR(k.hit_only_percent[kL2Read][1], 30.0, 1e-9);
  ASSERT_EQ(k.percent[kL2Write].size(), 1u);  // the second launch wrote nothing
  EXPECT_NEAR(k.percent[kL2Write][0], 80.0, 1e-9);
}

TEST(AccelsimStats, CountsThatGoDownWereResetAndAreTakenAsTheyAre) {
  const std::string l2 = "L2_cache_stats_breakdown";
  const auto m = parse(block("a", "", counts(l2, "GLOBAL_ACC_R", 50, 0, 50, 0)) +
                       block("b", "", counts(l2, "GLOBAL_ACC_R", 9, 0, 1, 0)));
  ASSERT_EQ(m.kernels.size(), 2u);
  EXPECT_NEAR(m.kernels[1].percent[kL2Read].at(0), 90.0, 1e-9);
  EXPECT_TRUE(m.kernels[1].percent[kL1].empty());  // no L1 statistics printed
}

TEST(AccelsimStats, MalformedInputNamesTheLine) {
  try {
    parse(block("a", "", "\tL2_cache_stats_breakdown[GLOBAL_ACC_R][HIT] = many\n"));
    FAIL() << "accepted a count that is no number";
  } catch (const CompareInputError& e) {
    EXPECT_NE(std::string(e.what()).find("accel-sim.out:5: expected a count after '='"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse("\tL2_cache_stats_breakdown[GLOBAL_ACC_R][HIT] = 1\n"), CompareInputError);
  EXPECT_THROW(parse("kernel_name = a\ngpu_sim_cycle = 10\n"), CompareInputError);
}

// The recorded stencil case measured by Accel-Sim instead of Nsight Compute
// (validate_stencil_accelsim.out, two launches of stencil_step): L1 (70 + 72) / 2 = 71 % against
// the prediction 0.70 ± 0.06, HIT only (60 + 70) / 2 = 65 %; L2 reads (81 + 82) / 2 = 81.5 %
// against 0.81 ± 0.02, HIT only 80 %; L2 writes (95 + 93) / 2 = 94 %.
TEST(AccelsimStats, ValidateReadsAccelSimOutputInPlaceOfNsightCompute) {
  const reports::Validation v =
      reports::run_validation("Accel-Sim SM7_QV100",
                              {{"stencil2d", kData + "validate_stencil_report.json",
                                kData + "validate_stencil_accelsim.out", std::nullopt}},
                              {});
  ASSERT_EQ(v.rows.size(), 3u);
  EXPECT_EQ(v.cases[0].comparison.layout, reports::NcuCsvLayout::kAccelsim);
  EXPECT_NEAR(*v.rows[kL1].comparison.measured, 0.71, 1e-9);
  EXPECT_NEAR(*v.rows[kL1].comparison.measured_hit_only, 0.65, 1e-9);
  EXPECT_NEAR(*v.rows[kL1].comparison.absolute_error, 0.01, 1e-9);
  EXPECT_NEAR(*v.rows[kL2Read].comparison.measured, 0.815, 1e-9);
  EXPECT_NEAR(*v.rows[kL2Read].comparison.measured_hit_only, 0.80, 1e-9);
  EXPECT_NEAR(*v.rows[kL2Write].comparison.measured, 0.94, 1e-9);
  EXPECT_EQ(v.rows[kL2Read].comparison.verdict, reports::Verdict::kInside);

  std::ostringstream text;
  reports::print_validation(text, v);
  EXPECT_NE(text.str().find("1 program compared with Accel-Sim\n"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("Accel-Sim's own count: HIT / (HIT + HIT_RESERVED + MISS + "),
            std::string::npos);
  EXPECT_NE(text.str().find("stencil_step  L2 sector read hit rate      80.00\n"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("Accel-Sim " + kData + "validate_stencil_accelsim.out\n"),
            std::string::npos);
  const std::string json = reports::validation_json(v, -1);
  EXPECT_NE(json.find("\"measured_hit_only\":0.65"), std::string::npos) << json;
}

TEST(AccelsimStats, ReadMeasurementsTellsTheFormatsApart) {
  EXPECT_EQ(reports::read_measurements(kData + "validate_stencil_accelsim.out").layout,
            reports::NcuCsvLayout::kAccelsim);
  EXPECT_NE(reports::read_measurements(kData + "validate_stencil_ncu.csv").layout,
            reports::NcuCsvLayout::kAccelsim);
}

}  // namespace
