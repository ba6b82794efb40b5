// The estimator of one launch's footprints (launch_footprint, estimate.cpp), shared by the files
// of its passes: estimate_relations.cpp (pass 1, the survey of the launch, and the relations set
// up for it), extent_recovery.cpp (pass 2, the actual footprint and the primary values recovered
// from the dependent addresses) and estimate.cpp (the estimated footprint of each relation).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "form.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::footprint::detail {

inline constexpr std::uint32_t kWarpSize = 32;

inline std::array<std::int64_t, 3> coordinates(std::uint64_t linear, const tracebuf::Dim3& shape) {
  return {static_cast<std::int64_t>(linear % shape.x),
          static_cast<std::int64_t>(linear / shape.x % shape.y),
          static_cast<std::int64_t>(linear / (std::uint64_t{shape.x} * shape.y))};
}

/// The launch's symbol values: threads and blocks (set per evaluation), launch shape, arguments.
struct Environment {
  SymbolTable table;
  std::vector<std::int64_t> values;
  std::vector<bool> known;
  std::array<std::uint32_t, 3> thread_slots{}, block_slots{};

  Environment(const tracebuf::LaunchInfo& launch,
              const std::map<std::string, std::int64_t>& arguments) {
    const char* axes[] = {"x", "y", "z"};
    const std::array<std::uint32_t, 3> block = {launch.block.x, launch.block.y, launch.block.z};
    const std::array<std::uint32_t, 3> grid = {launch.grid.x, launch.grid.y, launch.grid.z};
    for (int a = 0; a < 3; ++a) {
      thread_slots[a] = define(std::string("threadIdx.") + axes[a], 0);
      block_slots[a] = define(std::string("blockIdx.") + axes[a], 0);
      define(std::string("blockDim.") + axes[a], block[a]);
      define(std::string("gridDim.") + axes[a], grid[a]);
    }
    define("warpSize", kWarpSize);
    for (const auto& [name, value] : arguments) {
      define(name, value);
    }
  }
  std::uint32_t define(const std::string& name, std::int64_t value) {
    const std::uint32_t slot = table.slot(name);
    grow();
    values[slot] = value;
    known[slot] = true;
    return slot;
  }
  CompiledForm compile(const Form& form) {
    CompiledForm compiled(form, table);
    grow();
    return compiled;
  }
  void grow() {
    values.resize(table.size(), 0);
    known.resize(table.size(), false);
  }
  void set_block(std::uint64_t linear, const tracebuf::Dim3& grid) {
    const auto c = coordinates(linear, grid);
    for (int a = 0; a < 3; ++a)
      values[block_slots[a]] = c[a];
  }
  void set_thread(std::uint64_t linear, const tracebuf::Dim3& block) {
    const auto c = coordinates(linear, block);
    for (int a = 0; a < 3; ++a)
      values[thread_slots[a]] = c[a];
  }
  /// The first symbol of `form` that has no value and is not in `bound_here`; empty if none.
  std::string unknown_symbol(const Form& form, const std::vector<std::string>& bound_here) const {
    for (const std::string& symbol : form.symbols()) {
      if (std::find(bound_here.begin(), bound_here.end(), symbol) != bound_here.end())
        continue;
      const auto slot = table.find(symbol);
      if (!slot || !known[*slot])
        return symbol;
    }
    return {};
  }
};

/// Per-block state of the dependent accesses read back from the trace.
struct Observed {
  // INDIR: per block, the values of the primary load recovered from this access.
  std::vector<Extent> values;
  // INDIR_RANGE: per block, per thread, the first and last value of the range variable.
  std::vector<std::unordered_map<std::uint32_t, std::pair<std::int64_t, std::int64_t>>> ranges;
  std::string mismatch;  // an address that does not fit the relation
};

inline void widen(Extent& extent, std::int64_t value) {
  if (!extent.valid) {
    extent = {true, value, value};
  } else {
    extent.min = std::min(extent.min, value);
    extent.max = std::max(extent.max, value);
  }
}

class LaunchEstimator {
 public:
  LaunchEstimator(const tracebuf::TraceReader& reader, std::uint32_t launch,
                  const EstimateOptions& options);

  LaunchFootprint run();

 private:
  // Pass 1 and the relations (estimate_relations.cpp).
  void survey();
  void select_relations();
  void check_param_setup();
  std::optional<std::uint32_t> primary_access(std::uint64_t address) const;
  void add_registration(const TafRegistration& registration);
  static void set_allocation(RelationUse& use, const tracebuf::Allocation& allocation);
  void resolve_root(RelationUse& use);

  [[nodiscard]] std::int64_t scale(const Relation& relation) const {
    return relation.offset_in_bytes ? 1 : static_cast<std::int64_t>(relation.element_size);
  }

  // Pass 2 (extent_recovery.cpp).
  void read_back();
  void note_mismatch(std::size_t r, std::uint64_t address);
  static std::string missing_symbol_message(const Relation& relation, const std::string& symbol);

  // The estimates (estimate.cpp).
  void whole_allocation(std::size_t r);
  void whole_allocation_for_block(std::size_t r, std::size_t b);
  void add_elements(BlockFootprint& block, const RelationUse& use, std::int64_t first,
                    std::int64_t last_inclusive);
  void estimate(std::size_t r);
  void estimate_thread_dependent(std::size_t r);
  bool enumerate(const std::vector<std::array<CompiledForm, 3>>& loops,
                 const std::vector<std::string>& comparisons,
                 const std::vector<std::uint32_t>& slots, std::size_t depth,
                 const CompiledForm& offset, std::vector<std::int64_t>& indices);
  void add_index_runs(BlockFootprint& block, const RelationUse& use,
                      const std::vector<std::int64_t>& sorted);
  void estimate_indirect(std::size_t r);
  void estimate_range(std::size_t r);

  const tracebuf::TraceReader& reader_;
  const tracebuf::LaunchStreams& streams_;
  const tracebuf::LaunchInfo& info_;
  EstimateOptions options_;
  std::map<std::string, std::int64_t> arguments_;
  Environment env_;
  LaunchFootprint out_;
  std::unordered_map<std::uint64_t, std::size_t> block_index_;
  std::unordered_map<std::uint32_t, std::uint64_t> first_address_;
  std::unordered_map<std::uint32_t, std::uint32_t> element_size_;
  std::unordered_map<std::uint32_t, std::size_t> relation_of_load_;
  std::vector<Observed> observed_;
  std::uint64_t iterations_ = 0;  // loop iterations enumerated for the current block
};

}  // namespace memcarlo::footprint::detail
