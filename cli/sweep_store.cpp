// --resume's store: one JSON file per finished sweep point (see sweep_store.hpp).
#include "sweep_store.hpp"

#include <fstream>

#include "commands.hpp"
#include "memcarlo/sim/latency_bins.hpp"

namespace memcarlo::cli {
namespace {

// 2: the points keep each load's pooled latency histogram; 3: the series hold every metric the
// sweep pairs (the prefetch group's without a prefetcher, the aggregate latency X). A point
// stored by an older version is run again.
constexpr int kStoreVersion = 3;

nlohmann::json series_json(const analysis::MetricSeries& series) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, values] : series) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& value : values) {
      list.push_back(value ? nlohmann::json(*value) : nlohmann::json(nullptr));
    }
    out[name] = std::move(list);
  }
  return out;
}

analysis::MetricSeries series_from_json(const nlohmann::json& in) {
  analysis::MetricSeries out;
  for (const auto& [name, values] : in.items()) {
    auto& list = out[name];
    for (const auto& value : values) {
      list.push_back(value.is_null() ? std::nullopt : std::optional<double>(value.get<double>()));
    }
  }
  return out;
}

}  // namespace

/// Writes the point to `path` atomically: a temporary file in the same directory, then a rename,
/// so that a killed sweep leaves either the whole point or none of it.
void store_point(const std::filesystem::path& path, const nlohmann::json& fingerprint,
                 const StoredPoint& point) {
  nlohmann::json out;
  out["schema"] = "memcarlo-sweep-point";
  out["version"] = kStoreVersion;
  out["fingerprint"] = fingerprint;
  out["converged"] = point.converged;
  out["wall_seconds"] = point.wall_seconds;
  out["trials"] = point.series.trials;
  nlohmann::json groups = nlohmann::json::array();
  for (const sim::CounterGroup* group : point.series.counter_groups) {
    groups.push_back(std::string(group->name));
  }
  out["counter_groups"] = groups;
  out["overall"] = series_json(point.series.overall);
  nlohmann::json loads = nlohmann::json::object();
  for (const auto& [id, metrics] : point.series.loads) {
    loads[std::to_string(id)] = series_json(metrics);
  }
  out["loads"] = loads;
  nlohmann::json latency = nlohmann::json::object();
  for (const auto& [id, counts] : point.series.latency_histograms) {
    latency[std::to_string(id)] = counts;
  }
  out["latency_histograms"] = latency;
  const std::filesystem::path temporary = path.string() + ".partial";
  {
    std::ofstream file(temporary);
    file << out.dump() << "\n";
    if (!file) {
      throw UserError("cannot write " + temporary.string(), 1);
    }
  }
  std::filesystem::rename(temporary, path);
}

/// The stored point at `path` when it exists, reads and has this fingerprint.
std::optional<StoredPoint> load_point(const std::filesystem::path& path,
                                      const nlohmann::json& fingerprint) {
  std::ifstream file(path);
  if (!file) {
    return std::nullopt;
  }
  try {
    const nlohmann::json in = nlohmann::json::parse(file);
    if (in.at("schema") != "memcarlo-sweep-point" || in.at("version") != kStoreVersion ||
        in.at("fingerprint") != fingerprint) {
      return std::nullopt;
    }
    StoredPoint point;
    point.converged = in.at("converged").get<bool>();
    point.wall_seconds = in.at("wall_seconds").get<double>();
    point.series.trials = in.at("trials").get<std::uint64_t>();
    for (const auto& name : in.at("counter_groups")) {
      for (const sim::CounterGroup* group : sim::kCounterGroups) {
        if (group->name == name.get<std::string>()) {
          point.series.counter_groups.push_back(group);
        }
      }
    }
    point.series.overall = series_from_json(in.at("overall"));
    for (const auto& [id, metrics] : in.at("loads").items()) {
      point.series.loads[static_cast<std::uint32_t>(std::stoul(id))] = series_from_json(metrics);
    }
    for (const auto& [id, counts] : in.at("latency_histograms").items()) {
      auto& stored = point.series.latency_histograms[static_cast<std::uint32_t>(std::stoul(id))];
      stored = counts.get<std::vector<std::uint64_t>>();
      if (stored.size() != sim::latency::kRowSize) {
        return std::nullopt;  // another bin layout: run the point again
      }
    }
    return point;
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable or from another version: run the point again
  }
}

}  // namespace memcarlo::cli
