// Races between the warps of one block, found in a traced block's warp records: an address that
// one warp writes and another warp of the same block reads (or updates) between the same two
// __syncthreads, without atomics. The CUDA memory model calls such accesses a data race; on a GPU
// the warps run concurrently (often nearly in step, so several warps read an address before any of
// them stores it), while the emulation runs a block's warps one after another, so each warp sees
// the writes of the warps before it. PolyBench's MVT (8 warps of a block add into one x1[i]) is
// the case in point (docs/host-runtime.md, "Races between warps"). Plain stores that no other warp
// reads (a flag every thread sets) and atomics are not reported.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "memcarlo/tracebuf/record.hpp"

namespace memcarlo::host::detail {

/// A static access that writes an address and one (maybe the same) that reads it in another warp.
struct WarpConflictPair {
  std::uint32_t writer = 0;  // trace-wide static id
  std::uint32_t reader = 0;
  auto operator<=>(const WarpConflictPair&) const = default;
};

class WarpConflictCheck {
 public:
  /// Tracks at most this many distinct written addresses per barrier interval (bounded memory:
  /// 2 × this many 24-byte slots); writes to further addresses in the interval are not examined.
  static constexpr std::uint32_t kMaxAddresses = std::uint32_t{1} << 15;

  /// Scans the records each warp of one block produced in one barrier interval (warps[w]: warp
  /// w's records between two __syncthreads, or up to the block's end). One hash-table insert per
  /// active lane of each write, then two compares per active lane of each read and a lookup only
  /// for those within the written range; a record that repeats the warp's last one of its static
  /// access is skipped.
  void scan(std::span<const std::span<const tracebuf::WarpRecord>> warps);

  /// Barrier intervals of the scanned blocks in which each pair conflicted.
  [[nodiscard]] const std::map<WarpConflictPair, std::uint64_t>& findings() const {
    return findings_;
  }
  void clear() { findings_.clear(); }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  struct Slot {
    std::uint64_t address = 0;
    std::uint32_t warp = kNone;        // first writer (kNone: empty slot)
    std::uint32_t writer = 0;          // its static id
    std::uint32_t other_warp = kNone;  // a second, different writing warp
    std::uint32_t other_writer = 0;
  };
  Slot* find(std::uint64_t address, bool insert);
  void reset_table();

  std::vector<Slot> table_;          // open addressing, 2 × kMaxAddresses slots once used
  std::vector<std::uint32_t> used_;  // slots filled in this interval, to empty them cheaply
  std::vector<WarpConflictPair> interval_pairs_;
  std::map<WarpConflictPair, std::uint64_t> findings_;
};

}  // namespace memcarlo::host::detail
