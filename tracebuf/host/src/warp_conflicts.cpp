// Finding warps of one block that race on an address between two barriers (see
// warp_conflicts.hpp).
#include "warp_conflicts.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace memcarlo::host::detail {
namespace {

bool writes(tracebuf::AccessKind kind) {
  return kind == tracebuf::AccessKind::kWrite || kind == tracebuf::AccessKind::kReadModifyWrite;
}
bool reads(tracebuf::AccessKind kind) {
  return kind == tracebuf::AccessKind::kRead || kind == tracebuf::AccessKind::kReadModifyWrite;
}

/// The last record of each of a few static accesses a warp examined: a record that repeats one
/// (a loop that updates x1[i] on every iteration) adds nothing and is skipped.
class RecentRecords {
 public:
  /// True when `record` has the static access, lanes and addresses of the last one kept for its
  /// static access; keeps it otherwise.
  bool repeats(const tracebuf::WarpRecord& record) {
    const tracebuf::WarpRecord*& previous = last_[record.static_id % last_.size()];
    if (same(previous, record)) {
      return true;
    }
    previous = &record;
    return false;
  }

 private:
  static bool same(const tracebuf::WarpRecord* previous, const tracebuf::WarpRecord& record);
  std::array<const tracebuf::WarpRecord*, 8> last_{};
};

bool RecentRecords::same(const tracebuf::WarpRecord* previous, const tracebuf::WarpRecord& record) {
  if (previous == nullptr || previous->static_id != record.static_id ||
      previous->active_mask != record.active_mask) {
    return false;
  }
  for (std::uint32_t mask = record.active_mask; mask != 0; mask &= mask - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(mask));
    if (previous->addresses[lane] != record.addresses[lane]) {
      return false;
    }
  }
  return true;
}

/// Calls visit(w, record, address) for each active lane's address of each record of warp w that
/// `wanted(kind)` accepts, skipping a record that repeats the warp's previous one of its access.
template <class Wanted, class Visit>
void for_each_lane_address(std::span<const std::span<const tracebuf::WarpRecord>> warps,
                           Wanted wanted, Visit visit) {
  for (std::uint32_t w = 0; w < warps.size(); ++w) {
    RecentRecords recent;
    for (const tracebuf::WarpRecord& record : warps[w]) {
      if (!wanted(record.kind) || recent.repeats(record)) {
        continue;
      }
      for (std::uint32_t mask = record.active_mask; mask != 0; mask &= mask - 1) {
        visit(w, record, record.addresses[static_cast<unsigned>(std::countr_zero(mask))]);
      }
    }
  }
}

}  // namespace

WarpConflictCheck::Slot* WarpConflictCheck::find(std::uint64_t address, bool insert) {
  const std::size_t mask = table_.size() - 1;
  std::size_t at = static_cast<std::size_t>((address * 0x9E3779B97F4A7C15ull) >> 40) & mask;
  while (true) {
    Slot& slot = table_[at];
    if (slot.warp == kNone) {
      if (!insert || used_.size() >= kMaxAddresses) {
        return nullptr;
      }
      used_.push_back(static_cast<std::uint32_t>(at));
      slot.address = address;
      return &slot;
    }
    if (slot.address == address) {
      return &slot;
    }
    at = (at + 1) & mask;
  }
}

void WarpConflictCheck::reset_table() {
  for (const std::uint32_t at : used_) {
    table_[at] = Slot{};
  }
  used_.clear();
}

void WarpConflictCheck::scan(std::span<const std::span<const tracebuf::WarpRecord>> warps) {
  // Only a block with at least two warps that wrote or read something can have a conflict.
  std::size_t busy_warps = 0;
  for (const auto& records : warps) {
    busy_warps += records.empty() ? 0 : 1;
  }
  if (busy_warps < 2) {
    return;
  }
  if (table_.empty()) {
    table_.resize(std::size_t{2} * kMaxAddresses);
  }
  // Pass 1: every written address, with up to two of the warps that write it.
  std::uint64_t lowest = ~std::uint64_t{0};
  std::uint64_t highest = 0;
  for_each_lane_address(
      warps, writes,
      [&](std::uint32_t w, const tracebuf::WarpRecord& record, std::uint64_t address) {
        Slot* slot = find(address, true);
        if (slot == nullptr) {
          return;
        }
        if (slot->warp == kNone) {
          slot->warp = w;
          slot->writer = record.static_id;
          lowest = std::min(lowest, address);
          highest = std::max(highest, address);
        } else if (slot->warp != w && slot->other_warp == kNone) {
          slot->other_warp = w;
          slot->other_writer = record.static_id;
        }
      });
  if (used_.empty()) {
    return;
  }
  // Pass 2: reads of those addresses by a warp other than a writer.
  interval_pairs_.clear();
  for_each_lane_address(
      warps, reads,
      [&](std::uint32_t w, const tracebuf::WarpRecord& record, std::uint64_t address) {
        if (address < lowest || address > highest) {
          return;
        }
        const Slot* slot = find(address, false);
        if (slot == nullptr) {
          return;
        }
        WarpConflictPair pair{};
        if (slot->warp != w) {
          pair = {slot->writer, record.static_id};
        } else if (slot->other_warp != kNone) {
          pair = {slot->other_writer, record.static_id};
        } else {
          return;
        }
        if (std::find(interval_pairs_.begin(), interval_pairs_.end(), pair) ==
            interval_pairs_.end()) {
          interval_pairs_.push_back(pair);
        }
      });
  for (const WarpConflictPair& pair : interval_pairs_) {
    ++findings_[pair];
  }
  reset_table();
}

}  // namespace memcarlo::host::detail
