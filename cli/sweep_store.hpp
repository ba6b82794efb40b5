// --resume's store for `memcarlo sweep`: each finished point's per-trial metric series in its own
// JSON file, written atomically, with the fingerprint of what it was run with.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "memcarlo/analysis/run_series.hpp"

namespace memcarlo::cli {

/// A finished point as --resume keeps it: what it was run with (`fingerprint`: a stored point is
/// reused only when every field is the same) and its per-trial metric series.
struct StoredPoint {
  analysis::RunSeries series;
  bool converged = false;
  double wall_seconds = 0;
};

/// Writes the point to `path` atomically: a temporary file in the same directory, then a rename,
/// so that a killed sweep leaves either the whole point or none of it. `fingerprint` says what it
/// was run with.
void store_point(const std::filesystem::path& path, const nlohmann::json& fingerprint,
                 const StoredPoint& point);

/// The stored point at `path` when it exists, reads and has this fingerprint; nullopt otherwise
/// (the point is then run again).
std::optional<StoredPoint> load_point(const std::filesystem::path& path,
                                      const nlohmann::json& fingerprint);

}  // namespace memcarlo::cli
