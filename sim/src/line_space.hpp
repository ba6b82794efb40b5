// The line space of a trial: every L1 line the caches may hold has a dense id. The traced lines
// come first (ids and homes from the compiled trace); after them, a bounded per-trial tail of
// untraced lines, the ones a GPU prefetcher asks for that no traced access touches. Such a line
// still takes a way in the L1 and the L2, evicts and costs bandwidth; it only can never be hit by
// a demand access. Its sets and home are computed from its address when it is first seen (by the
// trace's placement), and its id is recycled once no cache holds it, so the tail stays bounded.
// With no tail (no prefetcher), the per-line arrays are the compiled trace's own: nothing is
// copied and the replay reads them as before.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/ids.hpp"
#include "memcarlo/sim/placement/placement.hpp"
#include "memcarlo/sim/private_caches.hpp"

namespace memcarlo::sim {

class LineSpace {
 public:
  /// Per-line arrays, indexed by line id (traced and untraced alike).
  struct View {
    const std::uint32_t* l1_set;
    const std::uint32_t* l2_set;  // [id * parts + part]
    const DramLocation* dram;
  };

  /// The traced lines of `trace`, then room for `tail` untraced ones.
  void reset(const CompiledTrace& trace, const HierarchyConfig& config, std::uint32_t tail) {
    trace_ = &trace;
    traced_ = trace.l1_line_count();
    tail_ = tail;
    parts_ = trace.l2_lines_per_l1_line;
    used_ = 0;
    seen_ = 0;
    cursor_ = 0;
    if (tail == 0) {
      view_ = {trace.l1_set.data(), trace.l2_set.data(), trace.dram_location.data()};
      return;
    }
    placement_ = placement::make(config);
    line_bytes_ = config.l1.line;
    l1_sets_ = config.l1.enabled ? config.l1.sets() : 1;
    const std::size_t lines = std::size_t{traced_} + tail;
    l1_set_.assign(trace.l1_set.begin(), trace.l1_set.end());
    l1_set_.resize(lines);
    l2_set_.assign(trace.l2_set.begin(), trace.l2_set.end());
    l2_set_.resize(lines * parts_);
    dram_.assign(trace.dram_location.begin(), trace.dram_location.end());
    dram_.resize(lines);
    address_.assign(tail, 0);
    last_epoch_.assign(tail, 0);
    table_.assign(std::bit_ceil(std::size_t{tail} * 2), kEmpty);
    view_ = {l1_set_.data(), l2_set_.data(), dram_.data()};
  }

  [[nodiscard]] const View& view() const { return view_; }

  /// For first-touch placement (numa.hpp): the trial moves traced lines to the modules it picks,
  /// so it needs its own copies of their L2 sets and DRAM locations; made here if reset made
  /// none. Call after reset, before the launches.
  void own_homes() {
    if (view_.l2_set != trace_->l2_set.data()) {
      return;  // copied already (there is a tail)
    }
    l2_set_.assign(trace_->l2_set.begin(), trace_->l2_set.end());
    dram_.assign(trace_->dram_location.begin(), trace_->dram_location.end());
    view_ = {trace_->l1_set.data(), l2_set_.data(), dram_.data()};
  }
  /// Moves traced line `id` (placed on module 0 by the compile) `set_offset` L2 sets and
  /// `channel_offset` DRAM channels up: onto the module the trial picked. After own_homes().
  void move_home(std::uint32_t id, std::uint32_t set_offset, std::uint16_t channel_offset) {
    for (std::uint32_t part = 0; part < parts_; ++part) {
      const std::size_t at = std::size_t{id} * parts_ + part;
      l2_set_[at] = trace_->l2_set[at] + set_offset;
    }
    dram_[id] = trace_->dram_location[id];
    dram_[id].channel = static_cast<std::uint16_t>(dram_[id].channel + channel_offset);
  }
  [[nodiscard]] std::uint32_t traced() const { return traced_; }
  /// Ids the caches' per-line tables must have room for.
  [[nodiscard]] std::uint32_t capacity() const { return traced_ + tail_; }
  /// The first byte of untraced line `id` (>= traced()).
  [[nodiscard]] ByteAddress address_of(LineId id) const {
    return ByteAddress{address_[value_of(id) - traced_]};
  }
  /// Bytes held (the per-line copies exist only with a tail).
  [[nodiscard]] std::uint64_t bytes() const {
    return l1_set_.capacity() * 4 + l2_set_.capacity() * 4 +
           dram_.capacity() * sizeof(DramLocation) + address_.capacity() * 8 +
           last_epoch_.capacity() * 8 + table_.capacity() * 4;
  }
  /// Distinct untraced lines given an id so far (recycled ids count again).
  [[nodiscard]] std::uint64_t untraced_seen() const { return seen_; }

  /// The id of the L1 line at `address` (any byte of it), used in `epoch` (counted over the
  /// whole trial, never restarting): a traced line's, or
  /// an untraced line's, given one if it has none. A new untraced line takes a free id, or the
  /// id of an untraced line that `is_free(id)` says no cache holds and that no request of this
  /// epoch names; kNoLine when there is none.
  template <class IsFree>
  LineId id_of(ByteAddress address, std::uint64_t epoch, IsFree&& is_free) {
    const std::uint64_t line_address = value_of(address) / line_bytes_ * line_bytes_;
    if (const auto traced = trace_->find_line(line_address)) {
      return LineId{*traced};
    }
    if (tail_ == 0) {
      return LineId{kNoLine};
    }
    std::size_t at = home(line_address);
    for (; table_[at] != kEmpty; at = (at + 1) & (table_.size() - 1)) {
      if (address_[table_[at]] == line_address) {
        last_epoch_[table_[at]] = epoch;
        return LineId{traced_ + table_[at]};
      }
    }
    std::uint32_t index = kEmpty;
    if (used_ < tail_) {
      index = used_++;
    } else {
      for (std::uint32_t step = 0; step < tail_ && index == kEmpty; ++step) {
        const std::uint32_t candidate = cursor_;
        cursor_ = cursor_ + 1 == tail_ ? 0 : cursor_ + 1;
        if (last_epoch_[candidate] < epoch && is_free(traced_ + candidate)) {
          index = candidate;
        }
      }
      if (index == kEmpty) {
        return LineId{kNoLine};
      }
      erase(address_[index]);
      at = home(line_address);
      while (table_[at] != kEmpty) {
        at = (at + 1) & (table_.size() - 1);
      }
    }
    table_[at] = index;
    address_[index] = line_address;
    last_epoch_[index] = epoch;
    ++seen_;
    const std::uint32_t id = traced_ + index;
    l1_set_[id] = static_cast<std::uint32_t>(line_address / line_bytes_ % l1_sets_);
    dram_[id] = placement_->place(ByteAddress{line_address},
                                  {l2_set_.data() + std::size_t{id} * parts_, parts_})
                    .dram;
    return LineId{id};
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFF;

  [[nodiscard]] std::size_t home(std::uint64_t line_address) const {
    return static_cast<std::size_t>(mix64(line_address)) & (table_.size() - 1);
  }

  /// Removes `line_address` from the open-addressing table, shifting later entries of its
  /// probe run back (linear probing needs no tombstones then).
  void erase(std::uint64_t line_address) {
    const std::size_t mask = table_.size() - 1;
    std::size_t hole = home(line_address);
    while (address_[table_[hole]] != line_address) {
      hole = (hole + 1) & mask;
    }
    table_[hole] = kEmpty;
    for (std::size_t next = (hole + 1) & mask; table_[next] != kEmpty; next = (next + 1) & mask) {
      const std::size_t wanted = home(address_[table_[next]]);
      // The entry at `next` may move into the hole unless its home lies cyclically in
      // (hole, next].
      const bool stays = hole < next ? (wanted > hole && wanted <= next)
                                     : (wanted > hole || wanted <= next);
      if (!stays) {
        table_[hole] = table_[next];
        table_[next] = kEmpty;
        hole = next;
      }
    }
  }

  const CompiledTrace* trace_ = nullptr;
  std::unique_ptr<placement::Placement> placement_;
  std::uint32_t traced_ = 0;
  std::uint32_t tail_ = 0;
  std::uint32_t parts_ = 1;
  std::uint32_t used_ = 0;
  std::uint32_t cursor_ = 0;
  std::uint64_t seen_ = 0;
  std::uint64_t line_bytes_ = 128;
  std::uint64_t l1_sets_ = 1;
  View view_{};
  std::vector<std::uint32_t> l1_set_;
  std::vector<std::uint32_t> l2_set_;
  std::vector<DramLocation> dram_;
  std::vector<std::uint64_t> address_;     // per untraced index: its line address
  std::vector<std::uint64_t> last_epoch_;  // per untraced index: the last epoch that named it
  std::vector<std::uint32_t> table_;       // open addressing: untraced index or kEmpty
};

}  // namespace memcarlo::sim
