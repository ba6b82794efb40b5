// JSON form of the trace metadata (loads table, allocations, launches, producer header). The same
// loads-table JSON is what the instrumenter writes with --loads and embeds into programs.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::tracebuf {

/// A metadata document that does not have the expected shape; what() names the JSON path, e.g.
/// "loads[3].kind: expected one of read, write, rmw, atomic; got \"load\"".
class MetadataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string loads_to_json(std::span<const LoadInfo> loads);
std::vector<LoadInfo> loads_from_json(std::string_view json);

std::string allocations_to_json(std::span<const Allocation> allocations);
std::vector<Allocation> allocations_from_json(std::string_view json);

std::string launch_to_json(const LaunchInfo& launch);
LaunchInfo launch_from_json(std::string_view json);

std::string meta_to_json(const TraceMeta& meta);
TraceMeta meta_from_json(std::string_view json);

}  // namespace memcarlo::tracebuf
