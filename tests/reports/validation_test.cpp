// The validation table of several programs (memcarlo validate, scripts/validate-gpu.sh) on
// recorded Nsight Compute CSVs and reports whose answers are worked out by hand below, the case
// argument parser, and the device name -> preset table on names as nvidia-smi prints them.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "memcarlo/reports/device_presets.hpp"
#include "memcarlo/reports/validation.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace {

namespace reports = memcarlo::reports;
using nlohmann::json;
using reports::CompareInputError;
using reports::Verdict;

constexpr std::size_t kL1 = 0;
constexpr std::size_t kL2Read = 1;
constexpr std::size_t kL2Write = 2;

const std::string kData = std::string(MEMCARLO_SOURCE_DIR) + "/tests/reports/data/";

/// The two recorded programs. By hand, measured (Nsight percent / 100, averaged over launches)
/// against the predicted mean and its 2σ band [mean - 2 stddev, mean + 2 stddev]:
///
///   histogram_global_atomics  L1        0.415 vs 0.40 ± 0.04  |error| 0.015  inside
///                             L2 read   0.55  vs 0.50 ± 0.02           0.05   outside
///                             L2 write  n/a   vs null                         no measurement
///   histogram_shared_atomics  L1        0.27  vs 0.30 ± 0.10           0.03   inside
///                             L2 read   0.62  vs 0.60 ± 0.04           0.02   inside
///                             L2 write  1.00  vs null                         no prediction
///   stencil_step (3 launches) L1        (0.60 + 0.62 + 0.64) / 3 = 0.62 vs 0.70 ± 0.06  0.08
///   outside
///                             L2 read   (0.80 + 0.82 + 0.84) / 3 = 0.82 vs 0.81 ± 0.02  0.01
///                             inside L2 write  (0.90 + 0.90 + 0.93) / 3 = 0.91 vs 0.95 ± 0.02 0.04
///                             outside
///
/// Mean absolute errors over the judged rows: L1 (0.015 + 0.03 + 0.08) / 3 = 0.125 / 3,
/// L2 read (0.05 + 0.02 + 0.01) / 3 = 0.08 / 3, L2 write 0.04 / 1.
std::vector<reports::ValidationCase> recorded_cases() {
  return {{"histogram", kData + "validate_histogram_report.json",
           kData + "validate_histogram_ncu.csv", true},
          {"stencil2d", kData + "validate_stencil_report.json", kData + "validate_stencil_ncu.csv",
           false}};
}

reports::Validation recorded_validation() {
  return reports::run_validation("NVIDIA H100 80GB HBM3", recorded_cases(),
                                 {{"bfs_csr", "ncu failed (exit 1)"}});
}

const reports::ValidationRow& row(const reports::Validation& v, const std::string& kernel,
                                  std::size_t metric) {
  const auto found = std::find_if(v.rows.begin(), v.rows.end(), [&](const auto& r) {
    return r.kernel == kernel && r.comparison.metric == metric;
  });
  if (found == v.rows.end()) {
    throw std::runtime_error("no row for " + kernel);
  }
  return *found;
}

std::string case_error(const std::string& spec) {
  try {
    reports::parse_validation_case(spec);
  } catch (const CompareInputError& e) {
    return e.what();
  }
  return "(no error)";
}

// ---- Rows and mean absolute errors --------------------------------------------------------------

TEST(Validation, OneRowPerCaseKernelAndMetricInReportOrder) {
  const reports::Validation v = recorded_validation();
  ASSERT_EQ(v.rows.size(), 9u);  // 2 kernels x 3 metrics + 1 kernel x 3 metrics
  EXPECT_EQ(v.rows[0].case_name, "histogram");
  EXPECT_EQ(v.rows[0].kernel, "histogram_global_atomics");
  EXPECT_EQ(v.rows[0].comparison.metric, kL1);
  EXPECT_EQ(v.rows[3].kernel, "histogram_shared_atomics");
  EXPECT_EQ(v.rows[8].case_name, "stencil2d");
  EXPECT_EQ(v.rows[8].comparison.metric, kL2Write);
}

TEST(Validation, RowsCarryMeasuredPredictedErrorAndVerdictAsWorkedOutByHand) {
  const reports::Validation v = recorded_validation();
  const auto& global_l1 = row(v, "histogram_global_atomics", kL1).comparison;
  EXPECT_DOUBLE_EQ(*global_l1.measured, 0.415);
  EXPECT_DOUBLE_EQ(global_l1.predicted->mean, 0.40);  // the lookup ratio, not the loads' 0.42
  EXPECT_NEAR(*global_l1.absolute_error, 0.015, 1e-12);
  EXPECT_EQ(global_l1.verdict, Verdict::kInside);

  EXPECT_EQ(row(v, "histogram_global_atomics", kL2Read).comparison.verdict, Verdict::kOutside);
  EXPECT_EQ(row(v, "histogram_global_atomics", kL2Write).comparison.verdict,
            Verdict::kNoMeasurement);
  EXPECT_EQ(row(v, "histogram_shared_atomics", kL2Write).comparison.verdict,
            Verdict::kNoPrediction);

  const auto& stencil_l1 = row(v, "stencil_step", kL1).comparison;
  EXPECT_EQ(stencil_l1.measured_launches, 3u);
  EXPECT_NEAR(*stencil_l1.measured, 0.62, 1e-12);
  EXPECT_NEAR(*stencil_l1.absolute_error, 0.08, 1e-12);
  EXPECT_EQ(stencil_l1.verdict, Verdict::kOutside);  // below the band [0.64, 0.76]
  EXPECT_NEAR(*row(v, "stencil_step", kL2Write).comparison.measured, 0.91, 1e-12);
}

TEST(Validation, MeanAbsoluteErrorPerMetricIsOverTheJudgedRowsOnly) {
  const reports::Validation v = recorded_validation();
  const auto& l1 = v.metrics[kL1];
  EXPECT_EQ(l1.judged, 3u);
  EXPECT_EQ(l1.inside, 2u);
  EXPECT_NEAR(*l1.mean_absolute_error, 0.125 / 3, 1e-12);
  EXPECT_EQ(v.metrics[kL2Read].judged, 3u);
  EXPECT_EQ(v.metrics[kL2Read].inside, 2u);
  EXPECT_NEAR(*v.metrics[kL2Read].mean_absolute_error, 0.08 / 3, 1e-12);
  // Two L2 write rows were not judged (no measurement, no prediction): one row in the mean.
  EXPECT_EQ(v.metrics[kL2Write].judged, 1u);
  EXPECT_EQ(v.metrics[kL2Write].inside, 0u);
  EXPECT_NEAR(*v.metrics[kL2Write].mean_absolute_error, 0.04, 1e-12);
}

TEST(Validation, AMetricWithoutAnyJudgedRowHasNoMeanAbsoluteError) {
  const reports::Validation v = reports::run_validation("", {recorded_cases()[0]}, {});
  EXPECT_EQ(v.metrics[kL2Write].judged, 0u);
  EXPECT_FALSE(v.metrics[kL2Write].mean_absolute_error.has_value());
  EXPECT_NEAR(*v.metrics[kL1].mean_absolute_error, (0.015 + 0.03) / 2, 1e-12);
}

TEST(Validation, ItReusesTheComparisonOfMemcarloCompare) {
  // The same numbers as compare_with_ncu on the one case, row for row.
  const auto single = reports::compare_with_ncu(
      reports::read_report_predictions(kData + "validate_stencil_report.json"),
      reports::read_ncu_csv(kData + "validate_stencil_ncu.csv"));
  const reports::Validation v = reports::run_validation("", {recorded_cases()[1]}, {});
  ASSERT_EQ(v.rows.size(), single.kernels[0].metrics.size());
  for (std::size_t m = 0; m < v.rows.size(); ++m) {
    EXPECT_EQ(v.rows[m].comparison.measured, single.kernels[0].metrics[m].measured);
    EXPECT_EQ(v.rows[m].comparison.absolute_error, single.kernels[0].metrics[m].absolute_error);
    EXPECT_EQ(v.rows[m].comparison.verdict, single.kernels[0].metrics[m].verdict);
  }
}

// ---- Printers -----------------------------------------------------------------------------------

TEST(ValidationPrinters, TheTableHasARowPerKernelAndMetricThenTheMeanAbsoluteErrors) {
  std::ostringstream out;
  reports::print_validation(out, recorded_validation());
  const std::string text = out.str();
  EXPECT_NE(text.find("memcarlo validation on NVIDIA H100 80GB HBM3: 2 programs"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  program    kernel                    metric                    measured "
                      "predicted  |error|  2σ band           in 2σ band\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  histogram  histogram_global_atomics  L1 sector hit rate           41.50 "
                      "    40.00     1.50  [36.00, 44.00]    yes\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  stencil2d  stencil_step              L1 sector hit rate           62.00 "
                      "    70.00     8.00  [64.00, 76.00]    NO\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  histogram  histogram_shared_atomics  L2 sector write hit rate    100.00 "
                      "     null        -  -                 - (no prediction)\n"),
            std::string::npos)
      << text;
  // 0.125 / 3 = 4.17 percentage points, 0.08 / 3 = 2.67.
  EXPECT_NE(text.find("  L1 sector hit rate          4.17  (3 judged, 2 inside the 2σ band)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  L2 sector read hit rate     2.67  (3 judged, 2 inside the 2σ band)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  L2 sector write hit rate    4.00  (1 judged, 0 inside the 2σ band)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("; host and GPU traces DIFFER\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Not validated:\n  bfs_csr: ncu failed (exit 1)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("9 rows, 7 judged: 4 inside the 2σ band, 3 outside; 2 validated, 1 not "
                      "validated; 1 with host and GPU traces that differ\n"),
            std::string::npos)
      << text;
}

TEST(ValidationPrinters, ValidationJsonHasTheDocumentedKeysInRatios) {
  const json doc = json::parse(reports::validation_json(recorded_validation()));
  EXPECT_EQ(doc["schema_version"], reports::kValidationSchemaVersion);
  EXPECT_EQ(doc["units"], "ratio");
  EXPECT_EQ(doc["device"], "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(doc["cases"].size(), 2u);
  EXPECT_EQ(doc["cases"][0]["name"], "histogram");
  EXPECT_EQ(doc["cases"][0]["hierarchy"], "h100");
  EXPECT_EQ(doc["cases"][0]["traces_agree"], true);
  EXPECT_EQ(doc["cases"][1]["ncu_layout"], "raw");
  EXPECT_EQ(doc["cases"][1]["traces_agree"], false);
  EXPECT_EQ(doc["cases"][1]["kernels_compared"], 1);
  EXPECT_EQ(doc["failed_cases"],
            json::parse(R"json([{"name": "bfs_csr", "reason": "ncu failed (exit 1)"}])json"));

  ASSERT_EQ(doc["rows"].size(), 9u);
  const json& first = doc["rows"][0];
  EXPECT_EQ(first["case"], "histogram");
  EXPECT_EQ(first["kernel"], "histogram_global_atomics");
  EXPECT_EQ(first["ncu_metric"], "l1tex__t_sector_hit_rate.pct");
  EXPECT_EQ(first["report_metric"], "l1_sector_lookup_hit_ratio");
  EXPECT_DOUBLE_EQ(first["measured"].get<double>(), 0.415);
  EXPECT_EQ(first["measured_launches"], 1);
  EXPECT_DOUBLE_EQ(first["predicted"].get<double>(), 0.40);
  EXPECT_DOUBLE_EQ(first["predicted_stddev"].get<double>(), 0.02);
  EXPECT_DOUBLE_EQ(first["spread_2sigma"][1].get<double>(), 0.44);
  EXPECT_NEAR(first["absolute_error"].get<double>(), 0.015, 1e-12);
  EXPECT_EQ(first["inside_2sigma"], true);
  EXPECT_EQ(first["verdict"], "inside");
  const json& unjudged = doc["rows"][2];
  EXPECT_TRUE(unjudged["measured"].is_null());
  EXPECT_TRUE(unjudged["predicted"].is_null());
  EXPECT_TRUE(unjudged["absolute_error"].is_null());
  EXPECT_TRUE(unjudged["inside_2sigma"].is_null());
  EXPECT_EQ(unjudged["verdict"], "no_measurement");

  ASSERT_EQ(doc["metrics"].size(), 3u);
  EXPECT_EQ(doc["metrics"][0]["report_metric"], "l1_sector_lookup_hit_ratio");
  EXPECT_EQ(doc["metrics"][0]["judged"], 3);
  EXPECT_EQ(doc["metrics"][0]["inside_2sigma"], 2);
  EXPECT_NEAR(doc["metrics"][0]["mean_absolute_error"].get<double>(), 0.125 / 3, 1e-12);
  EXPECT_EQ(doc["summary"], json::parse(R"({"cases": 2, "failed_cases": 1, "traces_differ": 1,
      "rows": 9, "judged": 7, "inside_2sigma": 4, "outside_2sigma": 3})"));
}

// ---- Bad input ----------------------------------------------------------------------------------

TEST(ValidationInput, ACaseIsNameEqualsReportCommaCsv) {
  const auto parsed = reports::parse_validation_case("spmv_scalar=out/r.json,out/m.csv");
  EXPECT_EQ(parsed.name, "spmv_scalar");
  EXPECT_EQ(parsed.report_path, "out/r.json");
  EXPECT_EQ(parsed.ncu_path, "out/m.csv");
  EXPECT_FALSE(parsed.traces_agree.has_value());
  EXPECT_EQ(case_error("out/r.json,out/m.csv"),
            "case \"out/r.json,out/m.csv\": expected NAME=REPORT.json,NCU.csv");
  EXPECT_EQ(case_error("=r.json,m.csv"), "case \"=r.json,m.csv\": the name before '=' is empty");
  EXPECT_EQ(case_error("a b=r.json,m.csv"),
            "case \"a b=r.json,m.csv\": the name may hold letters, digits, '_', '-' and '.', not "
            "' '");
  EXPECT_EQ(case_error("a=r.json"),
            "case \"a=r.json\": expected NAME=REPORT.json,NCU.csv (two paths, one comma)");
  EXPECT_EQ(case_error("a=r.json,m.csv,x"),
            "case \"a=r.json,m.csv,x\": expected NAME=REPORT.json,NCU.csv (two paths, one comma)");
  EXPECT_EQ(case_error("a=r.json,"), "case \"a=r.json,\": a path is empty");
}

TEST(ValidationInput, AnUnreadableInputNamesTheCaseTheFileAndThePlace) {
  auto cases = recorded_cases();
  cases[1].ncu_path = kData + "validate_histogram_report.json";  // JSON is not a CSV
  try {
    reports::run_validation("", cases, {});
    FAIL() << "no error";
  } catch (const CompareInputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("case stencil2d: " + kData + "validate_histogram_report.json", 0), 0u)
        << what;
  }
  cases = recorded_cases();
  cases[0].report_path = kData + "no-such-report.json";
  try {
    reports::run_validation("", cases, {});
    FAIL() << "no error";
  } catch (const CompareInputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "case histogram: " + kData + "no-such-report.json: cannot open the file");
  }
}

// ---- Device names -> presets --------------------------------------------------------------------

std::string preset_of(const std::string& device) {
  const auto row = reports::preset_for_device(device);
  return row ? std::string(row->preset) : "(none)";
}

TEST(DevicePresets, NamesAsNvidiaSmiPrintsThemFindTheirPreset) {
  // `nvidia-smi --query-gpu=name --format=csv,noheader` on each board (old drivers omit "NVIDIA").
  const std::vector<std::pair<std::string, std::string>> names = {
      {"Tesla C2050", "fermi-c2050"},
      {"Tesla C2070", "fermi-c2050"},
      {"Tesla C2050 / C2070", "fermi-c2050"},
      {"Tesla C2075", "fermi-c2050"},
      {"Tesla M2050", "fermi-c2050"},
      {"GeForce GTX 480", "gtx480"},
      {"NVIDIA GeForce GTX 480", "gtx480"},
      {"Tesla V100-SXM2-16GB", "v100"},
      {"Tesla V100-SXM2-32GB", "v100"},
      {"Tesla V100-PCIE-16GB", "v100"},
      {"Tesla V100-PCIE-32GB", "v100"},
      {"Tesla V100-DGXS-32GB", "v100"},
      {"Tesla V100-FHHL-16GB", "v100"},
      {"Tesla V100S-PCIE-32GB", "v100"},
      {"A100-SXM4-40GB", "a100"},
      {"NVIDIA A100-SXM4-40GB", "a100"},
      {"NVIDIA A100-SXM4-80GB", "a100"},
      {"NVIDIA A100-PCIE-40GB", "a100"},
      {"NVIDIA A100 80GB PCIe", "a100"},
      {"NVIDIA H100 80GB HBM3", "h100"},
      {"NVIDIA H100 PCIe", "h100"},
      {"NVIDIA H100 NVL", "h100"},
      {"nvidia h100 80gb hbm3", "h100"},
  };
  for (const auto& [name, preset] : names) {
    EXPECT_EQ(preset_of(name), preset) << name;
  }
}

TEST(DevicePresets, OtherDevicesWithSimilarNamesMatchNothing) {
  for (const char* name : {"NVIDIA B200", "NVIDIA GH200 480GB", "NVIDIA A10", "NVIDIA A40",
                           "NVIDIA A100X", "Tesla T4", "Tesla M2090", "GeForce GTX 480M",
                           "GeForce GTX 4800", "NVIDIA GeForce RTX 4090", "Quadro GV100", ""}) {
    EXPECT_EQ(preset_of(name), "(none)") << name;
  }
}

TEST(DevicePresets, ThePcieH100CarriesANoteAndTheSxm5None) {
  EXPECT_NE(reports::preset_for_device("NVIDIA H100 PCIe")->note.find("114 SMs"),
            std::string_view::npos);
  EXPECT_TRUE(reports::preset_for_device("NVIDIA H100 80GB HBM3")->note.empty());
  // The name an H200's driver reports (nvidia-smi on an H200, 2026-11-29).
  const auto h200 = reports::preset_for_device("NVIDIA H200");
  ASSERT_TRUE(h200.has_value());
  EXPECT_EQ(h200->preset, "h100");
  EXPECT_NE(h200->note.find("--set l2.size=60MiB"), std::string_view::npos);
}

TEST(DevicePresets, EveryPresetTheTableNamesExists) {
  const std::vector<std::string> presets = memcarlo::sim::preset_names();
  for (const auto& row : reports::kDeviceModels) {
    EXPECT_NE(std::find(presets.begin(), presets.end(), row.preset), presets.end())
        << row.model << " -> " << row.preset;
  }
}

TEST(DevicePresets, AnUnmatchedDeviceIsNamedWithTheKnownDevicesAndThePresets) {
  const std::string message = reports::unmatched_device_message("NVIDIA B200");
  EXPECT_EQ(message.rfind("no hierarchy preset matches the device \"NVIDIA B200\". ", 0), 0u)
      << message;
  EXPECT_NE(message.find("fermi-c2050 (C2050, C2070, C2075, M2050, M2070); gtx480 (GTX 480); "
                         "v100 (V100, V100S); a100 (A100); h100 (H100 PCIE, H100, H200)"),
            std::string::npos)
      << message;
  for (const std::string& preset : memcarlo::sim::preset_names()) {
    EXPECT_NE(message.find(preset), std::string::npos) << preset;
  }
}

}  // namespace
