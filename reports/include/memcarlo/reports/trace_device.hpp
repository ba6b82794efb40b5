// What a trace records about the GPU its snapshot was sized for (the Meta chunk's `device`: the SM
// numbers `memcarlo run -H` handed the runtime, and the hierarchy's name where the producer wrote
// it under "hierarchy"), described for `memcarlo trace info` and checked against the hierarchy a
// simulation uses: a snapshot is SMs x resident blocks per SM x a factor, so a trace recorded for
// one GPU and simulated on another leaves SMs idle or holds too few blocks per SM.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/sim/config.hpp"

namespace memcarlo::reports {

struct RecordedDevice {
  /// The hierarchy (preset or file) `memcarlo run -H` was given, when the producer recorded it.
  std::optional<std::string> hierarchy;
  /// The SM numbers the snapshot was sized with, as the trace names them ("sm_count", ...), in
  /// a fixed order; only those present.
  std::vector<std::pair<std::string, std::uint64_t>> limits;
  std::optional<std::uint64_t> snapshot_factor;
  /// Presets whose SM numbers equal every recorded one (empty without recorded numbers).
  std::vector<std::string> matching_presets;
};

/// Reads the Meta `device` object text; anything it does not hold (a synthetic trace's "{}",
/// text that is not JSON) is simply absent.
RecordedDevice read_recorded_device(std::string_view device_json);

/// One line for `trace info`, e.g. "sized for fermi-c2050 (memcarlo run -H fermi-c2050): sm_count
/// 14, ..."; empty when nothing is recorded.
std::string describe_recorded_device(const RecordedDevice& device);

/// Why a snapshot recorded for `device` does not fit `config` (given as `hierarchy_argument` on
/// the command line): each recorded SM number that differs from the hierarchy's, with the
/// recorded hierarchy's name when known. Nullopt when they agree or nothing is recorded.
std::optional<std::string> snapshot_mismatch(const RecordedDevice& device,
                                             const sim::HierarchyConfig& config,
                                             const std::string& hierarchy_argument);

}  // namespace memcarlo::reports
