// The points of `memcarlo sweep`: each a list of hierarchy settings (key, value as given), applied
// like --set KEY=VALUE, except `base`, which names the point's preset or hierarchy file. Malformed
// lists and files throw UserError (exit code 2).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace memcarlo::cli {

using Parameters = std::vector<std::pair<std::string, std::string>>;

/// The setting that names a point's preset or hierarchy file (-H) instead of a key of it.
inline constexpr std::string_view kBaseKey = "base";

/// The points of --vary KEY=V1,V2,... lists (values split at the commas outside brackets, so
/// that a list value such as [0,8192] stays whole): their Cartesian product, the last list
/// varying fastest, or with `zip` the i-th values of all lists together (lists of one length).
std::vector<Parameters> vary_points(const std::vector<std::string>& vary, bool zip);

/// --points FILE: a JSON array of objects, key -> value (a string as --set reads it, or any JSON
/// value, written back as JSON text).
std::vector<Parameters> file_points(const std::string& path);

/// "point 3 (l1.size=48KiB, l1.replacement=lru)", for messages.
std::string describe(std::size_t index, const Parameters& point);
/// "KEY=VALUE, KEY=VALUE": the point's parameters in order.
std::string parameters_text(const Parameters& point);

}  // namespace memcarlo::cli
