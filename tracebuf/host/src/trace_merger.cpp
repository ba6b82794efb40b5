// The warp merge: a doubly linked list of pending records in program order, and per static id the
// list of its executions, so that each lane event finds its warp instruction in O(1).
#include "trace_merger.hpp"

#include <algorithm>
#include <bit>

namespace memcarlo::host::detail {

void TraceMerger::link_before(std::uint32_t index, std::uint32_t before) {
  Pending& node = pending_[index];
  node.next = before;
  node.previous = before == kNone ? tail_ : pending_[before].previous;
  if (node.previous == kNone) {
    head_ = index;
  } else {
    pending_[node.previous].next = index;
  }
  if (before == kNone) {
    tail_ = index;
  } else {
    pending_[before].previous = index;
  }
}

const std::vector<std::uint32_t>& TraceMerger::write_order(std::size_t lane_count) {
  order_.clear();
  position_.assign(pending_.size(), 0);
  for (std::uint32_t index = head_; index != kNone; index = pending_[index].next) {
    position_[index] = static_cast<std::uint32_t>(order_.size());
    order_.push_back(index);
  }
  bool kept = true;
  for (std::size_t lane = 0; lane < lane_count && kept; ++lane) {
    const std::vector<std::uint32_t>& records = lane_records_[lane];
    for (std::size_t k = 1; k < records.size() && kept; ++k) {
      kept = position_[records[k - 1]] < position_[records[k]];
    }
  }
  if (kept) {
    return order_;  // the common case: the list keeps every lane's order
  }
  // A topological order of the lanes' orders, taking among the records ready to be written the
  // one first in the list. If the lanes' orders conflict (a cycle: two lanes that ran the same
  // two instructions in opposite orders), the first record in the list not yet written goes next.
  // The successors of each record (the next record of each of its lanes) in one flat array.
  const std::size_t count = pending_.size();
  waiting_.assign(count, 0);
  successors_begin_.assign(count + 1, 0);
  for (std::size_t lane = 0; lane < lane_count; ++lane) {
    const std::vector<std::uint32_t>& records = lane_records_[lane];
    for (std::size_t k = 1; k < records.size(); ++k) {
      ++waiting_[records[k]];
      ++successors_begin_[records[k - 1] + 1];
    }
  }
  for (std::size_t r = 0; r < count; ++r) {
    successors_begin_[r + 1] += successors_begin_[r];
  }
  successors_.resize(successors_begin_[count]);
  fill_.assign(successors_begin_.begin(), successors_begin_.end() - 1);
  for (std::size_t lane = 0; lane < lane_count; ++lane) {
    const std::vector<std::uint32_t>& records = lane_records_[lane];
    for (std::size_t k = 1; k < records.size(); ++k) {
      successors_[fill_[records[k - 1]]++] = records[k];
    }
  }
  // Ready records are flagged by list position; the cursor is at or before the first ready one.
  ready_.assign(count, 0);
  for (std::size_t at = 0; at < count; ++at) {
    ready_[at] = waiting_[order_[at]] == 0 ? 1 : 0;
  }
  written_.assign(count, false);
  result_.clear();
  std::size_t cursor = 0;
  std::size_t first_unwritten = 0;
  while (result_.size() < count) {
    while (cursor < count && ready_[cursor] == 0) {
      ++cursor;
    }
    std::uint32_t index;
    if (cursor < count) {
      index = order_[cursor];
      ready_[cursor] = 0;
    } else {
      while (written_[order_[first_unwritten]]) {
        ++first_unwritten;
      }
      index = order_[first_unwritten];  // a cycle: break it at the list's first unwritten record
      cursor = first_unwritten;
    }
    written_[index] = true;
    result_.push_back(index);
    for (std::uint32_t e = successors_begin_[index]; e < successors_begin_[index + 1]; ++e) {
      const std::uint32_t successor = successors_[e];
      if (--waiting_[successor] == 0 && !written_[successor]) {
        const std::uint32_t at = position_[successor];
        ready_[at] = 1;
        cursor = std::min<std::size_t>(cursor, at);
      }
    }
  }
  return result_;
}

bool TraceMerger::merge_convergent(std::span<const std::vector<LaneEvent>> lanes,
                                   std::span<const tracebuf::AccessKind> kinds,
                                   std::uint8_t& barriers, std::vector<tracebuf::WarpRecord>& out) {
  const std::vector<LaneEvent>& first = lanes.front();
  for (const std::vector<LaneEvent>& lane : lanes.subspan(1)) {
    if (lane.size() != first.size()) {
      return false;
    }
    for (std::size_t r = 0; r < first.size(); ++r) {
      if (lane[r].static_id != first[r].static_id) {
        return false;
      }
    }
  }
  for (std::size_t r = 0; r < first.size(); ++r) {
    std::uint32_t device_mask = 0;
    for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
      device_mask |= lanes[lane][r].device ? 1u << lane : 0u;
    }
    dropped_events_ += lanes.size() - static_cast<std::size_t>(std::popcount(device_mask));
    if (device_mask == 0) {
      continue;
    }
    tracebuf::WarpRecord& record = out.emplace_back();
    const std::uint32_t id = first[r].static_id;
    record.static_id = id;
    record.kind = id < kinds.size() ? kinds[id] : tracebuf::AccessKind::kRead;
    record.element_size = std::max<std::uint8_t>(first[r].size, 1);
    record.active_mask = device_mask;
    record.barriers = barriers;
    barriers = 0;
    for (std::uint32_t m = device_mask; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      record.addresses[lane] = lanes[lane][r].address;
    }
  }
  return true;
}

void TraceMerger::merge(std::span<const std::vector<LaneEvent>> lanes,
                        std::span<const tracebuf::AccessKind> kinds, std::uint8_t& barriers,
                        std::vector<tracebuf::WarpRecord>& out) {
  if (lanes.empty() || merge_convergent(lanes, kinds, barriers, out)) {
    return;
  }
  pending_.clear();
  head_ = tail_ = kNone;
  for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
    unlinked_.clear();
    lane_records_[lane].clear();
    for (const LaneEvent& event : lanes[lane]) {
      const std::uint32_t id = event.static_id;
      if (id >= counts_.size()) {
        counts_.resize(id + 1, 0);
        executions_.resize(id + 1);
      }
      if (executions_[id].empty()) {
        touched_.push_back(id);
      }
      const std::uint32_t k = counts_[id]++;
      std::uint32_t index;
      if (k < executions_[id].size()) {
        index = executions_[id][k];
        // The new instructions before it in this lane's order go right before it.
        for (const std::uint32_t fresh : unlinked_) {
          link_before(fresh, index);
        }
        unlinked_.clear();
      } else {
        index = static_cast<std::uint32_t>(pending_.size());
        pending_.push_back(Pending{id, 0, kNone, kNone, std::max<std::uint8_t>(event.size, 1)});
        if (addresses_.size() < pending_.size() * 32) {
          addresses_.resize(pending_.size() * 64);
        }
        executions_[id].push_back(index);
        unlinked_.push_back(index);
      }
      lane_records_[lane].push_back(index);
      if (event.device) {
        pending_[index].device_mask |= 1u << lane;
        addresses_[std::size_t{index} * 32 + lane] = event.address;
      } else {
        ++dropped_events_;
      }
    }
    for (const std::uint32_t fresh : unlinked_) {
      link_before(fresh, kNone);
    }
    // Execution counts are per lane; the per-id record lists are shared by the warp.
    for (const LaneEvent& event : lanes[lane]) {
      counts_[event.static_id] = 0;
    }
  }
  for (const std::uint32_t index : write_order(lanes.size())) {
    const Pending& pending = pending_[index];
    if (pending.device_mask == 0) {
      continue;  // no lane touched device memory
    }
    tracebuf::WarpRecord& record = out.emplace_back();
    record.static_id = pending.static_id;
    record.kind =
        pending.static_id < kinds.size() ? kinds[pending.static_id] : tracebuf::AccessKind::kRead;
    record.element_size = pending.size;
    record.active_mask = pending.device_mask;
    record.barriers = barriers;
    barriers = 0;
    const std::uint64_t* lanes_of = &addresses_[std::size_t{index} * 32];
    for (std::uint32_t m = pending.device_mask; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      record.addresses[lane] = lanes_of[lane];
    }
  }
  for (const std::uint32_t id : touched_) {
    executions_[id].clear();
  }
  touched_.clear();
}

}  // namespace memcarlo::host::detail
