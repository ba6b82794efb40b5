// The on-disk layout of trace format v2 (".mct"; the reader also reads v1). Every structure that is read in place is pinned
// with static_asserts; the full description, with invariants, is in docs/trace-format.md.
//
//   file   := FileHeader chunk*            (a complete file ends with an End chunk)
//   chunk  := ChunkHeader payload pad      (pad: zero bytes up to the next multiple of 8)
//
// Metadata chunks (Meta, Loads, Allocations, Annotations, Launch, End) carry UTF-8 JSON; WarpRecords
// chunks carry a WarpRecordsHeader followed by binary records. Integers are little-endian.
#pragma once

#include <cstddef>
#include <cstdint>

namespace memcarlo::tracebuf {

inline constexpr char kFileMagic[8] = {'M', 'C', 'T', 'R', 'A', 'C', 'E', '\x1a'};
/// The version the writer writes. v2 (docs/trace-format.md, "Versions"): a trace may hold several
/// Annotations chunks, whose records readers concatenate in file order (v1 kept only the last).
inline constexpr std::uint16_t kFormatVersion = 2;
/// The oldest version the reader reads.
inline constexpr std::uint16_t kOldestReadableFormatVersion = 1;
inline constexpr std::uint16_t kEndianMarker = 0xFEFF;
inline constexpr std::uint32_t kChunkMagic = 0x4B43434D;  // "MCCK" read as little-endian u32
inline constexpr std::uint32_t kWarpSize = 32;
/// Records are appended to a chunk until it reaches this many payload bytes.
inline constexpr std::size_t kTargetChunkPayload = std::size_t{1} << 20;
/// No chunk may be larger than this; a header claiming more is corrupt.
inline constexpr std::uint64_t kMaxChunkPayload = std::uint64_t{1} << 32;
/// Launch limits a trace may claim (README, "Bounds"): CUDA's, and the traced blocks of one launch.
inline constexpr std::uint64_t kMaxBlockThreads = 1024;
inline constexpr std::uint32_t kMaxGridX = 0x7FFFFFFF;
inline constexpr std::uint32_t kMaxGridYZ = 65535;
inline constexpr std::uint64_t kMaxSnapshotBlocks = std::uint64_t{1} << 24;

struct FileHeader {
  char magic[8];
  std::uint16_t format_version;
  std::uint16_t endian_marker;
  std::uint32_t header_size;  // sizeof(FileHeader); lets later versions grow the header
  std::uint32_t flags;        // none defined in v1; must be 0
  std::uint32_t reserved;     // must be 0
  std::uint32_t reserved2;    // must be 0
  std::uint32_t header_crc;   // CRC-32C of the 28 bytes before it
};
static_assert(sizeof(FileHeader) == 32);
static_assert(offsetof(FileHeader, header_crc) == 28);

enum class ChunkType : std::uint16_t {
  kMeta = 1,         // JSON object: producer, backend, device assumptions
  kLoads = 2,        // JSON array: the loads table (one object per static access)
  kAllocations = 3,  // JSON array: device allocations {id, base, size, name}
  kAnnotations = 4,  // JSON array: TAFE registrations, Locality Descriptors, ...
  kLaunch = 5,       // JSON object: one traced kernel launch
  kWarpRecords = 6,  // binary: WarpRecordsHeader + records of one warp
  kEnd = 7,          // JSON object: totals; its presence marks a complete file
};

struct ChunkHeader {
  std::uint32_t magic;  // kChunkMagic
  std::uint16_t type;   // ChunkType
  std::uint16_t flags;  // none defined in v1; must be 0
  std::uint64_t payload_size;
  std::uint32_t payload_crc;  // CRC-32C of the payload (without padding)
  std::uint32_t header_crc;   // CRC-32C of the 20 bytes before it
};
static_assert(sizeof(ChunkHeader) == 24);
static_assert(offsetof(ChunkHeader, header_crc) == 20);

/// Prefix of a WarpRecords payload. A warp's stream may be split over several chunks; `segment`
/// numbers them 0, 1, 2, ... in program order.
struct WarpRecordsHeader {
  std::uint32_t launch;  // index of the Launch chunk (0-based, in file order)
  std::uint32_t block;   // linear block id within the grid
  std::uint32_t warp;    // warp index within the block
  std::uint32_t segment;
  std::uint32_t record_count;
  std::uint32_t reserved;  // must be 0
};
static_assert(sizeof(WarpRecordsHeader) == 24);

/// How the addresses of a record's active lanes follow its header.
enum class AddressEncoding : std::uint8_t {
  kStride = 0,      // address(lane) = base + lane * stride; no payload
  kDelta32 = 1,     // one int32 per active lane (ascending lane order): address = base + delta
  kAbsolute64 = 2,  // one uint64 per active lane (ascending lane order)
};

/// Fixed part of one record: one dynamic warp-level memory instruction.
struct RecordHeader {
  std::uint32_t static_id;    // index into the loads table
  std::uint32_t active_mask;  // bit i set: lane i executed the access; never 0
  std::uint8_t kind;          // AccessKind
  std::uint8_t element_size;  // bytes accessed per lane, 1..255
  std::uint8_t barriers;      // __syncthreads crossed since the warp's previous record (saturates)
  std::uint8_t encoding;      // AddressEncoding
  std::int32_t stride;        // kStride only, else 0
  std::uint64_t base;
};
static_assert(sizeof(RecordHeader) == 24);
static_assert(offsetof(RecordHeader, base) == 16);

/// Bytes of address payload after a RecordHeader, padded so the next record stays 8-aligned.
constexpr std::size_t record_payload_bytes(AddressEncoding encoding, unsigned active_lanes) {
  switch (encoding) {
    case AddressEncoding::kStride:
      return 0;
    case AddressEncoding::kDelta32:
      return (std::size_t{4} * active_lanes + 7) & ~std::size_t{7};
    case AddressEncoding::kAbsolute64:
      return std::size_t{8} * active_lanes;
  }
  return 0;
}

}  // namespace memcarlo::tracebuf
