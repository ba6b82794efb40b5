// Parsing and classification of Accel-Sim instruction lines. The parser allocates nothing: it walks
// the line once with std::from_chars, which keeps multi-gigabyte imports I/O bound.
#include "instruction.hpp"

#include <array>
#include <bit>
#include <charconv>

namespace memcarlo::accelsim::detail {
namespace {

using tracebuf::AccessKind;

/// Splits a line into whitespace-separated tokens.
class Tokens {
 public:
  explicit Tokens(std::string_view line) : rest_(line) {}

  bool next(std::string_view& token) {
    std::size_t i = 0;
    while (i < rest_.size() && (rest_[i] == ' ' || rest_[i] == '\t')) {
      ++i;
    }
    std::size_t j = i;
    while (j < rest_.size() && rest_[j] != ' ' && rest_[j] != '\t') {
      ++j;
    }
    token = rest_.substr(i, j - i);
    rest_.remove_prefix(j);
    return !token.empty();
  }

  std::string_view require(const char* what) {
    std::string_view token;
    if (!next(token)) {
      throw LineError(std::string("line ends where ") + what + " was expected");
    }
    return token;
  }

 private:
  std::string_view rest_;
};

[[noreturn]] void bad_token(const char* what, std::string_view token) {
  throw LineError(std::string("expected ") + what + ", got '" + std::string(token) + "'");
}

std::uint64_t parse_hex(std::string_view token, const char* what) {
  std::string_view digits = token;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
  }
  std::uint64_t value = 0;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.empty()) {
    bad_token(what, token);
  }
  return value;
}

template <class T>
T parse_decimal(std::string_view token, const char* what) {
  T value = 0;
  const char* first = token.data();
  if (!token.empty() && token[0] == '+') {
    ++first;
  }
  const auto [end, error] = std::from_chars(first, token.data() + token.size(), value, 10);
  if (error != std::errc() || end != token.data() + token.size() || first == end) {
    bad_token(what, token);
  }
  return value;
}

void skip_registers(Tokens& tokens, const char* count_name) {
  const auto count = parse_decimal<std::uint32_t>(tokens.require(count_name), count_name);
  if (count > 255) {
    throw LineError(std::string(count_name) + " " + std::to_string(count) + " is implausible");
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    tokens.require("a register");
  }
}

/// Bits named by one opcode modifier: "64", "U8", "S16", "F32", "F16x2", "BF16x2"; 0 otherwise.
std::uint32_t modifier_bits(std::string_view modifier) {
  if (modifier.starts_with("BF")) {
    modifier.remove_prefix(2);
  } else if (!modifier.empty() &&
             (modifier[0] == 'U' || modifier[0] == 'S' || modifier[0] == 'F')) {
    modifier.remove_prefix(1);
  }
  std::uint32_t bits = 0;
  const char* end = modifier.data() + modifier.size();
  auto [at, error] = std::from_chars(modifier.data(), end, bits, 10);
  if (error != std::errc() || at == modifier.data()) {
    return 0;
  }
  if (at != end) {
    std::uint32_t lanes = 0;
    if (*at != 'x') {
      return 0;
    }
    auto [at2, error2] = std::from_chars(at + 1, end, lanes, 10);
    if (error2 != std::errc() || at2 != end || lanes == 0 || lanes > 16) {
      return 0;
    }
    bits *= lanes;
  }
  return bits % 8 == 0 && bits >= 8 && bits <= 8 * 255 ? bits : 0;
}

struct SpaceEntry {
  std::string_view base;
  Space space;
  AccessKind kind;
};

// The opcodes with a memory operand that memcarlo distinguishes; any other opcode that carries a
// memory width is counted as "other" and dropped.
constexpr std::array kSpaces = {
    SpaceEntry{"LDG", Space::kGlobal, AccessKind::kRead},
    SpaceEntry{"LDGSTS", Space::kGlobal, AccessKind::kRead},  // global -> shared copy: reads global
    SpaceEntry{"STG", Space::kGlobal, AccessKind::kWrite},
    SpaceEntry{"ATOMG", Space::kGlobal, AccessKind::kAtomic},
    SpaceEntry{"REDG", Space::kGlobal, AccessKind::kAtomic},
    SpaceEntry{"LD", Space::kGeneric, AccessKind::kRead},
    SpaceEntry{"ST", Space::kGeneric, AccessKind::kWrite},
    SpaceEntry{"ATOM", Space::kGeneric, AccessKind::kAtomic},
    SpaceEntry{"RED", Space::kGeneric, AccessKind::kAtomic},
    SpaceEntry{"LDS", Space::kShared, AccessKind::kRead},
    SpaceEntry{"LDSM", Space::kShared, AccessKind::kRead},
    SpaceEntry{"STS", Space::kShared, AccessKind::kWrite},
    SpaceEntry{"STSM", Space::kShared, AccessKind::kWrite},
    SpaceEntry{"ATOMS", Space::kShared, AccessKind::kAtomic},
    SpaceEntry{"LDL", Space::kLocal, AccessKind::kRead},
    SpaceEntry{"STL", Space::kLocal, AccessKind::kWrite},
    SpaceEntry{"LDC", Space::kConstant, AccessKind::kRead},
    SpaceEntry{"ULDC", Space::kConstant, AccessKind::kRead},
    SpaceEntry{"TEX", Space::kTexture, AccessKind::kRead},
    SpaceEntry{"TEXS", Space::kTexture, AccessKind::kRead},
    SpaceEntry{"TLD", Space::kTexture, AccessKind::kRead},
    SpaceEntry{"TLDS", Space::kTexture, AccessKind::kRead},
    SpaceEntry{"TLD4", Space::kTexture, AccessKind::kRead},
    SpaceEntry{"TLD4S", Space::kTexture, AccessKind::kRead},
    SpaceEntry{"TMML", Space::kTexture, AccessKind::kRead},
    SpaceEntry{"TXD", Space::kTexture, AccessKind::kRead},
    SpaceEntry{"TXQ", Space::kTexture, AccessKind::kRead},
    SpaceEntry{"SULD", Space::kTexture, AccessKind::kRead},
    SpaceEntry{"SUST", Space::kTexture, AccessKind::kWrite},
    SpaceEntry{"SUATOM", Space::kTexture, AccessKind::kAtomic},
    SpaceEntry{"SURED", Space::kTexture, AccessKind::kAtomic},
};

}  // namespace

OpcodeInfo classify_opcode(std::string_view opcode) {
  OpcodeInfo info;
  const std::size_t dot = opcode.find('.');
  info.base = opcode.substr(0, dot);
  std::string_view modifiers =
      dot == std::string_view::npos ? std::string_view{} : opcode.substr(dot + 1);
  for (const SpaceEntry& entry : kSpaces) {
    if (entry.base == info.base) {
      info.space = entry.space;
      info.kind = entry.kind;
      break;
    }
  }
  if (info.space == Space::kNone && info.base == "BAR") {
    info.barrier = true;
  }
  bool sized = false;
  while (!modifiers.empty()) {
    const std::size_t next = modifiers.find('.');
    const std::string_view modifier = modifiers.substr(0, next);
    modifiers = next == std::string_view::npos ? std::string_view{} : modifiers.substr(next + 1);
    if (modifier == "ARV") {
      info.barrier = false;
    }
    if (const std::uint32_t bits = modifier_bits(modifier); bits != 0 && !sized) {
      info.element_size = bits / 8;
      sized = true;
    }
  }
  return info;
}

void parse_instruction(std::string_view line, const LineLayout& layout, Instruction& out) {
  Tokens tokens(line);
  if (layout.block_prefix) {
    for (const char* what :
         {"the thread block x", "the thread block y", "the thread block z", "the warp id"}) {
      parse_decimal<std::uint32_t>(tokens.require(what), what);
    }
  }
  out.source_line = layout.line_info
                        ? parse_decimal<std::uint32_t>(tokens.require("a source line number"),
                                                       "a source line number")
                        : 0;
  out.pc = parse_hex(tokens.require("a PC"), "a hexadecimal PC");
  const std::uint64_t mask = parse_hex(tokens.require("an active mask"), "a hexadecimal mask");
  if (mask > 0xFFFFFFFFu) {
    throw LineError("active mask wider than 32 bits");
  }
  out.mask = static_cast<std::uint32_t>(mask);
  skip_registers(tokens, "the number of destination registers");
  out.opcode = tokens.require("an opcode");
  skip_registers(tokens, "the number of source registers");
  out.width = parse_decimal<std::uint32_t>(tokens.require("the memory width"), "the memory width");

  if (out.width > 0) {
    const auto mode = parse_decimal<std::uint32_t>(tokens.require("an address mode"),
                                                   "an address mode (0, 1 or 2)");
    const int active = std::popcount(out.mask);
    std::uint32_t lanes = out.mask;
    switch (mode) {
      case 0:  // every active lane's address, in lane order
        for (; lanes != 0; lanes &= lanes - 1) {
          out.addresses[static_cast<unsigned>(std::countr_zero(lanes))] =
              parse_hex(tokens.require("an address"), "a hexadecimal address");
        }
        break;
      case 1: {  // base and stride between successive active lanes
        const std::uint64_t base = parse_hex(tokens.require("a base address"), "a base address");
        const auto stride =
            parse_decimal<std::int64_t>(tokens.require("a stride"), "a decimal stride");
        std::uint64_t address = base;
        for (; lanes != 0; lanes &= lanes - 1) {
          out.addresses[static_cast<unsigned>(std::countr_zero(lanes))] = address;
          address += static_cast<std::uint64_t>(stride);
        }
        break;
      }
      case 2: {  // base, then one delta per further active lane (active - 1 deltas in all)
        std::uint64_t address = parse_hex(tokens.require("a base address"), "a base address");
        for (int k = 0; lanes != 0; lanes &= lanes - 1, ++k) {
          if (k > 0) {
            if (std::string_view token; !tokens.next(token)) {
              throw LineError("address mode 2 with " + std::to_string(active) +
                              " active lanes needs " + std::to_string(active - 1) +
                              " deltas, found " + std::to_string(k - 1));
            } else {
              address += static_cast<std::uint64_t>(
                  parse_decimal<std::int64_t>(token, "a decimal address delta"));
            }
          }
          out.addresses[static_cast<unsigned>(std::countr_zero(lanes))] = address;
        }
        break;
      }
      default:
        throw LineError("unknown address mode " + std::to_string(mode) + " (expected 0, 1 or 2)");
    }
  }
  // At most the immediate operand remains (tracer version 4 and later).
  std::string_view immediate, extra;
  if (tokens.next(immediate) && tokens.next(extra)) {
    throw LineError("unexpected '" + std::string(extra) + "' after the immediate '" +
                    std::string(immediate) + "'" +
                    (out.width > 0 ? " (more addresses than active lanes?)" : ""));
  }
}

std::string export_opcode(tracebuf::AccessKind kind, std::uint32_t element_size,
                          std::uint32_t binary_version) {
  std::string size;
  switch (element_size) {
    case 1:
      size = ".U8";
      break;
    case 2:
      size = ".U16";
      break;
    case 4:
      break;
    default:  // .64, .128, and for other sizes the bit count Accel-Sim also reads (e.g. .96)
      size = std::to_string(element_size * 8).insert(0, 1, '.');
  }
  switch (kind) {
    case AccessKind::kRead:
    case AccessKind::kReadModifyWrite:
      return "LDG.E" + size;
    case AccessKind::kWrite:
      return "STG.E" + size;
    case AccessKind::kAtomic:  // ATOMG and the .STRONG scopes exist from Volta (sm_70) on
      return binary_version >= 70 ? "ATOMG.E.ADD" + size + ".STRONG.GPU" : "ATOM.E.ADD" + size;
  }
  return "LDG.E" + size;
}

}  // namespace memcarlo::accelsim::detail
