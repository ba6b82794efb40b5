// Shared by the HTML report tests: the report data and the scripts read back out of a page.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>

namespace memcarlo::test_support {

inline constexpr std::string_view kReportDataOpen =
    "<script type=\"application/json\" id=\"report-data\">";

/// The JSON text of the page's report-data element (empty when it has none).
inline std::string embedded_report_text(const std::string& page) {
  const auto begin = page.find(kReportDataOpen);
  if (begin == std::string::npos) {
    return {};
  }
  const auto start = begin + kReportDataOpen.size();
  const auto end = page.find("</script>", start);
  return end == std::string::npos ? std::string() : page.substr(start, end - start);
}

/// The report embedded in the page, parsed back.
inline nlohmann::json embedded_report(const std::string& page) {
  return nlohmann::json::parse(embedded_report_text(page));
}

inline std::size_t occurrences(std::string_view text, std::string_view part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string_view::npos; at = text.find(part, at + 1)) {
    ++n;
  }
  return n;
}

inline std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline const std::string kHtmlData = std::string(MEMCARLO_SOURCE_DIR) + "/tests/reports/data/";

}  // namespace memcarlo::test_support
