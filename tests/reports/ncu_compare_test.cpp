// Reading reports with and without the per-kernel section, kernel-name matching, the 2σ-band
// verdicts with percent-to-ratio conversion, and the text and JSON printers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "memcarlo/reports/ncu_compare.hpp"

namespace {

namespace reports = memcarlo::reports;
using memcarlo::analysis::Distribution;
using nlohmann::json;
using reports::CompareInputError;
using reports::MatchRule;
using reports::Verdict;

constexpr std::size_t kL1 = 0;
constexpr std::size_t kL2Read = 1;
constexpr std::size_t kL2Write = 2;

const std::string kData = std::string(MEMCARLO_SOURCE_DIR) + "/tests/reports/data/";

// ---- Building blocks ----------------------------------------------------------------------------

Distribution prediction(double mean, double stddev) {
  Distribution d;
  d.count = 32;
  d.mean = mean;
  d.stddev = stddev;
  d.ci95 = std::array<double, 2>{mean - stddev / 2, mean + stddev / 2};
  d.spread_2sigma = {mean - 2 * stddev, mean + 2 * stddev};
  return d;
}

reports::PredictedKernel predicted_kernel(const std::string& name, double mean = 0.5,
                                          double stddev = 0.05) {
  reports::PredictedKernel kernel;
  kernel.name = name;
  kernel.launches = {0};
  for (auto& metric : kernel.metrics) {
    metric = prediction(mean, stddev);
  }
  return kernel;
}

/// An Nsight kernel whose launches measured `l1` percent each (the other metrics n/a).
reports::NcuKernel measured_kernel(const std::string& name, std::vector<double> l1 = {50.0}) {
  reports::NcuKernel kernel;
  kernel.name = name;
  kernel.launches = static_cast<std::uint32_t>(l1.size());
  kernel.percent[kL1] = std::move(l1);
  return kernel;
}

reports::ReportPredictions report_of(std::vector<reports::PredictedKernel> kernels) {
  reports::ReportPredictions report;
  report.path = "r.json";
  report.hierarchy = "v100";
  report.trials = 32;
  report.per_kernel = true;
  report.kernels = std::move(kernels);
  return report;
}

reports::NcuMeasurements ncu_of(std::vector<reports::NcuKernel> kernels) {
  reports::NcuMeasurements ncu;
  ncu.path = "m.csv";
  ncu.kernels = std::move(kernels);
  return ncu;
}

std::string report_error(const std::string& text) {
  try {
    reports::parse_report_predictions(text, "r.json");
  } catch (const CompareInputError& e) {
    return e.what();
  }
  return "(no error)";
}

/// A minimal schema-1 report whose launches run the given kernels.
json minimal_report(const std::vector<std::string>& launch_kernels) {
  json report;
  report["schema_version"] = 1;
  report["inputs"]["hierarchy"]["name"] = "v100";
  report["inputs"]["trials"] = 16;
  report["inputs"]["launches"] = json::array();
  for (std::size_t i = 0; i < launch_kernels.size(); ++i) {
    report["inputs"]["launches"].push_back({{"index", i}, {"kernel", launch_kernels[i]}});
  }
  const json d = {{"mean", 0.5},
                  {"stddev", 0.1},
                  {"ci95", {0.45, 0.55}},
                  {"spread_2sigma", {0.3, 0.7}},
                  {"trials", 16}};
  report["overall"] = {{"l1_sector_read_hit_ratio", d},
                       {"l1_sector_lookup_hit_ratio", d},
                       {"l2_sector_read_hit_ratio", d},
                       {"l2_sector_write_hit_ratio", nullptr}};
  return report;
}

reports::NcuComparison compare_files(const std::string& report, const std::string& csv) {
  return reports::compare_with_ncu(reports::read_report_predictions(kData + report),
                                   reports::read_ncu_csv(kData + csv));
}

// ---- Kernel names -------------------------------------------------------------------------------

TEST(KernelNames, SignatureNameDropsReturnTypeAndParameterList) {
  EXPECT_EQ(reports::kernel_signature_name("spmv_kernel(int, const float *, const int *)"),
            "spmv_kernel");
  EXPECT_EQ(reports::kernel_signature_name("void ns::spmv<float, 4>(int, const float *)"),
            "ns::spmv<float,4>");
  EXPECT_EQ(reports::kernel_signature_name("void reduce<unsigned int>(const unsigned int *)"),
            "reduce<unsigned int>");
  EXPECT_EQ(reports::kernel_signature_name("(anonymous namespace)::scale(float *, int)"),
            "(anonymous namespace)::scale");
  EXPECT_EQ(reports::kernel_signature_name("void k<(int)3>(float *)"), "k<(int)3>");
  EXPECT_EQ(reports::kernel_signature_name("  vecAdd  "), "vecAdd");
}

TEST(KernelNames, MangledNamesAreDemangledFirst) {
  // Accel-Sim traces record the mangled name; Nsight Compute prints the demangled one.
  EXPECT_EQ(reports::kernel_signature_name("_Z9histogramPKjPji"), "histogram");
  EXPECT_EQ(reports::kernel_signature_name("_ZN2ns9transposeEPfPKf"), "ns::transpose");
  EXPECT_EQ(reports::kernel_base_name("_Z6reduceIfLi256EEvPKfPfi"), "reduce");
  EXPECT_EQ(reports::kernel_signature_name("_Znot_really_mangled"), "_Znot_really_mangled");
}

TEST(KernelNames, BaseNameDropsQualifiersAndTemplateArguments) {
  EXPECT_EQ(reports::kernel_base_name("void ns::spmv<float, 4>(int, const float *)"), "spmv");
  EXPECT_EQ(reports::kernel_base_name("(anonymous namespace)::scale(float *, int)"), "scale");
  EXPECT_EQ(reports::kernel_base_name("void k<(int)3>(float *)"), "k");
  EXPECT_EQ(reports::kernel_base_name("spmv_csr_scalar_kernel"), "spmv_csr_scalar_kernel");
}

// ---- Matching -----------------------------------------------------------------------------------

TEST(KernelMatching, AnExactNameWinsOverLooserRules) {
  // By base name "scale" would be ambiguous; the exact name decides first.
  const auto result = reports::compare_with_ncu(
      report_of({predicted_kernel("ns::scale"), predicted_kernel("scale")}),
      ncu_of({measured_kernel("scale")}));
  ASSERT_EQ(result.kernels.size(), 1u);
  EXPECT_EQ(result.kernels[0].report_kernel, "scale");
  EXPECT_EQ(result.kernels[0].match, MatchRule::kExact);
  EXPECT_EQ(result.unmatched_report, (std::vector<std::string>{"ns::scale"}));
  EXPECT_TRUE(result.unmatched_ncu.empty());
}

TEST(KernelMatching, ASignatureMatchesWhenTheArgumentListOrManglingDiffers) {
  const auto result = reports::compare_with_ncu(
      report_of({predicted_kernel("_Z9histogramPKjPji"), predicted_kernel("ns::transpose")}),
      ncu_of({measured_kernel("histogram(const unsigned int *, unsigned int *, int)"),
              measured_kernel("ns::transpose(float *, const float *)")}));
  ASSERT_EQ(result.kernels.size(), 2u);
  EXPECT_EQ(result.kernels[0].match, MatchRule::kSignature);
  EXPECT_EQ(result.kernels[1].match, MatchRule::kSignature);
  EXPECT_EQ(result.kernels[1].ncu_kernels,
            (std::vector<std::string>{"ns::transpose(float *, const float *)"}));
}

TEST(KernelMatching, TemplateInstancesMatchByBaseNameAndTheirLaunchesAreAveragedTogether) {
  const auto result = reports::compare_with_ncu(
      report_of({predicted_kernel("reduce")}),
      ncu_of({measured_kernel("void reduce<float, 256>(const float *, float *, int)", {40, 50}),
              measured_kernel("void reduce<float, 128>(const float *, float *, int)", {60})}));
  ASSERT_EQ(result.kernels.size(), 1u);
  const auto& kernel = result.kernels[0];
  EXPECT_EQ(kernel.match, MatchRule::kBaseName);
  EXPECT_EQ(kernel.ncu_kernels.size(), 2u);
  EXPECT_EQ(kernel.ncu_launches, 3u);
  EXPECT_EQ(kernel.metrics[kL1].measured_launches, 3u);
  EXPECT_DOUBLE_EQ(*kernel.metrics[kL1].measured, 0.5);
}

TEST(KernelMatching, AnAmbiguousNameIsListedWithItsCandidatesNotGuessed) {
  const auto result = reports::compare_with_ncu(
      report_of({predicted_kernel("scale<float>"), predicted_kernel("scale<double>")}),
      ncu_of({measured_kernel("scale", {1, 2})}));
  EXPECT_TRUE(result.kernels.empty());
  ASSERT_EQ(result.unmatched_ncu.size(), 1u);
  EXPECT_EQ(result.unmatched_ncu[0].name, "scale");
  EXPECT_EQ(result.unmatched_ncu[0].launches, 2u);
  EXPECT_EQ(result.unmatched_ncu[0].ambiguous_between,
            (std::vector<std::string>{"scale<float>", "scale<double>"}));
  EXPECT_EQ(result.unmatched_report.size(), 2u);
}

TEST(KernelMatching, UnmatchedKernelsOnEitherSideAreListed) {
  const auto result = reports::compare_with_ncu(
      report_of({predicted_kernel("spmv"), predicted_kernel("bfs")}),
      ncu_of({measured_kernel("spmv(int)"), measured_kernel("thrust_fill(float *)", {1, 2, 3})}));
  ASSERT_EQ(result.kernels.size(), 1u);
  EXPECT_EQ(result.unmatched_report, (std::vector<std::string>{"bfs"}));
  ASSERT_EQ(result.unmatched_ncu.size(), 1u);
  EXPECT_EQ(result.unmatched_ncu[0].name, "thrust_fill(float *)");
  EXPECT_EQ(result.unmatched_ncu[0].launches, 3u);
  EXPECT_TRUE(result.unmatched_ncu[0].ambiguous_between.empty());
}

// ---- Verdicts -----------------------------------------------------------------------------------

TEST(Verdicts, PercentagesBecomeRatiosAveragedOverLaunches) {
  const auto result = reports::compare_with_ncu(report_of({predicted_kernel("k", 0.131, 0.004)}),
                                                ncu_of({measured_kernel("k", {12.61, 13.39})}));
  const auto& l1 = result.kernels[0].metrics[kL1];
  EXPECT_DOUBLE_EQ(*l1.measured, 0.13);
  EXPECT_EQ(l1.measured_launches, 2u);
  EXPECT_NEAR(*l1.absolute_error, 0.001, 1e-12);
  EXPECT_EQ(l1.verdict, Verdict::kInside);
}

TEST(Verdicts, InsideMeansWithinTheTwoSigmaBandNotTheIntervalOfTheMean) {
  // Predicted mean 0.5, σ 0.05: ci95 [0.475, 0.525], 2σ band [0.4, 0.6].
  const auto verdict = [](double percent) {
    return reports::compare_with_ncu(report_of({predicted_kernel("k")}),
                                     ncu_of({measured_kernel("k", {percent})}))
        .kernels[0]
        .metrics[kL1]
        .verdict;
  };
  EXPECT_EQ(verdict(50), Verdict::kInside);
  EXPECT_EQ(verdict(58), Verdict::kInside);  // outside ci95, inside the 2σ band
  EXPECT_EQ(verdict(40), Verdict::kInside);  // on the band's edge
  EXPECT_EQ(verdict(60), Verdict::kInside);
  EXPECT_EQ(verdict(61), Verdict::kOutside);
  EXPECT_EQ(verdict(39.9), Verdict::kOutside);
}

TEST(Verdicts, MissingMeasurementsAndPredictionsAreNotJudged) {
  auto kernel = predicted_kernel("k");
  kernel.metrics[kL2Write].reset();  // the report saw no stores reach the L2
  auto measured = measured_kernel("k");
  measured.percent[kL2Write] = {100.0};
  const auto result = reports::compare_with_ncu(report_of({kernel}), ncu_of({measured}));
  const auto& metrics = result.kernels[0].metrics;
  EXPECT_EQ(metrics[kL2Read].verdict, Verdict::kNoMeasurement);  // n/a in every launch
  EXPECT_FALSE(metrics[kL2Read].measured.has_value());
  EXPECT_FALSE(metrics[kL2Read].absolute_error.has_value());
  EXPECT_EQ(metrics[kL2Write].verdict, Verdict::kNoPrediction);
  EXPECT_DOUBLE_EQ(*metrics[kL2Write].measured, 1.0);
  EXPECT_FALSE(metrics[kL2Write].absolute_error.has_value());
}

// ---- Reports ------------------------------------------------------------------------------------

TEST(ReportPredictions, ASingleKernelReportWithoutKernelsUsesTheTopLevelOverall) {
  const auto report = reports::read_report_predictions(kData + "single_kernel_report.json");
  EXPECT_FALSE(report.per_kernel);
  EXPECT_EQ(report.hierarchy, "h100");
  EXPECT_EQ(report.trials, 32u);
  ASSERT_EQ(report.kernels.size(), 1u);
  EXPECT_EQ(report.kernels[0].name, "spmv_csr_scalar_kernel");
  EXPECT_EQ(report.kernels[0].launches, (std::vector<std::uint32_t>{0, 1}));
  const auto& l2_read = *report.kernels[0].metrics[kL2Read];
  EXPECT_DOUBLE_EQ(l2_read.mean, 0.45);
  EXPECT_DOUBLE_EQ(l2_read.stddev, 0.01);
  EXPECT_DOUBLE_EQ((*l2_read.ci95)[0], 0.446395);
  EXPECT_DOUBLE_EQ(l2_read.spread_2sigma[1], 0.47);
  EXPECT_EQ(l2_read.count, 32u);
}

TEST(ReportPredictions, ThePerKernelSectionIsReadWhenPresent) {
  const auto report = reports::read_report_predictions(kData + "multi_kernel_report.json");
  EXPECT_TRUE(report.per_kernel);
  ASSERT_EQ(report.kernels.size(), 3u);
  EXPECT_EQ(report.kernels[1].name, "fill_kernel");
  EXPECT_EQ(report.kernels[1].launches, (std::vector<std::uint32_t>{2}));
  // fill_kernel only stores: no load sector ratio, but its store lookups give an L1 prediction.
  ASSERT_TRUE(report.kernels[1].metrics[kL1].has_value());
  EXPECT_DOUBLE_EQ(report.kernels[1].metrics[kL1]->mean, 0.0);
  EXPECT_DOUBLE_EQ(report.kernels[1].metrics[kL2Write]->mean, 0.99);
  EXPECT_DOUBLE_EQ(report.kernels[2].metrics[kL1]->mean, 0.19);  // not the loads' 0.2
}

TEST(ReportPredictions, TheL1IsComparedWithTheLookupRatioOfLoadsAndStores) {
  EXPECT_EQ(reports::kComparedMetrics[kL1].ncu_metric, "l1tex__t_sector_hit_rate.pct");
  EXPECT_EQ(reports::kComparedMetrics[kL1].report_key, "l1_sector_lookup_hit_ratio");
  const auto report = reports::read_report_predictions(kData + "single_kernel_report.json");
  EXPECT_DOUBLE_EQ(report.kernels[0].metrics[kL1]->mean, 0.129);  // l1_sector_read: 0.131
}

TEST(ReportPredictions, AReportWithoutTheLookupRatioIsRefusedWithWhatToDo) {
  json report = minimal_report({"a"});
  report["overall"].erase("l1_sector_lookup_hit_ratio");
  EXPECT_EQ(report_error(report.dump()),
            "r.json: overall.l1_sector_lookup_hit_ratio: missing: the report was written by a "
            "memcarlo that did not count the L1 lookups of stores yet; simulate the trace again");
}

TEST(ReportPredictions, AMultiKernelReportWithoutKernelsIsRefused) {
  EXPECT_EQ(
      report_error(minimal_report({"a", "b", "a"}).dump()),
      "r.json: the report covers launches of 2 kernels (a, b) but has no per-kernel "
      "\"kernels\" section, so its overall figures cannot be attributed to one kernel; "
      "simulate one kernel's launches (memcarlo simulate --launch I) and compare that report");
  EXPECT_EQ(report_error(minimal_report({}).dump()),
            "r.json: inputs.launches: expected a non-empty array of launches");
  EXPECT_EQ(report_error(minimal_report({"a", "a"}).dump()), "(no error)");
}

TEST(ReportPredictions, ErrorsNameTheJsonKey) {
  json report = minimal_report({"a"});
  report["overall"].erase("l2_sector_write_hit_ratio");
  EXPECT_EQ(report_error(report.dump()), "r.json: overall.l2_sector_write_hit_ratio: missing");

  report = minimal_report({"a"});
  report["kernels"] =
      json::array({{{"kernel", "a"}, {"launches", {0}}, {"overall", report["overall"]}}});
  report["kernels"][0]["overall"]["l2_sector_read_hit_ratio"]["mean"] = "high";
  EXPECT_EQ(report_error(report.dump()),
            "r.json: kernels[0].overall.l2_sector_read_hit_ratio.mean: expected a number, found "
            "\"high\"");

  report["kernels"][0]["overall"]["l2_sector_read_hit_ratio"]["mean"] = 0.5;
  report["kernels"][0]["overall"]["l2_sector_read_hit_ratio"]["spread_2sigma"] = {0.1};
  EXPECT_EQ(report_error(report.dump()),
            "r.json: kernels[0].overall.l2_sector_read_hit_ratio.spread_2sigma: expected [lo, "
            "hi], found [0.1]");

  report = minimal_report({"a"});
  report["schema_version"] = 2;
  EXPECT_EQ(report_error(report.dump()),
            "r.json: schema_version: is 2; this memcarlo reads report schema 1");
  EXPECT_EQ(report_error("[1, 2]"), "r.json: expected an object");
  EXPECT_EQ(report_error("{\"schema_version\": 1,\n \"inputs\": }"),
            "r.json: not a JSON report: parse error at line 2, column 12: syntax error while "
            "parsing value - unexpected '}'; expected '[', '{', or a literal");
}

// ---- Whole comparisons and printers -------------------------------------------------------------

TEST(NcuComparison, DetailsCsvAgainstASingleKernelReport) {
  const auto result = compare_files("single_kernel_report.json", "spmv_details.csv");
  EXPECT_FALSE(result.per_kernel_report);
  ASSERT_EQ(result.kernels.size(), 1u);
  const auto& spmv = result.kernels[0];
  EXPECT_EQ(spmv.match, MatchRule::kSignature);
  EXPECT_EQ(spmv.ncu_launches, 2u);
  EXPECT_EQ(spmv.metrics[kL1].verdict, Verdict::kInside);
  EXPECT_DOUBLE_EQ(*spmv.metrics[kL1].measured, 0.13);
  EXPECT_NEAR(*spmv.metrics[kL1].absolute_error, 0.001, 1e-12);  // |0.13 - 0.129|
  EXPECT_EQ(spmv.metrics[kL2Read].verdict, Verdict::kOutside);
  EXPECT_DOUBLE_EQ(*spmv.metrics[kL2Read].measured, 0.52);
  EXPECT_NEAR(*spmv.metrics[kL2Read].absolute_error, 0.07, 1e-12);
  EXPECT_EQ(spmv.metrics[kL2Write].verdict, Verdict::kInside);
  EXPECT_EQ(spmv.metrics[kL2Write].measured_launches, 1u);
  ASSERT_EQ(result.unmatched_ncu.size(), 1u);
  EXPECT_EQ(result.unmatched_ncu[0].name, "void fill_kernel<float>(float *, float, int)");
}

TEST(NcuComparison, RawAndDetailsPagesGiveTheSameComparison) {
  json details = json::parse(
      reports::comparison_json(compare_files("multi_kernel_report.json", "spmv_details.csv")));
  json raw = json::parse(
      reports::comparison_json(compare_files("multi_kernel_report.json", "spmv_raw.csv")));
  EXPECT_EQ(details["ncu"]["layout"], "details");
  EXPECT_EQ(raw["ncu"]["layout"], "raw");
  details.erase("ncu");
  raw.erase("ncu");
  EXPECT_EQ(details, raw);
}

TEST(NcuComparison, TextOutputShowsEveryFigureAndSaysWhichBandInsideRefersTo) {
  std::ostringstream out;
  reports::print_comparison(out, compare_files("multi_kernel_report.json", "spmv_details.csv"));
  const std::string text = out.str();
  EXPECT_NE(text.find("\"inside\" means the measurement lies in the 2σ band"), std::string::npos)
      << text;
  EXPECT_NE(text.find("spmv_csr_scalar_kernel  (report: 2 launches; Nsight Compute: 2 launches "
                      "of \"spmv_csr_scalar_kernel(int, const float *, const int *, const int *, "
                      "const float *, float *)\", matched by signature)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  L1 sector hit rate            13.00    2     12.90  [12.76, 13.04]     "
                      "[12.10, 13.70]        0.10  yes\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  L2 sector read hit rate       52.00    2     45.00  [44.64, 45.36]     "
                      "[43.00, 47.00]        7.00  NO\n"),
            std::string::npos)
      << text;
  // fill_kernel only stores, which miss: Nsight's 0 % and the lookup prediction agree.
  EXPECT_NE(text.find("  L1 sector hit rate             0.00    1      0.00  [0.00, 0.00]       "
                      "[0.00, 0.00]          0.00  yes\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Report kernels without Nsight Compute rows:\n  \"bfs_kernel\"\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("5 comparisons: 3 inside the 2σ band, 2 outside; not compared: 1 without "
                      "measurement, 0 without prediction\n"),
            std::string::npos)
      << text;
}

TEST(NcuComparison, JsonOutputIsVersionedAndInRatios) {
  const json doc = json::parse(
      reports::comparison_json(compare_files("multi_kernel_report.json", "spmv_details.csv")));
  EXPECT_EQ(doc["schema_version"], reports::kCompareSchemaVersion);
  EXPECT_EQ(doc["units"], "ratio");
  EXPECT_EQ(doc["report"]["per_kernel"], true);
  EXPECT_EQ(doc["report"]["hierarchy"], "h100");
  ASSERT_EQ(doc["kernels"].size(), 2u);
  const json& l1 = doc["kernels"][0]["metrics"][0];
  EXPECT_EQ(l1["ncu_metric"], "l1tex__t_sector_hit_rate.pct");
  EXPECT_EQ(l1["report_metric"], "l1_sector_lookup_hit_ratio");
  EXPECT_DOUBLE_EQ(l1["measured"].get<double>(), 0.13);
  EXPECT_EQ(l1["measured_launches"], 2);
  EXPECT_DOUBLE_EQ(l1["predicted"]["mean"].get<double>(), 0.129);
  EXPECT_DOUBLE_EQ(l1["predicted"]["spread_2sigma"][0].get<double>(), 0.121);
  EXPECT_EQ(l1["inside_2sigma"], true);
  EXPECT_EQ(l1["verdict"], "inside");
  const json& fill = doc["kernels"][1];
  EXPECT_EQ(fill["kernel"], "fill_kernel");
  EXPECT_EQ(fill["match"], "base_name");
  EXPECT_TRUE(fill["metrics"][1]["measured"].is_null());
  EXPECT_TRUE(fill["metrics"][1]["inside_2sigma"].is_null());
  EXPECT_EQ(fill["metrics"][1]["verdict"], "no_measurement");
  EXPECT_DOUBLE_EQ(fill["metrics"][0]["predicted"]["mean"].get<double>(), 0.0);
  EXPECT_EQ(fill["metrics"][0]["verdict"], "inside");
  EXPECT_EQ(fill["metrics"][2]["inside_2sigma"], false);
  EXPECT_EQ(doc["unmatched"]["report"], json::array({"bfs_kernel"}));
  EXPECT_TRUE(doc["unmatched"]["ncu"].empty());
  EXPECT_EQ(doc["summary"]["compared"], 5);
  EXPECT_EQ(doc["summary"]["inside_2sigma"], 3);
  EXPECT_EQ(doc["summary"]["no_prediction"], 0);
}

}  // namespace
