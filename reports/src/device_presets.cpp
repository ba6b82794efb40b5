// Device name -> hierarchy preset (see device_presets.hpp): word-by-word matching against the
// table.
#include "memcarlo/reports/device_presets.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::reports {
namespace {

/// Runs of letters and digits, upper-cased: "NVIDIA A100-SXM4-40GB" -> NVIDIA A100 SXM4 40GB.
std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0) {
      word.push_back(static_cast<char>(std::toupper(u)));
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) {
    out.push_back(std::move(word));
  }
  return out;
}

bool contains_words(const std::vector<std::string>& name, const std::vector<std::string>& model) {
  return !model.empty() &&
         std::search(name.begin(), name.end(), model.begin(), model.end()) != name.end();
}

}  // namespace

std::optional<DeviceModel> preset_for_device(std::string_view device_name) {
  const std::vector<std::string> name = words(device_name);
  for (const DeviceModel& row : kDeviceModels) {
    if (contains_words(name, words(row.model))) {
      return row;
    }
  }
  return std::nullopt;
}

std::string known_device_models() {
  std::vector<std::pair<std::string_view, std::string>> groups;
  for (const DeviceModel& row : kDeviceModels) {
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const auto& g) { return g.first == row.preset; });
    if (group == groups.end()) {
      groups.emplace_back(row.preset, std::string(row.model));
    } else {
      group->second += ", " + std::string(row.model);
    }
  }
  std::string known;
  for (const auto& [preset, models] : groups) {
    known += (known.empty() ? "" : "; ") + std::string(preset) + " (" + models + ")";
  }
  return known;
}

std::string unmatched_device_message(std::string_view device_name) {
  std::string presets;
  for (const std::string& preset : sim::preset_names()) {
    presets += (presets.empty() ? "" : ", ") + preset;
  }
  return "no hierarchy preset matches the device \"" + std::string(device_name) +
         "\". Device names are matched to presets by the words they contain: " +
         known_device_models() + ". Presets: " + presets +
         ". Simulate with the closest preset (-H NAME), or describe the device in a hierarchy "
         "file (memcarlo hierarchy keys)";
}

}  // namespace memcarlo::reports
