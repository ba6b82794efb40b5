// Reading a JSON document that another tool or an earlier run wrote, with errors that name the
// file and the key: the base of the report readers of `memcarlo compare` and `memcarlo diff`
// (not installed). `Error` is the exception type the reader's command turns into exit code 2.
#pragma once

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <sstream>
#include <string_view>

namespace memcarlo::reports {

/// The report schema version (`"schema"`) the readers of compare and diff accept.
inline constexpr int kReadableReportSchema = 1;

/// The whole file at `path`; Error("PATH: cannot open the file") when it cannot be opened.
template <class Error>
std::string read_report_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(path + ": cannot open the file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

template <class Error>
class CheckedJson {
 public:
  explicit CheckedJson(const std::string& path) : path_(path) {}

  /// Throws Error("PATH: PLACE: MESSAGE"); PLACE is a dotted key path such as loads[3].kind.
  [[noreturn]] void fail(const std::string& place, const std::string& message) const {
    throw Error(path_ + ": " + (place.empty() ? "" : place + ": ") + message);
  }

  static std::string join(const std::string& place, std::string_view key) {
    return place.empty() ? std::string(key) : place + "." + std::string(key);
  }

  const nlohmann::json& member(const nlohmann::json& object, const std::string& place,
                               std::string_view key) const {
    if (!object.is_object()) {
      fail(place, "expected an object");
    }
    const auto it = object.find(key);
    if (it == object.end()) {
      fail(join(place, key), "missing");
    }
    return *it;
  }

  double number(const nlohmann::json& value, const std::string& place) const {
    if (!value.is_number()) {
      fail(place, "expected a number, found " + value.dump());
    }
    return value.get<double>();
  }

  std::uint64_t count(const nlohmann::json& value, const std::string& place) const {
    if (!value.is_number_unsigned()) {
      fail(place, "expected a non-negative integer, found " + value.dump());
    }
    return value.get<std::uint64_t>();
  }

  std::string text(const nlohmann::json& value, const std::string& place) const {
    if (!value.is_string()) {
      fail(place, "expected a string, found " + value.dump());
    }
    return value.get<std::string>();
  }

  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  const std::string& path_;
};

}  // namespace memcarlo::reports
