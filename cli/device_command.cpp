// `memcarlo hierarchy for-device NAME`: the preset that models a GPU, from the name its driver
// reports (`nvidia-smi --query-gpu=name`); scripts/validate-gpu.sh picks its preset with it.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "memcarlo/reports/device_presets.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::cli {
namespace {

void print_preset_for_device(const std::string& device_name) {
  const auto row = reports::preset_for_device(device_name);
  if (!row) {
    throw UserError(reports::unmatched_device_message(device_name), 2);
  }
  const std::vector<std::string> presets = sim::preset_names();
  if (std::find(presets.begin(), presets.end(), row->preset) == presets.end()) {
    throw UserError("the device \"" + device_name + "\" is modeled by the preset " +
                        std::string(row->preset) + ", which this memcarlo does not have",
                    2);
  }
  std::cout << row->preset << "\n";
  if (!row->note.empty()) {
    std::cerr << "memcarlo: note: " << row->note << "\n";
  }
}

}  // namespace

void add_hierarchy_for_device_command(CLI::App& hierarchy) {
  auto device_name = std::make_shared<std::string>();
  auto* for_device = hierarchy.add_subcommand(
      "for-device",
      "Print the preset that models a GPU, given the name its driver reports (nvidia-smi "
      "--query-gpu=name --format=csv,noheader), e.g. \"NVIDIA A100-SXM4-40GB\" -> a100. A name "
      "matches a preset when it contains one of its models, word by word and case-insensitively: " +
          reports::known_device_models() +
          ". A note on standard error says what the preset does not model exactly. Exit code 2, "
          "naming the device and listing the presets, when no preset matches");
  for_device->add_option("DEVICE", *device_name, "GPU name as nvidia-smi prints it")->required();
  for_device->callback([device_name] { print_preset_for_device(*device_name); });
}

}  // namespace memcarlo::cli
