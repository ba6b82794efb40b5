// Thread address footprints of one traced launch: what TAFE estimates for each block before the
// launch (from the relations, the launch shape, the recorded kernel arguments and the extent
// tables of the primary arrays), what the trace shows each block touching, and the comparison
// of the two per page x module (TAFE §6.1, Fig. 11/12). docs/footprints.md.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "memcarlo/footprint/relations.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::footprint {

/// Byte range [begin, end).
struct ByteRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  bool operator==(const ByteRange&) const = default;
};

/// One extent (TAFE §4.2): the least and greatest primary-array value a block reads.
struct Extent {
  bool valid = false;
  std::int64_t min = 0;
  std::int64_t max = 0;
};

/// The extent table of one primary load, one extent per snapshot block.
struct ExtentTable {
  std::uint32_t primary_load = 0;    // the load that reads the primary array
  std::uint32_t dependent_load = 0;  // the access whose addresses revealed the values
  std::vector<Extent> per_block;     // indexed like LaunchFootprint::blocks
};

/// How a relation was evaluated for this launch.
struct RelationUse {
  Relation relation;
  std::string allocation;  // the array's allocation, empty when none was found
  /// That allocation's bytes (TAFE's Base and Limit APD fields): the relation's estimate is
  /// clipped to them, so that an index before the first element or past the last (a halo row a
  /// guard or clamp keeps the kernel from reading) is outside the footprint, not in a
  /// neighbouring allocation. {0, 0} when no allocation was found.
  ByteRange allocation_bytes;
  std::uint64_t root_base = 0;  // byte address of element 0
  std::string root_source;  // "argument", "allocation name", "first traced address", "taf_register"
  /// Why the relation could not be evaluated here (the estimate takes the whole allocation).
  std::string fallback;
  /// "derived" (from the loads table) or "taf_register" (a hand annotation, TAFE's API).
  std::string source = "derived";
  /// A derived relation of an array that a taf_register annotation describes: it adds nothing
  /// (the hand relation, at this index of LaunchFootprint::relations, stands for the array).
  std::optional<std::size_t> superseded_by;
};

struct BlockFootprint {
  std::uint64_t block_id = 0;        // linear id in the grid
  std::vector<ByteRange> estimated;  // sorted, merged
  std::vector<ByteRange> actual;     // sorted, merged: every active lane's bytes
};

struct LaunchFootprint {
  std::uint32_t launch = 0;
  std::string kernel;
  std::vector<RelationUse> relations;  // the loads of this launch's kernel
  std::vector<ExtentTable> extents;
  /// Per TID_DEP and INDIR_RANGE access (primary_load = dependent_load = the access), per block
  /// the least and greatest index the relation gives it: what TAFE's inverse TAF compares a store
  /// to a primary array against (§4.3).
  std::vector<ExtentTable> index_ranges;
  std::vector<BlockFootprint> blocks;             // the snapshot's traced blocks, in block-id order
  std::map<std::string, std::int64_t> arguments;  // recorded kernel arguments
  /// Warnings about the hand annotations (a taf_paramSetup shape other than the launch's, a
  /// registration never marked ready), for the reports.
  std::vector<std::string> notes;
};

struct EstimateOptions {
  /// Cap on evaluated element indices per (relation, block); past it the relation falls back
  /// to its whole allocation (a loop without a usable bound).
  std::uint64_t max_indices_per_block = std::uint64_t{1} << 22;
  /// Whether taf_register annotations override the derived relations (false: derived only, to
  /// compare the two).
  bool hand_registrations = true;
  /// Values of kernel parameters and macros the trace does not record (`memcarlo descriptors
  /// --param`: a template argument such as matrixMul's BLOCK_SIZE); a recorded value wins.
  std::map<std::string, std::int64_t> given_arguments;
};

/// Thrown for a trace that lacks what a footprint needs (no index forms, no allocations, no such
/// launch); what() says what is missing. `memcarlo footprint` exits with 2.
class MissingInformation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The kernel arguments the trace records for `launch`: the `kernel_arguments` annotations
/// ({"kind": "kernel_arguments", "launch": L, "payload": {name: integer}}; without "launch" it
/// applies to every launch).
std::map<std::string, std::int64_t> recorded_arguments(const tracebuf::TraceReader& reader,
                                                       std::uint32_t launch);

/// TAFE's registrations (Table 1) recorded as annotations, in call order:
///   {"kind": "taf_register", "payload": {"base", "size" (elements), "element_size", "type":
///    "TID_DEP", "m": [6 integers over threadIdx.x/y/z, blockIdx.x/y/z], "c", "ofs", "n"}}
///   ... "type": "INDIR", "pbase", "m", "c"}}   ... "type": "INDIR_RANGE", "pbase_s", "c_s",
///   "pbase_e", "c_e"}}   and {"kind": "taf_reset", "payload": {"base"}} removing the array's
///   earlier registrations. Without "launch" a record applies to every launch. MetadataError
///   naming the record for a malformed one.
struct TafRegistration {
  std::string type;  // "TID_DEP", "INDIR", "INDIR_RANGE"
  std::uint64_t base = 0;
  std::uint64_t size = 0;  // elements
  std::uint32_t element_size = 0;
  std::array<std::int64_t, 6> m{};  // TID_DEP
  std::int64_t c = 0, ofs = 0, n = 0;
  std::uint64_t pbase = 0, pbase_end = 0;  // INDIR: pbase; INDIR_RANGE: pbase (start), pbase_end
  std::int64_t c_end = 0;                  // INDIR_RANGE: c_e (c is c_s)
  /// TAFE's R bit: a taf_setRdy for the array followed the registration (before the launch).
  /// A trace with no taf_setRdy record at all has every registration ready.
  bool ready = false;
};
std::vector<TafRegistration> recorded_registrations(const tracebuf::TraceReader& reader,
                                                    std::uint32_t launch);

/// The launch shape the hand relations assume: the last taf_paramSetup record that applies to
/// `launch` ({"block": [x, y, z], "grid": [x, y, z]}), nullopt without one.
struct LaunchShape {
  std::array<std::uint32_t, 3> block{};
  std::array<std::uint32_t, 3> grid{};
};
std::optional<LaunchShape> recorded_param_setup(const tracebuf::TraceReader& reader,
                                                std::uint32_t launch);

/// Estimates and reads back the footprint of every traced block of launch `launch`. A
/// taf_register annotation overrides the derived relations of every access to its array.
LaunchFootprint launch_footprint(const tracebuf::TraceReader& reader, std::uint32_t launch,
                                 const EstimateOptions& options = {});

/// True / false positives and negatives over cells (page, module).
struct Confusion {
  std::uint64_t true_positives = 0;
  std::uint64_t false_positives = 0;
  std::uint64_t false_negatives = 0;
  std::uint64_t true_negatives = 0;
  Confusion& operator+=(const Confusion& other);
  [[nodiscard]] std::uint64_t cells() const {
    return true_positives + false_positives + false_negatives + true_negatives;
  }
  /// (TP + TN) / cells, the paper's accuracy (Fig. 12); 1 for no cells.
  [[nodiscard]] double accuracy() const;
};

/// Per allocation: its pages x modules, which modules the estimate and the trace put on each.
struct AllocationPages {
  std::string name;
  std::uint64_t first_page = 0;  // page numbers [first_page, first_page + pages)
  std::uint64_t pages = 0;
  std::uint32_t modules = 1;
  std::vector<std::uint64_t> estimated;  // per page, bit m: module m is estimated to touch it
  std::vector<std::uint64_t> actual;     // per page, bit m: module m touches it in the trace
  Confusion confusion;
};

struct FootprintComparison {
  std::uint64_t page_bytes = 4096;
  std::uint32_t modules = 1;
  std::vector<AllocationPages> allocations;
  Confusion overall;
  std::uint64_t actual_bytes_outside_allocations = 0;  // lane bytes in no allocation
};

/// The page x module comparison for `modules` modules (at most 64), `block_module[i]` being the
/// module that runs footprint.blocks[i]. Each relation's estimate was clipped to its own
/// allocation (launch_footprint: TAFE's base and limit filter). Only the allocations the launch
/// uses — some block touches or is estimated to touch them — are compared: a launch's cells of
/// an array it never names would all be true negatives, which say nothing about the estimate.
/// MissingInformation when an allocation would need more than 2^26 pages.
FootprintComparison compare_footprints(const tracebuf::TraceReader& reader,
                                       const LaunchFootprint& footprint,
                                       const std::vector<std::uint32_t>& block_module,
                                       std::uint32_t modules, std::uint64_t page_bytes);

}  // namespace memcarlo::footprint
