// Locality Descriptors (Vijaykumar et al., ISCA'18, §3): per data structure, how its data is
// reused (locality type), which CTAs share which part of it (data tiles and compute tiles in a
// 1:1 map), the sharing type and access pattern, and a priority that settles conflicts. The
// in-memory form and its JSON form (`memcarlo simulate --descriptors FILE`, the descriptors
// `memcarlo descriptors` proposes); the policies that act on them are in sim/src/ldesc.
//
// Units: `address` and `size` in bytes; `element_size` in bytes; `shape` and `data_tile` in
// elements (X fastest, as the data structure is laid out: element (x, y, z) is at
// address + ((z * shape.y + y) * shape.x + x) * element_size); `compute_tile` in CTAs of the grid;
// `stride` in elements.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::tracebuf {

enum class LocalityType : std::uint8_t { kInterThread, kIntraThread, kNoReuse };
enum class SharingType : std::uint8_t { kCoaccessed, kNearby };
enum class AccessPattern : std::uint8_t { kRegular, kIrregular };

/// "INTER-THREAD", "INTRA-THREAD", "NO-REUSE" (the paper's names; parsing also takes "_" for "-"
/// and any case).
std::string_view to_string(LocalityType type);
std::string_view to_string(SharingType sharing);    // "COACCESSED", "NEARBY"
std::string_view to_string(AccessPattern pattern);  // "REGULAR", "IRREGULAR"

struct LocalityDescriptor {
  std::string name;  // the data structure (an allocation's name when the trace has one)
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  std::uint32_t element_size = 1;
  Dim3 shape;  // the data structure's extent in elements; default (size / element_size, 1, 1)
  LocalityType type = LocalityType::kInterThread;
  Dim3 data_tile;     // D-Tile, elements per dimension
  Dim3 compute_tile;  // C-Tile, CTAs per dimension
  /// The order C-Tiles are traversed as D-Tiles are traversed X → Y → Z: the rank of each grid
  /// dimension (1 first), 0 for a dimension not traversed; the paper's (1, 0, 0) for histo,
  /// (3, 1, 2) for "Y → Z → X". Default (1, 2, 3): X → Y → Z.
  Dim3 compute_data_map{1, 2, 3};
  SharingType sharing = SharingType::kCoaccessed;
  AccessPattern pattern = AccessPattern::kRegular;
  std::int64_t stride = 0;  // elements, REGULAR only
  std::uint32_t priority = 1;  // larger first; ties: the order the descriptors were given
  friend bool operator==(const LocalityDescriptor&, const LocalityDescriptor&) = default;

  /// D-Tiles along each dimension: ceil(shape / data_tile).
  [[nodiscard]] Dim3 data_tiles() const;
};

/// A descriptor that is not valid on its own or against a launch: `field` names the JSON key
/// ("descriptors[1].compute_tile.y"), the message says what was expected.
class DescriptorError : public std::runtime_error {
 public:
  DescriptorError(std::string field, const std::string& message)
      : std::runtime_error(field + ": " + message), field_(std::move(field)) {}
  [[nodiscard]] const std::string& field() const { return field_; }

 private:
  std::string field_;
};

/// Which launches a descriptor of a file (`simulate --descriptors FILE`) is for: the launches of
/// `kernel` (empty: the trace's only kernel), and of those only the ones of `grid` and `block`
/// when given (the launch shape `memcarlo descriptors` proposed it for: its tiles are in CTAs of
/// that grid).
struct DescriptorScope {
  std::string kernel;
  std::optional<Dim3> grid;
  std::optional<Dim3> block;
  friend bool operator==(const DescriptorScope&, const DescriptorScope&) = default;
};

struct ScopedDescriptor {
  DescriptorScope scope;
  LocalityDescriptor descriptor;
  friend bool operator==(const ScopedDescriptor&, const ScopedDescriptor&) = default;
};

/// Reads a descriptor file `{"descriptors": [ {...}, ... ]}` (the format
/// docs/locality-descriptors.md describes): each entry one descriptor, with the keys "kernel"
/// (a string), "grid" and "block" ([x], [x, y] or [x, y, z]) saying which launches it is for.
/// Every field is checked for its type and range; unknown keys are refused (a typo would silently
/// fall back to a default). DescriptorError names the field.
std::vector<ScopedDescriptor> parse_descriptor_file(std::string_view json_text);

/// parse_descriptor_file without the scopes.
std::vector<LocalityDescriptor> parse_descriptors(std::string_view json_text);

/// The descriptors in effect for launch `launch` from a trace's annotations (`annotations_json`,
/// TraceReader::annotations_json): the records of kind "locality_descriptor" (payload: one entry
/// of the JSON form) that apply to the launch (annotations.hpp), in the order recorded; a later
/// record for the same address and locality type replaces the earlier one (a descriptor
/// re-specified between launches; a data structure may have one per locality type, paper
/// §3.3.2), and "locality_descriptor_reset" (payload {"address": A}) removes those of A. Not yet
/// checked against the launch (check_descriptors). DescriptorError naming
/// "annotations[i].payload.<field>".
std::vector<LocalityDescriptor> recorded_descriptors(std::string_view annotations_json,
                                                     std::uint32_t launch);

/// The JSON text parse_descriptors reads back unchanged.
std::string descriptors_to_json(const std::vector<LocalityDescriptor>& descriptors);

/// The JSON text parse_descriptor_file reads back unchanged ("kernel", "grid" and "block" first in
/// each entry, where the scope has them).
std::string descriptor_file_to_json(const std::vector<ScopedDescriptor>& descriptors);

/// Checks descriptors against a launch's grid and the trace's allocations: each must lie inside
/// one allocation (when `allocations` is not empty); its C-Tile must divide the grid and its
/// D-Tile its shape in every dimension; a grid dimension the compute-data map does not traverse
/// (rank 0) must be one C-Tile wide; and there must be as many C-Tiles as D-Tiles (the 1:1 map).
/// DescriptorError naming "descriptors[i].<field>".
void check_descriptors(const std::vector<LocalityDescriptor>& descriptors, const Dim3& grid,
                       const std::vector<Allocation>& allocations);

/// The descriptors in the order the policies consider them: priority, larger first; ties keep
/// the order given.
std::vector<LocalityDescriptor> by_priority(std::vector<LocalityDescriptor> descriptors);

}  // namespace memcarlo::tracebuf
