// Comparing two memcarlo reports field by field apart from their `performance` sections (the
// top-level one and each sweep point's), for the tests that check that a run spread over MPI ranks
// or shards gives the one-process report.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace memcarlo::test_support {

/// `report` without its `performance` sections, wherever they are.
inline nlohmann::json without_performance(nlohmann::json report) {
  if (report.is_object()) {
    report.erase("performance");
    for (auto& [key, value] : report.items()) {
      value = without_performance(value);
    }
  } else if (report.is_array()) {
    for (auto& value : report) {
      value = without_performance(value);
    }
  }
  return report;
}

/// The paths where the two reports differ (performance left out), at most 10, for a test message.
inline std::string report_differences(const nlohmann::json& a, const nlohmann::json& b) {
  const nlohmann::json patch = nlohmann::json::diff(without_performance(a), without_performance(b));
  std::string text;
  for (std::size_t i = 0; i < patch.size() && i < 10; ++i) {
    text += patch[i].dump() + "\n";
  }
  return text;
}

}  // namespace memcarlo::test_support

/// Both reports hold the same fields with the same values, `performance` apart.
#define EXPECT_SAME_REPORT(a, b)                                \
  EXPECT_TRUE(memcarlo::test_support::without_performance(a) == \
              memcarlo::test_support::without_performance(b))   \
      << memcarlo::test_support::report_differences(a, b)
