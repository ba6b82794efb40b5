// The registers of exported Accel-Sim instructions: which register each access writes and which it
// reads, so that Accel-Sim's scoreboard holds an access until the loads it depends on have
// returned, as the program's own SASS would (docs/accelsim.md, "Registers and dependences").
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "memcarlo/tracebuf/model.hpp"
#include "memcarlo/tracebuf/record.hpp"

namespace memcarlo::accelsim::detail {

/// Accel-Sim's trace parser reads at most this many source registers (trace_parser.h MAX_SRC).
inline constexpr std::size_t kMaxSourceRegisters = 4;

/// The register fields of one exported memory instruction.
struct InstructionRegisters {
  bool has_destination = false;
  std::uint32_t destination = 0;
  std::array<std::uint32_t, kMaxSourceRegisters> sources{};
  std::uint32_t source_count = 0;
};

/// Assigns registers to one warp's exported accesses, in program order.
///
/// Every load and atomic writes the next of kDestinationCount rotating registers (R8, R12, ...,
/// R68; four apart so that 128-bit loads do not overlap). An access reads:
/// - for its address, the destination of the most recent instance of each load its loads-table
///   entry names in `depends_on` (a gather `y[col[j]]` reads `col[j]`'s register), else R2, a
///   register no exported instruction writes;
/// - for the value a store or atomic writes (and for the write half of a read-modify-write, always
///   its own read half's destination): the loads named by the entry's `value_depends_on` when the
///   table has that key, else, conservatively, the most recent load in which some lane read the
///   very address this lane writes (same thread, same address), else R4, written by nothing.
/// Only the last kDestinationCount loads can be found: older ones' registers have been reused, and
/// Accel-Sim's scoreboard already made their reuse wait for them. At most kMaxSourceRegisters
/// sources are written, address sources first.
class DependenceTracker {
 public:
  static constexpr std::uint32_t kDestinationCount = 16;
  static constexpr std::uint32_t kFirstDestination = 8;
  static constexpr std::uint32_t kAddressRegister = 2;  // an address computed without loads
  static constexpr std::uint32_t kDataRegister = 4;     // a value computed without loads

  /// `loads` is the trace's loads table, indexed by static id.
  explicit DependenceTracker(const std::vector<tracebuf::LoadInfo>& loads);

  /// Forgets every load: the next access starts a new warp.
  void start_warp();

  /// The registers of `record` exported as an instruction of `kind` (kRead, kWrite or kAtomic;
  /// a read-modify-write is given as its kRead half, then its kWrite half).
  InstructionRegisters next(const tracebuf::RecordView& record, tracebuf::AccessKind kind);

 private:
  struct LoadSlot {
    bool valid = false;
    std::uint32_t static_id = 0;
    std::uint32_t mask = 0;
    std::array<std::uint64_t, tracebuf::kWarpSize> addresses{};  // by lane
  };
  struct Dependences {
    std::vector<std::uint32_t> address;
    bool value_known = false;  // the table has value_depends_on
    std::vector<std::uint32_t> value;
  };

  [[nodiscard]] std::uint32_t register_of_slot(std::uint32_t slot) const {
    return kFirstDestination + 4 * slot;
  }
  /// The slot of the most recent load of `static_id`, or kDestinationCount when none is held.
  [[nodiscard]] std::uint32_t latest_slot_of(std::uint32_t static_id) const;
  /// The slot of the most recent load that read, in some lane of `record`, the address that lane
  /// accesses now; kDestinationCount when none.
  [[nodiscard]] std::uint32_t latest_slot_at_same_address(const tracebuf::RecordView& record) const;

  std::vector<Dependences> dependences_;  // by static id
  std::array<LoadSlot, kDestinationCount> slots_{};
  std::uint32_t next_slot_ = 0;
  std::uint32_t last_slot_ = kDestinationCount;  // the previous access's destination slot
};

}  // namespace memcarlo::accelsim::detail
