// In-memory form of a trace's metadata: the loads table, allocations, launches and the producer
// header. Writers fill these; the reader returns them. JSON (de)serialisation lives in metadata.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/tracebuf/strong_type.hpp"

namespace memcarlo::tracebuf {

enum class AccessKind : std::uint8_t { kRead = 0, kWrite = 1, kReadModifyWrite = 2, kAtomic = 3 };
inline constexpr std::uint8_t kAccessKindCount = 4;

/// "read", "write", "rmw", "atomic".
std::string_view to_string(AccessKind kind);
/// Inverse of to_string; nullopt for anything else.
std::optional<AccessKind> access_kind_from_string(std::string_view text);

/// One static memory access of the instrumented source (one row of the loads table).
struct LoadInfo {
  std::uint32_t id = 0;
  std::string function;              // enclosing function
  std::vector<std::string> kernels;  // kernels that reach it
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string expression;  // source text of the access
  AccessKind kind = AccessKind::kRead;
  std::string element_type;
  std::uint32_t element_size = 0;
  std::string base;           // array or pointer variable
  std::string address_space;  // "global" or "unknown"
  std::uint32_t loop_depth = 0;
  /// Bulk scheduling sequence (paper §2). Loads of one sequence may issue back to back.
  std::int64_t sequence = -1;
  std::vector<std::uint32_t> depends_on;  // ids of loads whose values feed this address
  std::optional<std::uint32_t> redundant_of;
  /// Everything else the producer wrote for this entry (e.g. the affine `index` form), kept
  /// verbatim as a JSON object text so that tools round-trip it.
  std::string extra_json = "{}";
};

/// One device allocation known to the runtime.
struct Allocation {
  std::uint32_t id = 0;
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  std::string name;  // variable name when known, else empty
};

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  [[nodiscard]] std::uint64_t volume() const { return std::uint64_t{x} * y * z; }
  bool operator==(const Dim3&) const = default;
};

/// One traced kernel launch and its snapshot (paper §3.1).
struct LaunchInfo {
  std::uint32_t index = 0;  // position among the trace's launches, assigned by the writer
  std::string kernel;
  Dim3 grid;
  Dim3 block;
  std::uint64_t dynamic_shared_bytes = 0;
  std::uint64_t static_shared_bytes = 0;
  std::uint32_t registers_per_thread = 0;  // 0 = unknown
  std::uint64_t snapshot_first_block = 0;  // linear block ids [first, first + count)
  std::uint64_t snapshot_block_count = 0;
  std::uint32_t resident_blocks_per_sm = 0;  // as assumed by the producer; 0 = unknown
  std::uint64_t sequence_in_program = 0;     // how many launches the program made before it
  [[nodiscard]] std::uint32_t warps_per_block() const {
    return static_cast<std::uint32_t>((block.volume() + 31) / 32);
  }
};

/// The producer header (Meta chunk).
struct TraceMeta {
  std::string producer = "memcarlo";
  std::string producer_version;
  std::string backend;  // "host", "cuda", "synthetic", "accelsim", ...
  std::string command;  // what produced it, for the record
  /// Device assumptions used to size the snapshot, as a JSON object text.
  std::string device_json = "{}";
  /// Free-form producer properties (e.g. synthetic pattern parameters), as a JSON object text.
  std::string properties_json = "{}";
};

}  // namespace memcarlo::tracebuf
