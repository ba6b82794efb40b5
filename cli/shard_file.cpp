// Shard files of --shard I/N and their merge (shard_file.hpp).
#include "shard_file.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>

#include "commands.hpp"
#include "memcarlo/sim/trial_result_io.hpp"

namespace memcarlo::cli {
namespace {

constexpr int kShardFormatVersion = 1;

std::uint32_t parse_count(std::string_view text, const std::string& whole) {
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    throw UserError("--shard " + whole + ": expected I/N with 0 <= I < N, e.g. --shard 0/4", 2);
  }
  return value;
}

/// The first place where `a` and `b` differ, as a dotted path ("hierarchy.l1.size",
/// "points[1]"), with the two values; empty when they are equal.
std::string first_difference(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b,
                             const std::string& path, std::string& value_a, std::string& value_b) {
  if (a.is_object() && b.is_object()) {
    for (const auto& [key, value] : a.items()) {
      const std::string inner = path.empty() ? key : path + "." + key;
      if (!b.contains(key)) {
        value_a = value.dump();
        value_b = "(absent)";
        return inner;
      }
      if (std::string found = first_difference(value, b.at(key), inner, value_a, value_b);
          !found.empty()) {
        return found;
      }
    }
    for (const auto& [key, value] : b.items()) {
      if (!a.contains(key)) {
        value_a = "(absent)";
        value_b = value.dump();
        return path.empty() ? key : path + "." + key;
      }
    }
    return {};
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    // The differing element whole (a sweep point is clearer than one of its strings).
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) {
        value_a = a[i].dump();
        value_b = b[i].dump();
        return path + "[" + std::to_string(i) + "]";
      }
    }
    return {};
  }
  if (a != b) {
    value_a = a.dump();
    value_b = b.dump();
    return path.empty() ? "the run" : path;
  }
  return {};
}

std::string shortened(const std::string& value) {
  return value.size() > 80 ? value.substr(0, 77) + "..." : value;
}

}  // namespace

ShardSpec parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) {
    throw UserError("--shard " + text + ": expected I/N with 0 <= I < N, e.g. --shard 0/4", 2);
  }
  ShardSpec shard{parse_count(std::string_view(text).substr(0, slash), text),
                  parse_count(std::string_view(text).substr(slash + 1), text)};
  if (shard.count == 0 || shard.index >= shard.count) {
    throw UserError("--shard " + text + ": expected I/N with 0 <= I < N, e.g. --shard 0/4", 2);
  }
  return shard;
}

std::string default_shard_path(const std::string& report, ShardSpec shard) {
  const std::string suffix =
      ".shard-" + std::to_string(shard.index) + "-of-" + std::to_string(shard.count) + ".json";
  const auto slash = report.find_last_of('/');
  const auto dot = report.find_last_of('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) {
    return report.substr(0, dot) + suffix;
  }
  return report + suffix;
}

void write_shard(const std::string& path, const ShardFile& shard) {
  nlohmann::ordered_json file;
  file["memcarlo_shard"] = kShardFormatVersion;
  file["shard"] = {{"index", shard.shard.index}, {"count", shard.shard.count}};
  file["run"] = shard.run;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (std::size_t p = 0; p < shard.points.size(); ++p) {
    std::vector<std::uint8_t> bytes;
    sim::append_trial_results(shard.points[p], bytes);
    points.push_back({{"wall_seconds", shard.wall_seconds.at(p)},
                      {"trials", shard.points[p].size()},
                      {"trial_results", sim::base64_encode(bytes)}});
  }
  file["threads"] = shard.threads;
  file["points"] = std::move(points);
  std::ofstream out(path);
  out << file.dump(1) << "\n";
  if (!out) {
    throw UserError("cannot write the shard file " + path, 1);
  }
}

ShardFile read_shard(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw UserError(path + ": cannot open the shard file", 2);
  }
  nlohmann::ordered_json file;
  try {
    file = nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw UserError(path + ": not a shard file (not JSON: " + e.what() + ")", 2);
  }
  if (!file.is_object() || !file.contains("memcarlo_shard")) {
    throw UserError(path +
                        ": not a shard file (no \"memcarlo_shard\" key); merge takes the files "
                        "that `memcarlo simulate|sweep --shard I/N` write",
                    2);
  }
  if (file["memcarlo_shard"] != kShardFormatVersion) {
    throw UserError(path + ": shard format " + file["memcarlo_shard"].dump() +
                        "; this memcarlo reads format " + std::to_string(kShardFormatVersion),
                    2);
  }
  ShardFile shard;
  shard.path = path;
  try {
    shard.shard.index = file.at("shard").at("index").get<std::uint32_t>();
    shard.shard.count = file.at("shard").at("count").get<std::uint32_t>();
    shard.run = file.at("run");
    shard.threads = file.at("threads").get<unsigned>();
    for (const auto& point : file.at("points")) {
      shard.points.push_back(sim::decode_trial_results(
          sim::base64_decode(point.at("trial_results").get<std::string>())));
      shard.wall_seconds.push_back(point.at("wall_seconds").get<double>());
      if (shard.points.back().size() != point.at("trials").get<std::size_t>()) {
        throw UserError(path + ": a point's trial count does not match its trial results", 2);
      }
    }
  } catch (const nlohmann::json::exception& e) {
    throw UserError(path + ": malformed shard file: " + e.what(), 2);
  } catch (const sim::TrialResultFormatError& e) {
    throw UserError(path + ": malformed shard file: " + e.what(), 2);
  }
  if (shard.shard.count == 0 || shard.shard.index >= shard.shard.count) {
    throw UserError(path + ": malformed shard file: shard " + shard.shard.text(), 2);
  }
  return shard;
}

MergedShards merge_shards(const std::vector<ShardFile>& shards) {
  if (shards.empty()) {
    throw UserError("merge: no shard files given", 1);
  }
  const ShardFile& first = shards.front();
  std::vector<const ShardFile*> by_index(first.shard.count, nullptr);
  for (const ShardFile& shard : shards) {
    std::string value_first;
    std::string value_shard;
    if (const std::string field =
            first_difference(first.run, shard.run, "", value_first, value_shard);
        !field.empty()) {
      throw UserError("merge: " + first.path + " and " + shard.path +
                          " are shards of different runs: " + field + " is " +
                          shortened(value_first) + " in " + first.path + " but " +
                          shortened(value_shard) + " in " + shard.path,
                      2);
    }
    if (shard.shard.count != first.shard.count) {
      throw UserError("merge: " + first.path + " is shard " + first.shard.text() + " but " +
                          shard.path + " is shard " + shard.shard.text() +
                          " (different shard counts)",
                      2);
    }
    const ShardFile*& slot = by_index[shard.shard.index];
    if (slot != nullptr) {
      throw UserError(
          "merge: " + slot->path + " and " + shard.path + " are both shard " + shard.shard.text(),
          2);
    }
    slot = &shard;
  }
  for (std::uint32_t i = 0; i < first.shard.count; ++i) {
    if (by_index[i] == nullptr) {
      throw UserError("merge: shard " + ShardSpec{i, first.shard.count}.text() +
                          " missing (every shard 0/" + std::to_string(first.shard.count) + " to " +
                          std::to_string(first.shard.count - 1) + "/" +
                          std::to_string(first.shard.count) + " is needed once)",
                      2);
    }
  }
  const std::uint32_t trials = first.run.at("trials").get<std::uint32_t>();
  const std::size_t point_count = first.points.size();
  MergedShards merged;
  merged.run = first.run;
  merged.threads = first.threads;
  merged.points.resize(point_count, std::vector<sim::TrialResult>(trials));
  merged.wall_seconds.assign(point_count, 0.0);
  const std::uint32_t count = first.shard.count;
  for (const ShardFile* shard : by_index) {
    const std::uint32_t index = shard->shard.index;
    const std::size_t expected = trials > index ? (trials - index + count - 1) / count : 0;
    if (shard->points.size() != point_count) {
      throw UserError("merge: " + shard->path + " holds " + std::to_string(shard->points.size()) +
                          " points; " + first.path + " holds " + std::to_string(point_count),
                      2);
    }
    for (std::size_t p = 0; p < point_count; ++p) {
      if (shard->points[p].size() != expected) {
        throw UserError("merge: " + shard->path + " holds " +
                            std::to_string(shard->points[p].size()) + " trials of point " +
                            std::to_string(p) + "; shard " + shard->shard.text() + " of " +
                            std::to_string(trials) + " trials has " + std::to_string(expected),
                        2);
      }
      for (std::size_t k = 0; k < expected; ++k) {
        merged.points[p][index + k * count] = shard->points[p][k];
      }
      merged.wall_seconds[p] = std::max(merged.wall_seconds[p], shard->wall_seconds[p]);
    }
  }
  return merged;
}

}  // namespace memcarlo::cli
