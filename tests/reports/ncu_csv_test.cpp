// The Nsight Compute CSV reader: details and raw pages as `ncu --csv` writes them, quoting,
// thousands separators, n/a, ==PROF== lines, several launches, and malformed input.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "memcarlo/reports/ncu_compare.hpp"

namespace {

using memcarlo::reports::CompareInputError;
using memcarlo::reports::NcuCsvLayout;
using memcarlo::reports::NcuMeasurements;
using memcarlo::reports::parse_ncu_csv;
using memcarlo::reports::parse_ncu_number;
using memcarlo::reports::read_ncu_csv;

constexpr std::size_t kL1 = 0;
constexpr std::size_t kL2Read = 1;
constexpr std::size_t kL2Write = 2;

const std::string kData = std::string(MEMCARLO_SOURCE_DIR) + "/tests/reports/data/";

const std::string kDetailsHeader =
    R"("ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",)"
    R"("Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value")"
    "\n";

/// One details-page row of the "Command line profiler metrics" section.
std::string details_row(int id, const std::string& kernel, const std::string& metric,
                        const std::string& value) {
  return "\"" + std::to_string(id) + R"(","5120","app","127.0.0.1",")" + kernel +
         R"csv(","1","7","(128, 1, 1)","(80, 1, 1)","0","8.6","Command line profiler metrics",")csv" +
         metric + R"(","%",")" + value + "\"\n";
}

NcuMeasurements parse(const std::string& text) {
  std::istringstream in(text);
  return parse_ncu_csv(in, "metrics.csv");
}

std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const CompareInputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(NcuNumber, AcceptsThousandsSeparatorsAndNa) {
  EXPECT_DOUBLE_EQ(*parse_ncu_number("45.67"), 45.67);
  EXPECT_DOUBLE_EQ(*parse_ncu_number("1,234.5"), 1234.5);
  EXPECT_DOUBLE_EQ(*parse_ncu_number("12,345,678"), 12345678.0);
  EXPECT_DOUBLE_EQ(*parse_ncu_number(" 100 "), 100.0);
  EXPECT_DOUBLE_EQ(*parse_ncu_number("-3e2"), -300.0);
  EXPECT_FALSE(parse_ncu_number("n/a").has_value());
  EXPECT_FALSE(parse_ncu_number("N/A").has_value());
  EXPECT_FALSE(parse_ncu_number("").has_value());
}

TEST(NcuNumber, RejectsWhatIsNotANumber) {
  for (const char* text : {"12.3.4", "abc", "45,67", "1,23,456", ",123", "1,234,56.7", "inf", "nan",
                           "12%", "1.234,5"}) {
    EXPECT_THROW(parse_ncu_number(text), std::invalid_argument) << text;
  }
}

TEST(NcuCsvDetails, ReadsTheDetailsPageWithPreambleAndSeveralLaunches) {
  const NcuMeasurements m = read_ncu_csv(kData + "spmv_details.csv");
  EXPECT_EQ(m.layout, NcuCsvLayout::kDetails);
  EXPECT_EQ(m.path, kData + "spmv_details.csv");
  EXPECT_EQ(m.skipped_lines, 6u);  // five ==PROF== lines and the program's own output
  ASSERT_EQ(m.kernels.size(), 2u);
  EXPECT_EQ(m.kernels[0].name,
            "spmv_csr_scalar_kernel(int, const float *, const int *, const int *, const float *, "
            "float *)");
  EXPECT_EQ(m.kernels[0].launches, 2u);
  EXPECT_EQ(m.kernels[0].percent[kL1], (std::vector<double>{12.61, 13.39}));
  EXPECT_EQ(m.kernels[0].percent[kL2Read], (std::vector<double>{51.20, 52.80}));
  EXPECT_EQ(m.kernels[0].percent[kL2Write], (std::vector<double>{88.0}));  // the n/a is left out
  EXPECT_EQ(m.kernels[1].name, "void fill_kernel<float>(float *, float, int)");
  EXPECT_EQ(m.kernels[1].launches, 1u);
  EXPECT_TRUE(m.kernels[1].percent[kL2Read].empty());
  EXPECT_EQ(m.kernels[1].percent[kL2Write], (std::vector<double>{100.0}));
}

TEST(NcuCsvRaw, ReadsTheRawPageAndSkipsItsUnitsRow) {
  const NcuMeasurements m = read_ncu_csv(kData + "spmv_raw.csv");
  EXPECT_EQ(m.layout, NcuCsvLayout::kRaw);
  ASSERT_EQ(m.kernels.size(), 2u);
  EXPECT_EQ(m.kernels[0].launches, 2u);
  EXPECT_EQ(m.kernels[0].percent[kL1], (std::vector<double>{12.61, 13.39}));
  EXPECT_EQ(m.kernels[0].percent[kL2Read], (std::vector<double>{51.20, 52.80}));
  EXPECT_EQ(m.kernels[0].percent[kL2Write], (std::vector<double>{88.0}));
  EXPECT_EQ(m.kernels[1].percent[kL1], (std::vector<double>{0.0}));
  EXPECT_EQ(m.kernels[1].percent[kL2Write], (std::vector<double>{100.0}));
}

TEST(NcuCsvRaw, AcceptsARawPageWithOnlySomeMetricsAndNoUnitsRow) {
  const NcuMeasurements m = parse(
      "\"ID\",\"Kernel Name\",\"lts__t_sector_op_read_hit_rate.pct\"\n"
      "\"0\",\"k(int)\",\"1,000.00\"\n"
      "\"1\",\"k(int)\",\"50\"\n");
  ASSERT_EQ(m.kernels.size(), 1u);
  EXPECT_EQ(m.kernels[0].launches, 2u);
  EXPECT_EQ(m.kernels[0].percent[kL2Read], (std::vector<double>{1000.0, 50.0}));
  EXPECT_TRUE(m.kernels[0].percent[kL1].empty());
}

TEST(NcuCsvDetails, FindsColumnsByNameNotPosition) {
  // Older Nsight Compute versions: a "Kernel Time" column, no block/grid/device columns.
  const NcuMeasurements m = parse(
      R"("ID","Process ID","Process Name","Host Name","Kernel Name","Kernel Time","Context",)"
      R"("Stream","Section Name","Metric Name","Metric Unit","Metric Value")"
      "\n"
      R"("0","77","app","host","vecAdd","2021-Jan-01 10:00:00","1","7","Command line profiler )"
      R"(metrics","l1tex__t_sector_hit_rate.pct","%","33.33")"
      "\n");
  ASSERT_EQ(m.kernels.size(), 1u);
  EXPECT_EQ(m.kernels[0].name, "vecAdd");
  EXPECT_EQ(m.kernels[0].percent[kL1], (std::vector<double>{33.33}));
}

TEST(NcuCsvDetails, KeepsTheFirstValueOfAMetricRepeatedInAnotherSection) {
  const NcuMeasurements m =
      parse(kDetailsHeader + details_row(0, "k", "l1tex__t_sector_hit_rate.pct", "40") +
            details_row(0, "k", "l1tex__t_sector_hit_rate.pct", "40.00"));
  EXPECT_EQ(m.kernels[0].launches, 1u);
  EXPECT_EQ(m.kernels[0].percent[kL1], (std::vector<double>{40.0}));
}

TEST(NcuCsvDetails, WithoutAnIdColumnTheNthRowOfAMetricIsTheNthLaunch) {
  const NcuMeasurements m = parse(
      "\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"k\",\"l1tex__t_sector_hit_rate.pct\",\"%\",\"10\"\n"
      "\"k\",\"lts__t_sector_op_read_hit_rate.pct\",\"%\",\"60\"\n"
      "\"k\",\"l1tex__t_sector_hit_rate.pct\",\"%\",\"20\"\n");
  EXPECT_EQ(m.kernels[0].launches, 2u);
  EXPECT_EQ(m.kernels[0].percent[kL1], (std::vector<double>{10.0, 20.0}));
  EXPECT_EQ(m.kernels[0].percent[kL2Read], (std::vector<double>{60.0}));
}

TEST(NcuCsvDetails, ToleratesCrlfAByteOrderMarkAndToolLinesAfterTheTable) {
  const NcuMeasurements m =
      parse("\xEF\xBB\xBF==PROF== Connected to process 1 (/app)\r\n" + kDetailsHeader +
            details_row(0, "k", "l1tex__t_sector_hit_rate.pct", "40") + "\r\n" +
            "==WARNING== Found outstanding GPU clock reset, trying to revert...\n\n");
  EXPECT_EQ(m.kernels[0].percent[kL1], (std::vector<double>{40.0}));
  EXPECT_EQ(m.skipped_lines, 2u);
}

TEST(NcuCsvDetails, AQuotedFieldMaySpanLines) {
  const NcuMeasurements m = parse(
      "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\",\"Rule Description\"\n"
      "\"0\",\"k\",\"l1tex__t_sector_hit_rate.pct\",\"40\",\"first line\nsecond \"\"quoted\"\" "
      "line\"\n");
  EXPECT_EQ(m.kernels[0].percent[kL1], (std::vector<double>{40.0}));
}

TEST(NcuCsvErrors, AMalformedLineIsNamedWithFileAndLine) {
  const std::string csv = "==PROF== Connected to process 1 (/app)\n" + kDetailsHeader +
                          details_row(0, "k", "l1tex__t_sector_hit_rate.pct", "40") +
                          "\"1\",\"5120\",\"app\"\n" +
                          details_row(1, "k", "l1tex__t_sector_hit_rate.pct", "41");
  EXPECT_EQ(parse_error(csv),
            "metrics.csv:4: expected 15 fields as in the header on line 2, found 3");
  // A quote left open swallows the lines after it; the record is reported where it starts.
  EXPECT_EQ(parse_error(kDetailsHeader + "\"1\",\"5120\",\"app\",\"truncated row\n" +
                        details_row(1, "k", "l1tex__t_sector_hit_rate.pct", "41")),
            "metrics.csv:2: a quoted field opened on this line is never closed");
  EXPECT_EQ(parse_error(kDetailsHeader + "\"0\",\"a\"\n"),
            "metrics.csv:2: expected 15 fields as in the header on line 1, found 2");
  EXPECT_EQ(parse_error(kDetailsHeader + "\"0\",\"a\n"),
            "metrics.csv:2: a quoted field opened on this line is never closed");
  EXPECT_EQ(parse_error(kDetailsHeader + "\"0\"x,\"a\"\n"),
            "metrics.csv:2: expected ',' after the quoted field ending at column 3, found 'x'");
}

TEST(NcuCsvErrors, AMalformedValueOfAComparedMetricIsNamed) {
  EXPECT_EQ(parse_error(kDetailsHeader + details_row(0, "k", "l1tex__t_sector_hit_rate.pct", "40") +
                        details_row(0, "k", "lts__t_sector_op_read_hit_rate.pct", "4O.5")),
            "metrics.csv:3: the value of lts__t_sector_op_read_hit_rate.pct is \"4O.5\", expected "
            "a number or n/a");
  // Values of metrics that are not compared are not looked at.
  EXPECT_NO_THROW(parse(kDetailsHeader + details_row(0, "k", "l1tex__t_sector_hit_rate.pct", "40") +
                        details_row(0, "k", "sm__cycles_elapsed.avg", "(!) overflow")));
}

TEST(NcuCsvErrors, AnEmptyKernelNameIsAnError) {
  EXPECT_EQ(parse_error(kDetailsHeader + details_row(0, "", "l1tex__t_sector_hit_rate.pct", "40")),
            "metrics.csv:2: the \"Kernel Name\" field is empty");
}

TEST(NcuCsvErrors, ATableWithoutHeaderRowsOrMetricsIsRefused) {
  EXPECT_EQ(parse_error("==PROF== No kernels were profiled.\n"),
            "metrics.csv: no Nsight Compute table: expected a header row with a \"Kernel Name\" "
            "column, as `ncu --csv --metrics l1tex__t_sector_hit_rate.pct,"
            "lts__t_sector_op_read_hit_rate.pct,lts__t_sector_op_write_hit_rate.pct` writes");
  EXPECT_EQ(parse_error(kDetailsHeader),
            "metrics.csv: the table whose header is on line 1 has no kernel rows");
  EXPECT_EQ(parse_error(kDetailsHeader + details_row(0, "k", "dram__bytes_read.sum", "1,024")),
            "metrics.csv: no row has any of the compared metrics (l1tex__t_sector_hit_rate.pct,"
            "lts__t_sector_op_read_hit_rate.pct,lts__t_sector_op_write_hit_rate.pct); collect "
            "them with ncu --csv --metrics");
  EXPECT_EQ(
      parse_error("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Minimum\",\"Maximum\","
                  "\"Average\"\n"),
      "metrics.csv:1: the header has a \"Metric Name\" column but no \"Metric Value\" "
      "(summary output such as --print-summary is not read; profile without it)");
  EXPECT_EQ(parse_error("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"5\"\n"),
            "metrics.csv:1: the header has neither \"Metric Name\" and \"Metric Value\" columns "
            "(--page details) nor a column for any of l1tex__t_sector_hit_rate.pct,"
            "lts__t_sector_op_read_hit_rate.pct,lts__t_sector_op_write_hit_rate.pct (--page raw)");
}

TEST(NcuCsvErrors, AMissingFileIsNamed) {
  EXPECT_THROW(
      {
        try {
          read_ncu_csv(kData + "no-such.csv");
        } catch (const CompareInputError& e) {
          EXPECT_EQ(std::string(e.what()), kData + "no-such.csv: cannot open the file");
          throw;
        }
      },
      CompareInputError);
}

}  // namespace
