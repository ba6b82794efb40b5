// The device a trace's snapshot was sized for, against presets and the simulated hierarchy.
#include "memcarlo/reports/trace_device.hpp"

#include <array>
#include <nlohmann/json.hpp>

#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::reports {
namespace {

/// A number the runtime sizes the snapshot with, as the trace's Meta names it, and the hierarchy
/// key that `memcarlo run` takes it from (cli/run_command.cpp, tracing_environment).
struct Limit {
  std::string_view trace_key;
  std::string_view hierarchy_key;
  std::uint64_t (*value)(const sim::HierarchyConfig&);
};

constexpr std::array<Limit, 7> kLimits{{
    {"sm_count", "sm.count",
     [](const sim::HierarchyConfig& c) -> std::uint64_t { return c.sm.count; }},
    {"max_threads_per_sm", "sm.max_threads",
     [](const sim::HierarchyConfig& c) -> std::uint64_t { return c.sm.max_threads; }},
    {"max_blocks_per_sm", "sm.max_blocks",
     [](const sim::HierarchyConfig& c) -> std::uint64_t { return c.sm.max_blocks; }},
    {"max_warps_per_sm", "sm.max_warps",
     [](const sim::HierarchyConfig& c) -> std::uint64_t { return c.sm.max_warps; }},
    {"shared_bytes_per_sm", "sm.shared_memory",
     [](const sim::HierarchyConfig& c) -> std::uint64_t { return c.sm.shared_memory; }},
    {"registers_per_sm", "sm.registers",
     [](const sim::HierarchyConfig& c) -> std::uint64_t { return c.sm.registers; }},
    {"default_registers_per_thread", "sm.default_registers_per_thread",
     [](const sim::HierarchyConfig& c) -> std::uint64_t {
       return c.sm.default_registers_per_thread;
     }},
}};

const Limit* find_limit(std::string_view trace_key) {
  for (const Limit& limit : kLimits) {
    if (limit.trace_key == trace_key) {
      return &limit;
    }
  }
  return nullptr;
}

/// The recorded numbers that differ from `config`'s: "sm_count 132 vs sm.count 14".
std::vector<std::string> differences(const RecordedDevice& device,
                                     const sim::HierarchyConfig& config) {
  std::vector<std::string> out;
  for (const auto& [key, value] : device.limits) {
    const Limit* limit = find_limit(key);
    const std::uint64_t simulated = limit->value(config);
    if (simulated != value) {
      out.push_back(key + " " + std::to_string(value) + " vs " + std::string(limit->hierarchy_key) +
                    " " + std::to_string(simulated));
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& items, const char* separator = ", ") {
  std::string out;
  for (const std::string& item : items) {
    out += (out.empty() ? "" : separator) + item;
  }
  return out;
}

}  // namespace

RecordedDevice read_recorded_device(std::string_view device_json) {
  RecordedDevice device;
  const auto json = nlohmann::json::parse(device_json, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return device;
  }
  if (const auto it = json.find("hierarchy"); it != json.end() && it->is_string()) {
    device.hierarchy = it->get<std::string>();
  }
  for (const Limit& limit : kLimits) {
    const auto it = json.find(std::string(limit.trace_key));
    if (it != json.end() && it->is_number_unsigned()) {
      device.limits.emplace_back(std::string(limit.trace_key), it->get<std::uint64_t>());
    }
  }
  if (const auto it = json.find("snapshot_factor"); it != json.end() && it->is_number_unsigned()) {
    device.snapshot_factor = it->get<std::uint64_t>();
  }
  if (!device.limits.empty()) {
    for (const std::string& preset : sim::preset_names()) {
      if (differences(device, sim::load_hierarchy(preset)).empty()) {
        device.matching_presets.push_back(preset);
      }
    }
  }
  return device;
}

std::string describe_recorded_device(const RecordedDevice& device) {
  if (!device.hierarchy && device.limits.empty()) {
    return {};
  }
  std::string text;
  if (device.hierarchy) {
    text = "sized for " + *device.hierarchy + " (memcarlo run -H " + *device.hierarchy + ")";
  }
  if (!device.limits.empty()) {
    std::vector<std::string> numbers;
    for (const auto& [key, value] : device.limits) {
      numbers.push_back(key + " " + std::to_string(value));
    }
    if (device.snapshot_factor) {
      numbers.push_back("snapshot_factor " + std::to_string(*device.snapshot_factor));
    }
    text += (text.empty() ? "" : ": ") + joined(numbers);
    if (!device.hierarchy) {
      text += device.matching_presets.empty()
                  ? " (no preset has these numbers)"
                  : " (the numbers of " + joined(device.matching_presets, " and ") + ")";
    }
  }
  return text;
}

std::optional<std::string> snapshot_mismatch(const RecordedDevice& device,
                                             const sim::HierarchyConfig& config,
                                             const std::string& hierarchy_argument) {
  const std::vector<std::string> differ = differences(device, config);
  const bool other_name = device.hierarchy && *device.hierarchy != hierarchy_argument &&
                          *device.hierarchy != config.name;
  // Equal numbers make the same snapshot, whatever the hierarchy is called (a file that changes
  // the caches of a preset, say); a name alone decides only when no number is recorded.
  if (differ.empty() && !(other_name && device.limits.empty())) {
    return std::nullopt;
  }
  std::string text = "its snapshot was sized for ";
  if (device.hierarchy) {
    text += *device.hierarchy + " (memcarlo run -H " + *device.hierarchy + ")";
  } else if (!device.matching_presets.empty()) {
    text += "the SM numbers of " + joined(device.matching_presets, " and ");
  } else {
    text += "other SM numbers";
  }
  text += " and is simulated on " + config.name;
  if (!differ.empty()) {
    text += " (" + joined(differ) + ")";
  }
  return text +
         ": SMs may stay idle or hold too few blocks; trace it again with `memcarlo run -H " +
         hierarchy_argument + "` for a snapshot of this GPU";
}

}  // namespace memcarlo::reports
