// Loads a hierarchy from a preset or a JSON file, applies --set overrides, and validates the
// geometry so that the engine can rely on it (powers of two, divisibility, sizes that add up).
#include "memcarlo/sim/hierarchy_loader.hpp"

#include <bit>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "hierarchy_schema.hpp"
#include "prefetch/builtin.hpp"
#include "presets.hpp"

namespace memcarlo::sim {
namespace {

using detail::find_parameter;
using nlohmann::json;

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string unknown_key_message(const std::string& where, const std::string& key) {
  std::string best;
  std::size_t best_distance = 4;
  for (const auto& p : detail::parameters()) {
    const std::size_t d = edit_distance(key, p.info.key);
    if (d < best_distance) {
      best_distance = d;
      best = p.info.key;
    }
  }
  std::string message = where + key + ": unknown key";
  if (!best.empty()) {
    message += "; did you mean " + best + "?";
  }
  return message + " (`memcarlo hierarchy keys` lists every key)";
}

void flatten(const json& object, const std::string& prefix,
             std::vector<std::pair<std::string, json>>& out) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object()) {
      flatten(*it, key, out);
    } else {
      out.emplace_back(key, *it);
    }
  }
}

const detail::Preset* find_preset(const std::string& name) {
  for (const auto& preset : detail::presets()) {
    if (preset.name == name) {
      return &preset;
    }
  }
  return nullptr;
}

std::string preset_list() {
  std::string names;
  for (const auto& preset : detail::presets()) {
    names += (names.empty() ? "" : ", ") + preset.name;
  }
  return names;
}

void apply(HierarchyConfig& config, const std::string& key, const json& value,
           const std::string& where) {
  const auto* parameter = find_parameter(key);
  if (parameter == nullptr) {
    throw ConfigError(unknown_key_message(where, key));
  }
  parameter->set(config, value, where);
}

HierarchyConfig from_preset(const detail::Preset& preset) {
  HierarchyConfig config;
  for (const auto& [key, value] : preset.values) {
    apply(config, key, value, "preset " + preset.name + ": ");
  }
  return config;
}

HierarchyConfig from_file(const std::string& path, std::vector<std::string>* defaulted) {
  std::ifstream in(path);
  if (!in) {
    throw ConfigError(
        path + ": cannot read the hierarchy file (and it is not a preset: " + preset_list() + ")");
  }
  std::stringstream text;
  text << in.rdbuf();
  json document;
  try {
    document = json::parse(text.str());
  } catch (const json::parse_error& e) {
    throw ConfigError(path + ": not valid JSON at byte " + std::to_string(e.byte) + ": " +
                      e.what());
  } catch (const json::exception& e) {  // out_of_range: a number beyond a double's range
    throw ConfigError(path + ": not valid JSON: " + e.what());
  }
  if (!document.is_object()) {
    throw ConfigError(path + ": expected a JSON object of hierarchy parameters");
  }
  const std::string where = path + ": ";
  HierarchyConfig config;
  std::set<std::string> provided;
  if (auto base = document.find("base"); base != document.end()) {
    if (!base->is_string() || find_preset(base->get<std::string>()) == nullptr) {
      throw ConfigError(where + "base: expected one of " + preset_list() + "; got " + base->dump());
    }
    config = from_preset(*find_preset(base->get<std::string>()));
    for (const auto& p : detail::parameters()) {
      provided.insert(p.info.key);
    }
    document.erase("base");
  }
  std::vector<std::pair<std::string, json>> entries;
  flatten(document, "", entries);
  for (const auto& [key, value] : entries) {
    apply(config, key, value, where);
    provided.insert(key);
  }
  std::string missing;
  for (const auto& p : detail::parameters()) {
    if (!provided.contains(p.info.key) && p.info.key != "description" && !p.info.optional) {
      missing += (missing.empty() ? "" : ", ") + p.info.key;
    }
    if (!provided.contains(p.info.key) && p.info.added_later && defaulted != nullptr) {
      defaulted->push_back(p.info.key + "=" + p.info.fallback);
    }
  }
  if (!missing.empty()) {
    throw ConfigError(where + "missing keys: " + missing +
                      " (or set \"base\" to a preset to inherit them: " + preset_list() + ")");
  }
  return config;
}

json parse_override_value(const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::exception&) {  // parse_error, or out_of_range (1e999)
    return json(text);                // bare words and sizes such as 48KiB
  }
}

void require(bool ok, const std::string& where, const std::string& what) {
  if (!ok) {
    throw ConfigError(where + what);
  }
}

void validate_cache(const CacheConfig& c, const std::string& level, const std::string& where) {
  const std::string p = level + ".";
  require(std::has_single_bit(c.line), where,
          p + "line: must be a power of two; got " + std::to_string(c.line));
  require(std::has_single_bit(c.sector) && c.sector <= c.line && c.line % c.sector == 0, where,
          p + "sector: must be a power of two that divides " + p + "line (" +
              std::to_string(c.line) + "); got " + std::to_string(c.sector));
  require(c.line / c.sector <= 8, where, p + "sector: at most 8 sectors per line are supported");
  const std::uint64_t set_bytes = std::uint64_t{c.line} * c.associativity * c.slices;
  const std::string size_key = c.adaptive ? p + "unified_size" : p + "size";
  require(c.capacity() % set_bytes == 0 && c.capacity() >= set_bytes, where,
          size_key + ": " + std::to_string(c.capacity()) +
              " bytes is not a whole number of sets of " + p + "line x " + p + "associativity" +
              (c.slices > 1 ? " x " + p + "slices" : "") + " = " + std::to_string(set_bytes) +
              " bytes");
}

std::string kib(std::uint64_t bytes) {
  return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB"
                           : std::to_string(bytes) + " bytes";
}

/// An adaptive L1: every carveout must leave whole ways of the unified array (its sets stay),
/// and the most shared memory an SM gives must be one of the carveouts' sizes or less.
void validate_unified_l1(const HierarchyConfig& c, const std::string& where) {
  const CacheConfig& l1 = c.l1;
  require(!l1.carveouts.empty(), where, "l1.carveouts: an adaptive l1.size needs the carveouts");
  const std::uint64_t way_bytes = std::uint64_t{l1.line} * l1.sets();
  for (const std::uint64_t carveout : l1.carveouts) {
    require(carveout < l1.unified_size, where,
            "l1.carveouts: " + kib(carveout) + " leaves no L1 of l1.unified_size " +
                kib(l1.unified_size));
    require((l1.unified_size - carveout) % way_bytes == 0, where,
            "l1.carveouts: " + kib(carveout) + " leaves " + kib(l1.unified_size - carveout) +
                " of l1.unified_size " + kib(l1.unified_size) + ", not a whole number of ways of " +
                kib(way_bytes) + " (l1.line " + std::to_string(l1.line) + " x " +
                std::to_string(l1.sets()) + " sets); change l1.associativity or the carveouts");
  }
  require(c.sm.shared_memory <= l1.carveouts.back(), where,
          "sm.shared_memory (" + kib(c.sm.shared_memory) +
              ") is more than the largest of l1.carveouts (" + kib(l1.carveouts.back()) + ")");
}

/// The most cache lines (all SMs' L1s and the L2 together) a hierarchy may have: about 1 GB of
/// trial state per worker thread.
constexpr std::uint64_t kMaxCacheLines = std::uint64_t{1} << 26;

void validate(const HierarchyConfig& c, const std::string& where) {
  if (c.l1.enabled) {
    validate_cache(c.l1, "l1", where);
  }
  validate_cache(c.l2, "l2", where);
  if (c.l1.enabled && c.l1.adaptive) {
    validate_unified_l1(c, where);
  }
  require(c.l1.line % c.l2.line == 0, where,
          "l2.line (" + std::to_string(c.l2.line) + ") must divide l1.line (" +
              std::to_string(c.l1.line) + ")");
  require(c.l1.sector % c.l2.sector == 0, where,
          "l2.sector (" + std::to_string(c.l2.sector) + ") must divide l1.sector (" +
              std::to_string(c.l1.sector) + ")");
  require(c.l1.line / c.l2.sector <= 8, where,
          "l1.line / l2.sector must be at most 8 (one L1 line spans at most 8 L2 sectors)");
  require(c.dram.row_bytes % c.dram.interleave_bytes == 0, where,
          "dram.row_bytes must be a multiple of dram.interleave_bytes");
  require(c.dram.interleave_bytes % c.l1.line == 0, where,
          "dram.interleave_bytes must be a multiple of l1.line (an L1 line lies in one DRAM row)");
  // Every trial keeps per-way state (tag, sectors, fill time, recency: 9-14 bytes) for every
  // line of every SM's L1 and of the L2, in each worker thread: bound it before a trial
  // allocates gigabytes for a slip such as l1.size = 1GiB.
  const std::uint64_t l1_lines =
      c.l1.enabled ? std::uint64_t{c.sm.count} * (c.l1.capacity() / c.l1.line) : 0;
  const std::uint64_t l2_lines = c.l2.size / c.l2.line;
  require(l1_lines + l2_lines <= kMaxCacheLines, where,
          "the caches hold " + std::to_string(l1_lines + l2_lines) + " lines (sm.count " +
              std::to_string(c.sm.count) +
              (c.l1.adaptive ? " x l1.unified_size / l1.line = " : " x l1.size / l1.line = ") +
              std::to_string(l1_lines) + ", plus l2.size / l2.line = " + std::to_string(l2_lines) +
              "); at most " + std::to_string(kMaxCacheLines) +
              " are supported (each costs a trial about 14 bytes per worker thread)");
  // Modules split the SMs, L2 slices and DRAM channels into contiguous equal groups.
  const auto split = [&](std::uint64_t count, const std::string& key) {
    require(count % c.numa.modules == 0, where,
            key + " (" + std::to_string(count) + ") must be a multiple of numa.modules (" +
                std::to_string(c.numa.modules) + "): each module holds an equal share");
  };
  split(c.sm.count, "sm.count");
  split(c.l2.slices, "l2.slices");
  split(c.dram.channels, "dram.channels");
  require(c.interconnect.epoch_cycles < c.l2.latency, where,
          "interconnect.epoch_cycles (" + std::to_string(c.interconnect.epoch_cycles) +
              ") must be below l2.latency (" + std::to_string(c.l2.latency) +
              ") so that no miss completes inside the epoch that issued it");
  // The prefetcher checks its own keys' ranges when built.
  try {
    prefetch::BuiltIn::visit(c, [](auto) {});
  } catch (const std::invalid_argument& e) {
    throw ConfigError(where + e.what());
  }
}

}  // namespace

const std::vector<ParameterInfo>& hierarchy_parameters() {
  static const std::vector<ParameterInfo> infos = [] {
    std::vector<ParameterInfo> out;
    for (const auto& p : detail::parameters()) {
      out.push_back(p.info);
    }
    return out;
  }();
  return infos;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& preset : detail::presets()) {
    names.push_back(preset.name);
  }
  return names;
}

HierarchyConfig load_hierarchy(const std::string& name_or_file,
                               const std::vector<std::string>& overrides,
                               std::vector<std::string>* defaulted) {
  HierarchyConfig config;
  std::string where;
  if (const auto* preset = find_preset(name_or_file)) {
    config = from_preset(*preset);
    where = "preset " + name_or_file + ": ";
  } else if (std::filesystem::exists(name_or_file)) {
    config = from_file(name_or_file, defaulted);
    where = name_or_file + ": ";
  } else {
    throw ConfigError("hierarchy \"" + name_or_file + "\" is neither a preset (" + preset_list() +
                      ") nor an existing file");
  }
  for (const std::string& assignment : overrides) {
    try {
      (void)json(assignment).dump();  // JSON text, and every message quoting it, must be UTF-8
    } catch (const json::type_error&) {
      throw ConfigError("--set: an argument is not UTF-8 text (" +
                        std::to_string(assignment.size()) +
                        " bytes); keys and values are ASCII, e.g. l1.size=48KiB");
    }
    const auto equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw ConfigError("--set " + assignment + ": expected key=value, e.g. l1.size=48KiB");
    }
    apply(config, assignment.substr(0, equals), parse_override_value(assignment.substr(equals + 1)),
          "--set ");
  }
  validate(config, overrides.empty() ? where : where + "(after --set) ");
  return config;
}

std::string hierarchy_to_json(const HierarchyConfig& config) {
  json out = json::object();
  for (const auto& p : detail::parameters()) {
    out[p.info.key] = p.get(config);
  }
  return out.dump();
}

}  // namespace memcarlo::sim
