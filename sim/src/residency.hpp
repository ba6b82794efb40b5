// Which blocks and warps are resident on which SM during a launch, and the block dispatch that
// follows the CTA scheduler's plan (schedule/cta_scheduler.hpp): the initial fill of every SM's
// resident slots, then back-to-back blocks into slots as they free up (paper §3.2.1). Shared by
// the SM side (warp picking, barriers) and the replay (dispatch, progress); no cache policy
// appears here, so it is compiled once.
#pragma once

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "trial_state.hpp"

namespace memcarlo::sim {

class Residency {
 public:
  Residency(const CompiledTrace& trace, TrialWorkspace::State& state, std::uint32_t sm_count)
      : trace_(trace), s_(state), sm_count_(sm_count) {}

  /// Sizes the SMs' slots for `launch` and places its first blocks per the plan in s_.cta_plan;
  /// `start` is each SM's start time (random start alignment).
  void setup(const LaunchTrace& launch, RandomStream& tie_break) {
    launch_ = &launch;
    tie_break_ = &tie_break;
    blocks_per_sm_ = launch.resident_blocks_per_sm;
    warps_per_block_ = launch.warps_per_block;
    slots_ = blocks_per_sm_ * warps_per_block_;
    if (slots_ >= kNoWarp) {
      throw std::invalid_argument("launch " + launch.kernel + ": more than 65534 resident warps");
    }
    s_.warps.assign(std::size_t{sm_count_} * slots_, WarpSlot{});
    schedulable_words_ = (slots_ + 63) / 64;
    s_.schedulable.assign(std::size_t{sm_count_} * schedulable_words_, 0);
    s_.blocks.assign(std::size_t{sm_count_} * blocks_per_sm_, BlockSlot{});
    s_.freed.clear();
    const schedule::CtaPlan& plan = s_.cta_plan;
    s_.queue_next.assign(plan.queue_begin.begin(), plan.queue_begin.end() - 1);
    live_blocks_ = 0;
    unplaced_ = launch.blocks.size();
    // Round by round: slot 0 of every SM, then slot 1, ...; each SM from its own queue.
    for (std::uint32_t block_slot = 0; block_slot < blocks_per_sm_ && unplaced_ > 0;
         ++block_slot) {
      for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
        place_next(sm, block_slot, s_.sms[sm].clock);
      }
    }
  }

  [[nodiscard]] bool done() const { return live_blocks_ == 0 && unplaced_ == 0; }
  [[nodiscard]] std::uint64_t live_blocks() const { return live_blocks_; }
  [[nodiscard]] std::uint32_t slots() const { return slots_; }
  [[nodiscard]] std::uint32_t warps_per_block() const { return warps_per_block_; }

  /// Back-to-back blocks: freed slots take the next blocks of their SM's queue, in the order
  /// they freed up (ties in random order).
  void dispatch() {
    while (!s_.freed.empty() && unplaced_ > 0) {
      std::sort(s_.freed.begin(), s_.freed.end(), [](const FreedBlock& a, const FreedBlock& b) {
        return a.time != b.time ? a.time < b.time : a.random_key < b.random_key;
      });
      std::vector<FreedBlock>& batch = freed_scratch_;
      batch.clear();
      batch.swap(s_.freed);  // place_next() may free more blocks into s_.freed
      std::size_t i = 0;
      for (; i < batch.size() && unplaced_ > 0; ++i) {
        // A slot whose SM's queue is empty stays free for good (place_next returns false).
        place_next(batch[i].sm, batch[i].block_slot, batch[i].time);
      }
      s_.freed.insert(s_.freed.end(), batch.begin() + static_cast<std::ptrdiff_t>(i), batch.end());
    }
    if (unplaced_ == 0) {
      s_.freed.clear();
    }
  }

  [[nodiscard]] std::uint64_t next_event() const {
    std::uint64_t next = kPendingFill;
    for (const WarpSlot& w : s_.warps) {
      if (w.live && w.pending == 0 && w.barrier_target == w.barriers_passed) {
        next = std::min(next, w.ready_time);
      }
    }
    return next;
  }

  WarpSlot& warp(std::uint32_t sm, std::uint32_t slot) {
    return s_.warps[std::size_t{sm} * slots_ + slot];
  }
  BlockSlot& block(std::uint32_t sm, std::uint32_t block_slot) {
    return s_.blocks[std::size_t{sm} * blocks_per_sm_ + block_slot];
  }

  /// Keeps the SM's schedulable bit of a warp in step with its state.
  void refresh(std::uint32_t sm, std::uint32_t slot) {
    const WarpSlot& w = warp(sm, slot);
    std::uint64_t& word = s_.schedulable[std::size_t{sm} * schedulable_words_ + slot / 64];
    const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
    if (w.live && w.pending == 0 && w.barrier_target == w.barriers_passed) {
      word |= bit;
    } else {
      word &= ~bit;
    }
  }

  /// Weighted round-robin: the first schedulable warp from `first` on (circularly) that is ready
  /// at `clock`, or kNoWarp with `earliest` = when the first schedulable one will be.
  std::uint32_t pick(std::uint32_t sm, std::uint32_t first, std::uint64_t clock,
                     std::uint64_t& earliest) {
    const std::uint64_t* words = s_.schedulable.data() + std::size_t{sm} * schedulable_words_;
    const std::uint32_t first_word = first / 64;
    const std::uint64_t from_first = ~std::uint64_t{0} << (first % 64);
    for (std::uint32_t k = 0; k <= schedulable_words_; ++k) {
      std::uint32_t index = first_word + k;
      index = index >= schedulable_words_ ? index - schedulable_words_ : index;
      std::uint64_t bits = words[index];
      bits &= k == 0 ? from_first : k == schedulable_words_ ? ~from_first : ~std::uint64_t{0};
      for (; bits != 0; bits &= bits - 1) {
        const std::uint32_t slot = index * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
        const std::uint64_t ready = warp(sm, slot).ready_time;
        if (ready <= clock) {
          return slot;
        }
        earliest = std::min(earliest, ready);
      }
    }
    return kNoWarp;
  }

  /// A warp of `block_slot` ran out of bulks at `time`.
  void warp_finished(std::uint32_t sm, std::uint32_t block_slot, std::uint64_t time) {
    BlockSlot& b = block(sm, block_slot);
    --b.live_warps;
    if (b.live_warps == 0) {
      finish_block(sm, block_slot, time);
    } else {
      release_barriers(sm, block_slot, time);  // an exited warp no longer holds them
    }
  }

  /// Releases the warps of a block whose barrier every live warp of the block has reached.
  void release_barriers(std::uint32_t sm, std::uint32_t block_slot, std::uint64_t now) {
    const BlockSlot& b = block(sm, block_slot);
    std::uint32_t reached = 0xFFFFFFFF;
    for (std::uint32_t i = 0; i < b.warp_count; ++i) {
      const WarpSlot& w = warp(sm, b.first_warp_slot + i);
      if (w.live) {
        reached = std::min(reached, w.barrier_target);
      }
    }
    for (std::uint32_t i = 0; i < b.warp_count; ++i) {
      WarpSlot& w = warp(sm, b.first_warp_slot + i);
      if (w.live && w.barrier_target > w.barriers_passed && w.barrier_target <= reached) {
        w.barriers_passed = w.barrier_target;
        w.barrier_bulk = w.bulk;
        w.ready_time = std::max(w.ready_time, now);
        refresh(sm, b.first_warp_slot + i);
      }
    }
  }

 private:
  /// Places the next block of `sm`'s queue in its slot `block_slot`; false if the queue is empty.
  bool place_next(std::uint32_t sm, std::uint32_t block_slot, std::uint64_t time) {
    const schedule::CtaPlan& plan = s_.cta_plan;
    const std::uint32_t queue = plan.queue_of_sm[sm];
    std::uint32_t& next = s_.queue_next[queue];
    if (next == plan.queue_begin[queue + 1]) {
      return false;
    }
    place(sm, block_slot, launch_->blocks[plan.order[next++]], time);
    return true;
  }

  void place(std::uint32_t sm, std::uint32_t block_slot, const BlockTrace& block,
             std::uint64_t time) {
    --unplaced_;
    BlockSlot& b = this->block(sm, block_slot);
    b.occupied = true;
    b.first_warp_slot = block_slot * warps_per_block_;
    b.warp_count = block.warp_count;
    b.block_id = block.block_id;
    b.live_warps = 0;
    for (std::uint32_t w = 0; w < block.warp_count; ++w) {
      const WarpTrace& trace = trace_.warps[block.first_warp + w];
      WarpSlot& slot = warp(sm, b.first_warp_slot + w);
      slot = WarpSlot{};
      slot.bulk = trace.first_bulk;
      slot.bulk_end = trace.first_bulk + trace.bulk_count;
      slot.ready_time = time;
      slot.block_slot = block_slot;
      slot.live = trace.bulk_count > 0;
      b.live_warps += slot.live ? 1 : 0;
      refresh(sm, b.first_warp_slot + w);
    }
    ++live_blocks_;
    if (b.live_warps == 0) {
      finish_block(sm, block_slot, time);
    }
  }

  void finish_block(std::uint32_t sm, std::uint32_t block_slot, std::uint64_t time) {
    block(sm, block_slot).occupied = false;
    --live_blocks_;
    s_.freed.push_back(
        {time, tie_break_->next_u32(), static_cast<std::uint16_t>(sm), block_slot});
  }

  const CompiledTrace& trace_;
  TrialWorkspace::State& s_;
  std::uint32_t sm_count_;
  const LaunchTrace* launch_ = nullptr;
  RandomStream* tie_break_ = nullptr;
  std::uint32_t blocks_per_sm_ = 0;
  std::uint32_t warps_per_block_ = 0;
  std::uint32_t slots_ = 0;
  std::uint32_t schedulable_words_ = 1;
  std::uint64_t live_blocks_ = 0;
  std::size_t unplaced_ = 0;
  std::vector<FreedBlock> freed_scratch_;
};

}  // namespace memcarlo::sim
