// Which hierarchy preset models a GPU, found from the name its driver reports
// (`nvidia-smi --query-gpu=name`): a declarative table, so that scripts/validate-gpu.sh simulates
// with the preset of the device it measured (`memcarlo hierarchy for-device NAME`).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace memcarlo::reports {

/// One row of the table: a device whose name contains `model` (compared word by word, see
/// preset_for_device) is simulated with `preset`. `note` says what the preset does not model
/// exactly for that device, or is empty.
struct DeviceModel {
  std::string_view model;
  std::string_view preset;
  std::string_view note;
};

/// In matching order: the first row whose model the name contains decides. SM counts come from
/// the same whitepapers as the presets (sim/src/presets.cpp).
inline constexpr std::array<DeviceModel, 12> kDeviceModels{{
    // Tesla 20-series boards with the C2050's GF100 configuration (14 SMs, 448 cores, 1.15 GHz);
    // they differ in memory size and form factor. Old drivers name the C2050 "Tesla C2050 / C2070".
    {"C2050", "fermi-c2050", ""},
    {"C2070", "fermi-c2050", ""},
    {"C2075", "fermi-c2050", ""},
    {"M2050", "fermi-c2050", ""},
    {"M2070", "fermi-c2050", ""},
    {"GTX 480", "gtx480", ""},
    // Every V100 board has 80 SMs and a 6 MB L2; the preset's clock is the SXM2 boost clock.
    {"V100", "v100", ""},
    {"V100S", "v100",
     "the v100 preset models the V100 SXM2; the V100S has the same SMs and caches at a higher "
     "clock"},
    // A100 SXM4 and PCIe, 40 and 80 GB: the same GA100 configuration (108 SMs, 40 MB L2).
    {"A100", "a100", ""},
    // H100 SXM5 ("NVIDIA H100 80GB HBM3"), NVL and PCIe.
    {"H100 PCIE", "h100",
     "the h100 preset models the H100 SXM5 (132 SMs); the H100 PCIe has 114 SMs: "
     "--set sm.count=114 models it closer"},
    {"H100", "h100", ""},
    // H200 SXM ("NVIDIA H200"): the H100 SXM5's chip (132 SMs, compute capability 9.0, the same
    // L1/shared array) with HBM3e; its driver reports a 60 MiB L2 (cudaDeviceProp::l2CacheSize
    // 62914560, read on an H200 on 2026-11-29).
    {"H200", "h100",
     "the h100 preset models the H100 SXM5; the H200 has the same SMs and L1 but a 60 MiB L2 and "
     "HBM3e: --set l2.size=60MiB models its L2"},
}};

/// The table row that a device name matches, or nullopt. Names are compared as sequences of
/// words (runs of letters and digits, case-insensitive): "Tesla V100-SXM2-16GB" is TESLA V100
/// SXM2 16GB and contains the model V100; "NVIDIA A10" does not contain A100, nor "GeForce GTX
/// 480M" GTX 480.
std::optional<DeviceModel> preset_for_device(std::string_view device_name);

/// The table grouped by preset, presets in table order: "fermi-c2050 (C2050, C2070, ...); gtx480
/// (GTX 480); ...".
std::string known_device_models();

/// The message for a device that no row matches: it names the device, lists the devices the table
/// knows and the presets, and says how to go on.
std::string unmatched_device_message(std::string_view device_name);

}  // namespace memcarlo::reports
