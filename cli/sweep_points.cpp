// The points of `memcarlo sweep`: the Cartesian product or the zip of --vary lists, or the list of
// a --points file; each a list of KEY=VALUE settings.
#include "sweep_points.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "commands.hpp"

namespace memcarlo::cli {
namespace {

/// KEY=V1,V2,... split at the commas outside brackets, so that a list value ([0,8192]) stays whole.
std::pair<std::string, std::vector<std::string>> parse_vary(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    throw UserError("--vary " + text + ": expected KEY=V1,V2,..., e.g. l1.size=16KiB,48KiB", 2);
  }
  std::vector<std::string> values;
  std::string current;
  int depth = 0;
  for (const char c : text.substr(equals + 1)) {
    depth += c == '[' || c == '{' ? 1 : (c == ']' || c == '}' ? -1 : 0);
    if (c == ',' && depth == 0) {
      values.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  values.push_back(current);
  for (const std::string& value : values) {
    if (value.empty()) {
      throw UserError("--vary " + text + ": an empty value in the list", 2);
    }
  }
  return {text.substr(0, equals), values};
}

}  // namespace

/// The points of --vary lists: their Cartesian product (the last list varies fastest), or with
/// --zip the i-th value of every list together.
std::vector<Parameters> vary_points(const std::vector<std::string>& vary, bool zip) {
  std::vector<std::pair<std::string, std::vector<std::string>>> lists;
  std::set<std::string> keys;
  for (const std::string& text : vary) {
    lists.push_back(parse_vary(text));
    if (!keys.insert(lists.back().first).second) {
      throw UserError("--vary " + lists.back().first + " is given twice", 2);
    }
  }
  std::vector<Parameters> points;
  if (zip) {
    for (const auto& list : lists) {
      if (list.second.size() != lists.front().second.size()) {
        throw UserError("--zip needs lists of one length: --vary " + lists.front().first + " has " +
                            std::to_string(lists.front().second.size()) + " values, --vary " +
                            list.first + " has " + std::to_string(list.second.size()),
                        2);
      }
    }
    for (std::size_t i = 0; i < lists.front().second.size(); ++i) {
      Parameters point;
      for (const auto& [key, values] : lists) {
        point.emplace_back(key, values[i]);
      }
      points.push_back(std::move(point));
    }
    return points;
  }
  points.emplace_back();
  for (const auto& [key, values] : lists) {
    std::vector<Parameters> next;
    for (const Parameters& prefix : points) {
      for (const std::string& value : values) {
        Parameters point = prefix;
        point.emplace_back(key, value);
        next.push_back(std::move(point));
      }
    }
    points = std::move(next);
  }
  return points;
}

/// --points FILE: a JSON array of objects, key -> value (a string as --set reads it, or any JSON
/// value).
std::vector<Parameters> file_points(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw UserError("--points " + path + ": cannot read the file", 2);
  }
  nlohmann::ordered_json document;
  try {
    document = nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw UserError("--points " + path + ": not JSON: " + e.what(), 2);
  }
  if (!document.is_array() || document.empty()) {
    throw UserError("--points " + path +
                        ": expected a non-empty array of objects such as "
                        "[{\"l1.size\": \"16KiB\"}, {\"l1.size\": \"48KiB\"}]",
                    2);
  }
  std::vector<Parameters> points;
  for (std::size_t i = 0; i < document.size(); ++i) {
    if (!document[i].is_object()) {
      throw UserError(
          "--points " + path + ": point " + std::to_string(i) + " is not an object of key -> value",
          2);
    }
    Parameters point;
    for (const auto& [key, value] : document[i].items()) {
      point.emplace_back(key, value.is_string() ? value.get<std::string>() : value.dump());
    }
    points.push_back(std::move(point));
  }
  return points;
}

std::string parameters_text(const Parameters& point) {
  std::string text;
  for (std::size_t i = 0; i < point.size(); ++i) {
    text += (i == 0 ? "" : ", ") + point[i].first + "=" + point[i].second;
  }
  return text;
}

std::string describe(std::size_t index, const Parameters& point) {
  return "point " + std::to_string(index) + " (" + parameters_text(point) + ")";
}

}  // namespace memcarlo::cli
