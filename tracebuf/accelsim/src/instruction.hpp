// One instruction line of an Accel-Sim .traceg file: its parser, the opcode classification that
// decides what becomes a memcarlo record, and the opcode spelling the exporter writes.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "memcarlo/tracebuf/format.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::accelsim::detail {

/// The memory space an opcode addresses. Generic accesses (LD, ST, ATOM, RED) are resolved per
/// lane against the kernel's shared and local windows.
enum class Space : std::uint8_t {
  kNone,  // not a memory instruction
  kGlobal,
  kGeneric,
  kShared,
  kLocal,
  kConstant,
  kTexture,  // texture and surface
  kOther,
};

struct OpcodeInfo {
  Space space = Space::kNone;
  tracebuf::AccessKind kind = tracebuf::AccessKind::kRead;
  /// Bytes per lane from the first size modifier (".U8", ".16", ".64", ".128", ".F64", ...);
  /// 4 when there is none.
  std::uint32_t element_size = 4;
  bool barrier = false;   // BAR.SYNC, BAR.RED, ... (not BAR.ARV, which does not wait)
  std::string_view base;  // the opcode up to its first '.'
};

OpcodeInfo classify_opcode(std::string_view opcode);

/// Variations of the line layout, from the kernel header.
struct LineLayout {
  bool line_info = false;     // "-enable lineinfo = 1": a source line number leads each line
  bool block_prefix = false;  // tracer version < 3: "tb_x tb_y tb_z warp" lead each line
};

struct Instruction {
  std::uint64_t pc = 0;
  std::uint32_t mask = 0;
  std::uint32_t source_line = 0;  // 0 without line info
  std::string_view opcode;
  std::uint32_t width = 0;  // bytes per lane as the tracer saw it; 0 = not a memory instruction
  std::array<std::uint64_t, tracebuf::kWarpSize> addresses{};  // by lane, for lanes in mask
};

/// A malformed instruction line; the importer adds the file and line number.
class LineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses `PC mask ndst [Rd..] OPCODE nsrc [Rs..] width [mode addresses] [imm]`. Address modes:
/// 0 lists every active lane's address; 1 is base and stride (k-th active lane at base + k*stride);
/// 2 is base and one delta per further active lane, each from the previous active lane's address.
/// Throws LineError.
void parse_instruction(std::string_view line, const LineLayout& layout, Instruction& out);

/// The opcode the exporter writes for an access of `kind` and `element_size` bytes per lane:
/// LDG.E, STG.E or ATOMG.E.ADD...STRONG.GPU (ATOM.E.ADD before binary version 70) with the size
/// modifier. A read-modify-write is exported as its two halves, kRead then kWrite.
std::string export_opcode(tracebuf::AccessKind kind, std::uint32_t element_size,
                          std::uint32_t binary_version);

}  // namespace memcarlo::accelsim::detail
