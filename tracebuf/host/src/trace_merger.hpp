// Merging per-lane probe events into warp-level records (SIMT semantics): the k-th execution of
// a static access by the lanes of a warp, between two barriers, is one warp instruction.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "memcarlo/tracebuf/record.hpp"

namespace memcarlo::host::detail {

/// One probe executed by one CUDA thread inside a traced block.
struct LaneEvent {
  std::uint32_t static_id;  // trace-wide id
  std::uint8_t size;        // bytes accessed, clamped to 255
  bool device;              // inside a device allocation: kept; otherwise dropped after merging
  std::uint64_t address;
};
static_assert(sizeof(LaneEvent) == 16);

class TraceMerger {
 public:
  /// Appends to `out`, in the warp's program order, the records formed by `lanes` (lane i's
  /// events in its program order). Record order follows the lowest lanes: the instructions a
  /// lane executes that no lower lane did go right before the next instruction it shares with
  /// them, or at the end (so an if-branch taken by low lanes precedes the else-branch). Every
  /// lane's own order is kept: where that placement would put one of a lane's instructions after a
  /// later one of the same lane (lanes that loop different counts in two loops in a row), the
  /// records are reordered, the placement deciding between records no lane orders. Events at
  /// addresses outside device allocations are counted as matched (they are the same warp
  /// instruction) and then dropped; a record left with no lane is dropped. `barriers` is carried
  /// by the first record appended and then cleared. `kinds` maps static ids to access kinds.
  void merge(std::span<const std::vector<LaneEvent>> lanes,
             std::span<const tracebuf::AccessKind> kinds, std::uint8_t& barriers,
             std::vector<tracebuf::WarpRecord>& out);

  [[nodiscard]] std::uint64_t dropped_events() const { return dropped_events_; }

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  struct Pending {
    std::uint32_t static_id;
    std::uint32_t device_mask;
    std::uint32_t previous;  // doubly linked, in program order
    std::uint32_t next;
    std::uint8_t size;
  };

  void link_before(std::uint32_t index, std::uint32_t before);  // before == kNone: at the end
  /// The pending records in the order to write: the list's, unless it breaks some lane's order;
  /// then the order that keeps every lane's and otherwise follows the list.
  const std::vector<std::uint32_t>& write_order(std::size_t lane_count);
  /// Convergent warps (every lane executed the same accesses in the same order) need no
  /// matching: record r is the r-th event of every lane. Returns false if the lanes differ.
  bool merge_convergent(std::span<const std::vector<LaneEvent>> lanes,
                        std::span<const tracebuf::AccessKind> kinds, std::uint8_t& barriers,
                        std::vector<tracebuf::WarpRecord>& out);

  std::vector<Pending> pending_;
  // Lane addresses of pending record i at [32 * i, 32 * i + 32); only device lanes are written.
  std::vector<std::uint64_t> addresses_;
  std::uint32_t head_ = kNone;
  std::uint32_t tail_ = kNone;
  std::vector<std::uint32_t> unlinked_;  // the current lane's new records awaiting a place
  // Per static id: the pending records of its 1st, 2nd, ... execution in this merge.
  std::vector<std::vector<std::uint32_t>> executions_;
  std::vector<std::uint32_t> counts_;  // per static id, executions seen in the current lane
  std::vector<std::uint32_t> touched_;
  // Per lane, the pending records of its events in its order; the order's scratch space.
  std::array<std::vector<std::uint32_t>, 32> lane_records_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> position_;
  std::vector<std::uint32_t> waiting_;  // per record, its lanes' earlier records not yet written
  std::vector<std::uint32_t> successors_begin_;  // record r's successors: [begin[r], begin[r+1])
  std::vector<std::uint32_t> successors_;
  std::vector<std::uint32_t> fill_;
  std::vector<std::uint8_t> ready_;  // by list position
  std::vector<std::uint32_t> result_;
  std::vector<bool> written_;
  std::uint64_t dropped_events_ = 0;
};

}  // namespace memcarlo::host::detail
