// The Nsight Compute CSV reader: `ncu --csv` output, details or raw page, into per-kernel,
// per-launch percentages of the compared metrics.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <variant>

#include "memcarlo/reports/ncu_compare.hpp"
#include "ncu_text.hpp"

namespace memcarlo::reports {
namespace {

using ncu_text::quoted;
using ncu_text::trim;

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::optional<std::size_t> compared_metric_index(std::string_view ncu_metric) {
  for (std::size_t m = 0; m < kComparedMetrics.size(); ++m) {
    if (kComparedMetrics[m].ncu_metric == ncu_metric) {
      return m;
    }
  }
  return std::nullopt;
}

std::string compared_metric_list() {
  std::string list;
  for (const ComparedMetric& metric : kComparedMetrics) {
    list += (list.empty() ? "" : ",") + std::string(metric.ncu_metric);
  }
  return list;
}

/// Splits one CSV record (RFC 4180: fields quoted or not, "" inside quotes for a quote; blanks
/// around a quoted field tolerated). Returns an error message instead when the record is malformed.
std::variant<std::vector<std::string>, std::string> split_csv(std::string_view record) {
  std::vector<std::string> fields;
  std::size_t at = 0;
  while (true) {
    std::string field;
    while (at < record.size() && (record[at] == ' ' || record[at] == '\t')) {
      ++at;
    }
    if (at < record.size() && record[at] == '"') {
      const std::size_t opened = at++;
      while (true) {
        if (at >= record.size()) {
          return "the quoted field opened at column " + std::to_string(opened + 1) +
                 " is never closed";
        }
        if (record[at] == '"') {
          if (at + 1 < record.size() && record[at + 1] == '"') {
            field.push_back('"');
            at += 2;
            continue;
          }
          ++at;
          break;
        }
        field.push_back(record[at++]);
      }
      while (at < record.size() && (record[at] == ' ' || record[at] == '\t')) {
        ++at;
      }
      if (at < record.size() && record[at] != ',') {
        return "expected ',' after the quoted field ending at column " + std::to_string(at) +
               ", found '" + std::string(1, record[at]) + "'";
      }
    } else {
      const std::size_t end = std::min(record.find(',', at), record.size());
      const std::string_view raw = record.substr(at, end - at);
      if (raw.find('"') != std::string_view::npos) {
        return "a quote inside the unquoted field at column " + std::to_string(at + 1);
      }
      field = std::string(trim(raw));
      at = end;
    }
    fields.push_back(std::move(field));
    if (at >= record.size()) {
      return fields;
    }
    ++at;  // the comma
  }
}

/// Launch-by-launch values of one kernel name while the CSV is read.
struct KernelRows {
  std::string name;
  std::map<std::string, std::size_t> launch_of_key;
  std::vector<std::array<std::optional<double>, kComparedMetrics.size()>> values;
  std::vector<std::array<bool, kComparedMetrics.size()>> seen;
  std::array<std::uint32_t, kComparedMetrics.size()> unkeyed_rows{};

  std::size_t launch(const std::string& key) {
    const auto [it, inserted] = launch_of_key.emplace(key, values.size());
    if (inserted) {
      values.emplace_back();
      seen.emplace_back();
    }
    return it->second;
  }
};

class NcuCsvParser {
 public:
  NcuCsvParser(std::istream& in, const std::string& path) : in_(in), path_(path) {}

  NcuMeasurements parse() {
    find_header();
    std::string record;
    while (next_record(record)) {
      const auto split = split_csv(record);
      if (const auto* error = std::get_if<std::string>(&split)) {
        fail(record_line_, *error);
      }
      const auto& fields = std::get<std::vector<std::string>>(split);
      if (fields.size() != header_.size()) {
        fail(record_line_, "expected " + std::to_string(header_.size()) +
                               " fields as in the header on line " + std::to_string(header_line_) +
                               ", found " + std::to_string(fields.size()));
      }
      if (result_.layout == NcuCsvLayout::kDetails) {
        details_row(fields);
      } else {
        raw_row(fields);
      }
      ++data_rows_;
    }
    return finish();
  }

 private:
  [[noreturn]] void fail(std::uint32_t line, const std::string& message) const {
    throw CompareInputError(path_ + ":" + std::to_string(line) + ": " + message);
  }

  bool next_line(std::string& line) {
    if (!std::getline(in_, line)) {
      return false;
    }
    ++line_number_;
    if (line_number_ == 1 && line.starts_with("\xEF\xBB\xBF")) {
      line.erase(0, 3);  // a UTF-8 byte-order mark
    }
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    return true;
  }

  static bool is_tool_line(std::string_view line) { return trim(line).starts_with("=="); }

  /// Skips ==PROF== lines and application output up to the first row naming "Kernel Name".
  void find_header() {
    std::string line;
    while (next_line(line)) {
      if (trim(line).empty() || is_tool_line(line)) {
        ++result_.skipped_lines;
        continue;
      }
      const auto split = split_csv(line);
      const auto* fields = std::get_if<std::vector<std::string>>(&split);
      if (fields == nullptr ||
          std::find(fields->begin(), fields->end(), "Kernel Name") == fields->end()) {
        ++result_.skipped_lines;
        continue;
      }
      header_ = *fields;
      header_line_ = line_number_;
      classify_header();
      return;
    }
    throw CompareInputError(path_ +
                            ": no Nsight Compute table: expected a header row with a "
                            "\"Kernel Name\" column, as `ncu --csv --metrics " +
                            compared_metric_list() + "` writes");
  }

  std::optional<std::size_t> column(std::string_view name) const {
    const auto it = std::find(header_.begin(), header_.end(), name);
    return it == header_.end()
               ? std::nullopt
               : std::optional<std::size_t>(static_cast<std::size_t>(it - header_.begin()));
  }

  void classify_header() {
    kernel_column_ = *column("Kernel Name");
    id_column_ = column("ID");
    process_column_ = column("Process ID");
    metric_name_column_ = column("Metric Name");
    metric_value_column_ = column("Metric Value");
    for (std::size_t m = 0; m < kComparedMetrics.size(); ++m) {
      metric_columns_[m] = column(kComparedMetrics[m].ncu_metric);
    }
    const bool any_metric_column =
        std::any_of(metric_columns_.begin(), metric_columns_.end(),
                    [](const std::optional<std::size_t>& c) { return c.has_value(); });
    if (metric_name_column_ && metric_value_column_) {
      result_.layout = NcuCsvLayout::kDetails;
    } else if (metric_name_column_) {
      fail(header_line_,
           "the header has a \"Metric Name\" column but no \"Metric Value\" "
           "(summary output such as --print-summary is not read; profile without it)");
    } else if (any_metric_column) {
      result_.layout = NcuCsvLayout::kRaw;
    } else {
      fail(header_line_,
           "the header has neither \"Metric Name\" and \"Metric Value\" columns (--page "
           "details) nor a column for any of " +
               compared_metric_list() + " (--page raw)");
    }
  }

  /// The next CSV record after the header: blank and ==PROF== lines skipped, a quoted field may
  /// span lines. record_line_ is the line it starts on.
  bool next_record(std::string& record) {
    std::string line;
    while (next_line(line)) {
      if (trim(line).empty()) {
        continue;
      }
      if (is_tool_line(line)) {
        ++result_.skipped_lines;
        continue;
      }
      record = line;
      record_line_ = line_number_;
      // An odd number of quotes leaves a quoted field open: it continues on the next line.
      while (std::count(record.begin(), record.end(), '"') % 2 != 0) {
        if (!next_line(line)) {
          fail(record_line_, "a quoted field opened on this line is never closed");
        }
        record += "\n" + line;
      }
      return true;
    }
    return false;
  }

  std::string launch_key(const std::vector<std::string>& fields) const {
    std::string key;
    if (process_column_) {
      key = fields[*process_column_] + "/";
    }
    return id_column_ ? key + fields[*id_column_] : std::string();
  }

  KernelRows& kernel(const std::string& name) {
    const auto [it, inserted] = kernel_of_name_.emplace(name, kernels_.size());
    if (inserted) {
      kernels_.emplace_back().name = name;
    }
    return kernels_[it->second];
  }

  std::string kernel_name(const std::vector<std::string>& fields) const {
    const std::string name(trim(fields[kernel_column_]));
    if (name.empty()) {
      fail(record_line_, "the \"Kernel Name\" field is empty");
    }
    return name;
  }

  std::optional<double> value(const std::string& text, std::size_t metric) const {
    try {
      return parse_ncu_number(text);
    } catch (const std::invalid_argument& e) {
      fail(record_line_,
           "the value of " + std::string(kComparedMetrics[metric].ncu_metric) + " " + e.what());
    }
  }

  void details_row(const std::vector<std::string>& fields) {
    KernelRows& rows = kernel(kernel_name(fields));
    const std::optional<std::size_t> metric =
        compared_metric_index(trim(fields[*metric_name_column_]));
    std::string key = launch_key(fields);
    if (!metric) {
      if (!key.empty()) {
        rows.launch(key);  // a launch seen only through other metrics still counts
      }
      return;
    }
    ++metric_rows_;
    if (key.empty()) {
      // Without an ID column, the n-th row of a metric belongs to the kernel's n-th launch.
      key = "#" + std::to_string(rows.unkeyed_rows[*metric]++);
    }
    const std::size_t launch = rows.launch(key);
    if (rows.seen[launch][*metric]) {
      return;  // the same metric in a second section: the first value stands
    }
    rows.seen[launch][*metric] = true;
    rows.values[launch][*metric] = value(fields[*metric_value_column_], *metric);
  }

  void raw_row(const std::vector<std::string>& fields) {
    const bool identity_empty =
        trim(fields[kernel_column_]).empty() && (!id_column_ || trim(fields[*id_column_]).empty());
    if (data_rows_ == 0 && identity_empty) {
      return;  // the units row ("", "", ..., "%") that follows a raw page's header
    }
    KernelRows& rows = kernel(kernel_name(fields));
    std::string key = launch_key(fields);
    const std::size_t launch = rows.launch(key.empty() ? "#" + std::to_string(data_rows_) : key);
    for (std::size_t m = 0; m < kComparedMetrics.size(); ++m) {
      if (metric_columns_[m] && !rows.seen[launch][m]) {
        rows.seen[launch][m] = true;
        rows.values[launch][m] = value(fields[*metric_columns_[m]], m);
      }
    }
  }

  NcuMeasurements finish() {
    if (kernels_.empty()) {
      throw CompareInputError(path_ + ": the table whose header is on line " +
                              std::to_string(header_line_) + " has no kernel rows");
    }
    if (result_.layout == NcuCsvLayout::kDetails && metric_rows_ == 0) {
      throw CompareInputError(path_ + ": no row has any of the compared metrics (" +
                              compared_metric_list() + "); collect them with ncu --csv --metrics");
    }
    for (const KernelRows& rows : kernels_) {
      NcuKernel out;
      out.name = rows.name;
      out.launches = static_cast<std::uint32_t>(rows.values.size());
      for (const auto& launch : rows.values) {
        for (std::size_t m = 0; m < kComparedMetrics.size(); ++m) {
          if (launch[m]) {
            out.percent[m].push_back(*launch[m]);
          }
        }
      }
      result_.kernels.push_back(std::move(out));
    }
    return std::move(result_);
  }

  std::istream& in_;
  const std::string& path_;
  NcuMeasurements result_;
  std::vector<std::string> header_;
  std::uint32_t header_line_ = 0;
  std::uint32_t line_number_ = 0;
  std::uint32_t record_line_ = 0;
  std::uint64_t data_rows_ = 0;
  std::uint64_t metric_rows_ = 0;
  std::size_t kernel_column_ = 0;
  std::optional<std::size_t> id_column_;
  std::optional<std::size_t> process_column_;
  std::optional<std::size_t> metric_name_column_;
  std::optional<std::size_t> metric_value_column_;
  std::array<std::optional<std::size_t>, kComparedMetrics.size()> metric_columns_{};
  std::map<std::string, std::size_t> kernel_of_name_;
  std::vector<KernelRows> kernels_;
};

}  // namespace

std::optional<double> parse_ncu_number(std::string_view text) {
  text = trim(text);
  if (text.empty() || iequals(text, "n/a")) {
    return std::nullopt;
  }
  const auto malformed = [&] {
    return std::invalid_argument("is " + quoted(text) + ", expected a number or n/a");
  };
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::string digits;
  const std::size_t point = std::min(text.find('.'), text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != ',') {
      digits.push_back(text[i]);
      continue;
    }
    // A thousands separator follows a digit, precedes the decimal point and exactly three digits.
    const std::size_t next = std::min(text.find(',', i + 1), point);
    if (i == 0 || !is_digit(text[i - 1]) || i > point || next - i != 4 ||
        !std::all_of(text.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                     text.begin() + static_cast<std::ptrdiff_t>(next), is_digit)) {
      throw malformed();
    }
  }
  const char* begin = digits.data();
  const char* end = digits.data() + digits.size();
  if (begin != end && *begin == '+') {
    ++begin;
  }
  double value = 0;
  const auto [stop, status] = std::from_chars(begin, end, value);
  if (status != std::errc() || stop != end || !std::isfinite(value)) {
    throw malformed();
  }
  return value;
}

NcuMeasurements parse_ncu_csv(std::istream& in, const std::string& path) {
  NcuMeasurements measurements = NcuCsvParser(in, path).parse();
  measurements.path = path;
  return measurements;
}

NcuMeasurements read_ncu_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw CompareInputError(path + ": cannot open the file");
  }
  return parse_ncu_csv(in, path);
}

}  // namespace memcarlo::reports
