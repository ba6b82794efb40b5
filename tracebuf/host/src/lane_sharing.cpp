// Finding lanes of one warp instruction that race on an address (see lane_sharing.hpp).
#include "lane_sharing.hpp"

#include <algorithm>
#include <bit>

namespace memcarlo::host::detail {

void LaneSharing::add(const LaneSharing& other) {
  instructions += other.instructions;
  most_lanes = std::max(most_lanes, other.most_lanes);
  read_then_write = read_then_write || other.read_then_write;
}

template <class Shared>
void LaneSharingCheck::for_each_shared_address(const tracebuf::WarpRecord& record,
                                               Shared&& shared) {
  // Most writes are to distinct, increasing addresses (x[i], i from the lane): one pass says so.
  bool increasing = true;
  std::uint64_t previous = 0;
  bool first = true;
  for (std::uint32_t mask = record.active_mask; mask != 0; mask &= mask - 1) {
    const std::uint64_t address = record.addresses[static_cast<unsigned>(std::countr_zero(mask))];
    if (!first && address <= previous) {
      increasing = false;
      break;
    }
    previous = address;
    first = false;
  }
  if (increasing) {
    return;
  }
  sorted_.clear();
  for (std::uint32_t mask = record.active_mask; mask != 0; mask &= mask - 1) {
    const auto lane = static_cast<std::uint32_t>(std::countr_zero(mask));
    sorted_.emplace_back(record.addresses[lane], lane);
  }
  std::sort(sorted_.begin(), sorted_.end());
  for (std::size_t begin = 0; begin < sorted_.size();) {
    std::size_t end = begin + 1;
    std::uint32_t lanes = 1u << sorted_[begin].second;
    while (end < sorted_.size() && sorted_[end].first == sorted_[begin].first) {
      lanes |= 1u << sorted_[end].second;
      ++end;
    }
    if (end - begin >= 2) {
      shared(sorted_[begin].first, lanes);
    }
    begin = end;
  }
}

void LaneSharingCheck::scan(std::span<const tracebuf::WarpRecord> records) {
  // Plain writes whose lanes share an address are kept for the read pass below; at most this
  // many per scan, which is plenty to tell that a static access races.
  constexpr std::size_t kMaxSharedWrites = 64;
  shared_writes_.clear();
  for (std::uint32_t i = 0; i < records.size(); ++i) {
    const tracebuf::WarpRecord& record = records[i];
    if (record.kind == tracebuf::AccessKind::kReadModifyWrite) {
      unsigned most = 0;
      for_each_shared_address(record, [&](std::uint64_t, std::uint32_t lanes) {
        most = std::max(most, static_cast<unsigned>(std::popcount(lanes)));
      });
      if (most != 0) {
        LaneSharing& found = findings_[record.static_id];
        found.add({1, most, false});
      }
    } else if (record.kind == tracebuf::AccessKind::kWrite &&
               shared_writes_.size() < kMaxSharedWrites) {
      for_each_shared_address(record, [&](std::uint64_t address, std::uint32_t lanes) {
        if (shared_writes_.size() < kMaxSharedWrites) {
          shared_writes_.push_back({address, lanes, i});
        }
      });
    }
  }
  // A shared plain write races when at least two of its lanes read the address earlier in this
  // stretch of the warp's program (x[i] = x[i] + v spelled as a load and a store).
  std::uint32_t last_counted = ~0u;
  for (const SharedWrite& write : shared_writes_) {
    std::uint32_t readers = 0;
    for (std::uint32_t r = 0; r < write.record; ++r) {
      const tracebuf::WarpRecord& read = records[r];
      if (read.kind != tracebuf::AccessKind::kRead) {
        continue;
      }
      for (std::uint32_t mask = read.active_mask & write.lanes; mask != 0; mask &= mask - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(mask));
        if (read.addresses[lane] == write.address) {
          readers |= 1u << lane;
        }
      }
    }
    if (std::popcount(readers) >= 2) {
      LaneSharing& found = findings_[records[write.record].static_id];
      // One instruction may share several addresses: count it once.
      found.add({write.record != last_counted ? 1u : 0u,
                 static_cast<unsigned>(std::popcount(readers)), true});
      last_counted = write.record;
    }
  }
}

}  // namespace memcarlo::host::detail
