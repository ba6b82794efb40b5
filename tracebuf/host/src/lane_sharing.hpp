// Races inside one warp instruction, found in a traced block's warp records: several lanes that
// update one address in the same warp instruction (`x1[i] += v` where lanes share i), or that write
// an address they all read before it in the same warp and barrier interval. A GPU warp executes
// such an instruction in lockstep: every lane reads the old value and one lane's write wins. The
// emulation runs each CUDA thread until it waits, so each lane sees the writes of the lanes before
// it, and the program computes something a GPU would not (docs/host-runtime.md, "Races").
// Atomics and lanes that merely store to one address (a flag every thread sets) are not races of
// this kind and are not reported.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "memcarlo/tracebuf/record.hpp"

namespace memcarlo::host::detail {

/// What was found for one static access, over the instructions scanned.
struct LaneSharing {
  std::uint64_t instructions = 0;  // warp instructions in which lanes shared an address
  unsigned most_lanes = 0;         // the most lanes that shared one address in one of them
  bool read_then_write = false;    // a write after a read of the address (not an update)

  void add(const LaneSharing& other);
};

class LaneSharingCheck {
 public:
  /// Scans the records one warp produced between two barriers (or up to the block's end), in the
  /// warp's program order. Costs a pass over the writes; the reads are looked at only when lanes
  /// of a plain write shared an address.
  void scan(std::span<const tracebuf::WarpRecord> records);

  /// By trace-wide static id.
  [[nodiscard]] const std::map<std::uint32_t, LaneSharing>& findings() const { return findings_; }
  void clear() { findings_.clear(); }

 private:
  struct SharedWrite {
    std::uint64_t address;
    std::uint32_t lanes;
    std::uint32_t record;
  };
  /// Calls shared(address, lanes) for each address at least two active lanes of `record` hold.
  template <class Shared>
  void for_each_shared_address(const tracebuf::WarpRecord& record, Shared&& shared);

  std::map<std::uint32_t, LaneSharing> findings_;
  std::vector<SharedWrite> shared_writes_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> sorted_;  // (address, lane)
};

}  // namespace memcarlo::host::detail
