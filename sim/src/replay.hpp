// The replay of one launch in one trial (paper §3.2), templated on the L1 and L2 replacement
// policies so that their hooks inline. Time advances in epochs: every SM issues bulks from its
// warps up to the epoch's end (weighted round-robin, bulk sequences, barriers, MSHR limit); then
// the L2 drains the SM queues in a weighted random order, the DRAM serves the L2 misses in random
// batches, and fill times flow back to the L1s and the waiting warps.
#pragma once

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "memcarlo/tracebuf/model.hpp"
#include "trial_state.hpp"

namespace memcarlo::sim {

template <class L1Policy, class L2Policy>
class Replay {
 public:
  Replay(const CompiledTrace& trace, const HierarchyConfig& config, TrialRandom& random,
         TrialWorkspace::State& state, CacheArray<L1Policy>& l1, CacheArray<L2Policy>& l2,
         TrialResult& result)
      : trace_(trace), config_(config), random_(random), s_(state), l1_(l1), l2_(l2),
        result_(result) {
    sm_count_ = config.sm.count;
    l1_enabled_ = config.l1.enabled;
    sectored_l1_ = config.l1.sector < config.l1.line;
    t1_ = config.l1.latency;
    t2_ = config.l2.latency;
    chunks_per_l1_sector_ = config.l1.sector / config.l2.sector;
    all_chunks_ = static_cast<std::uint8_t>((1u << (config.l1.line / config.l2.sector)) - 1);
    bursts_per_sector_ = std::max<std::uint32_t>(1, config.l2.sector / 32);
    const std::string& policy = config.l1.store_policy;
    store_policy_ = policy == "no_allocate_invalidate" ? StorePolicy::kInvalidate
                    : policy == "allocate"             ? StorePolicy::kAllocate
                                                       : StorePolicy::kUpdate;
    weighted_random_ = config.interconnect.scheduler == "weighted_random";
    write_activation_ = config.l2.write_activation;
    all_l1_sectors_ = static_cast<std::uint8_t>((1u << config.l1.sectors_per_line()) - 1);
    counters_ = state.slot_counters.data();
  }

  void run_launch(const LaunchTrace& launch) {
    setup(launch);
    std::uint64_t epoch_start = 0;
    const std::uint64_t epoch = config_.interconnect.epoch_cycles;
    while (live_blocks_ > 0 || next_block_ < launch.blocks.size()) {
      const std::uint64_t epoch_end = epoch_start + epoch;
      issued_ = false;
      for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
        run_sm(sm, epoch_start, epoch_end);
      }
      drain(epoch_end);
      dispatch(launch);
      epoch_start = epoch_end;
      if (!issued_ && live_blocks_ > 0) {
        const std::uint64_t next = next_event();
        if (next == kPendingFill) {
          throw std::logic_error("replay made no progress: every live warp is blocked");
        }
        if (next > epoch_start) {
          epoch_start += (next - epoch_start) / epoch * epoch;
        }
      }
    }
    std::uint64_t last = 0;
    for (const SmState& m : s_.sms) {
      last = std::max(last, m.clock);
    }
    result_.cycles += last;
  }

 private:
  // ---- setup and block scheduling ----------------------------------------------------------

  void setup(const LaunchTrace& launch) {
    launch_ = &launch;
    blocks_per_sm_ = launch.resident_blocks_per_sm;
    warps_per_block_ = launch.warps_per_block;
    slots_ = blocks_per_sm_ * warps_per_block_;
    s_.sms.resize(sm_count_);
    for (SmState& m : s_.sms) {
      m.clock = 0;
      m.round_robin = random_.below(slots_);
      m.misses.reset();
      m.queue.clear();
    }
    s_.warps.assign(std::size_t{sm_count_} * slots_, WarpSlot{});
    s_.blocks.assign(std::size_t{sm_count_} * blocks_per_sm_, BlockSlot{});
    s_.freed.clear();
    s_.waits.clear();
    if (l1_enabled_) {
      l1_.reset(sm_count_, config_.l1.sets(), config_.l1.associativity, trace_.l1_line_count(),
                L1Policy{});
    }
    l2_.reset(1, config_.l2.sets(), config_.l2.associativity, trace_.l2_line_count(), L2Policy{});
    s_.dram->reset();
    live_blocks_ = 0;
    next_block_ = 0;

    // Random start alignment (§3.2.1): each SM's first blocks start after a random delay of up
    // to start_jitter x the issue time of one block.
    const double block_cycles =
        launch.blocks.empty() ? 0.0
                              : static_cast<double>(launch.transactions) /
                                    static_cast<double>(launch.blocks.size()) *
                                    config_.sm.issue_cycles;
    const double jitter = config_.schedule.start_jitter * block_cycles;
    for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
      s_.sms[sm].clock = static_cast<std::uint64_t>(random_.uniform() * jitter);
    }
    // Round-robin assignment with occupancy: block i goes to SM i mod S, slot i div S.
    const std::uint64_t initial =
        std::min<std::uint64_t>(launch.blocks.size(), std::uint64_t{sm_count_} * blocks_per_sm_);
    for (std::uint64_t i = 0; i < initial; ++i) {
      const auto sm = static_cast<std::uint32_t>(i % sm_count_);
      place(sm, static_cast<std::uint32_t>(i / sm_count_), s_.sms[sm].clock);
    }
    dispatch(launch);  // blocks with no records finish at once
  }

  void place(std::uint32_t sm, std::uint32_t block_slot, std::uint64_t time) {
    const BlockTrace& block = launch_->blocks[next_block_++];
    BlockSlot& b = s_.blocks[std::size_t{sm} * blocks_per_sm_ + block_slot];
    b.occupied = true;
    b.first_warp_slot = block_slot * warps_per_block_;
    b.warp_count = block.warp_count;
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
    }
    ++live_blocks_;
    if (b.live_warps == 0) {
      finish_block(sm, block_slot, time);
    }
  }

  void finish_block(std::uint32_t sm, std::uint32_t block_slot, std::uint64_t time) {
    s_.blocks[std::size_t{sm} * blocks_per_sm_ + block_slot].occupied = false;
    --live_blocks_;
    s_.freed.push_back({time, random_.next_u32(), static_cast<std::uint16_t>(sm), block_slot});
  }

  /// Back-to-back blocks: freed slots take the next blocks in the order they freed up.
  void dispatch(const LaunchTrace& launch) {
    while (!s_.freed.empty() && next_block_ < launch.blocks.size()) {
      std::sort(s_.freed.begin(), s_.freed.end(), [](const FreedBlock& a, const FreedBlock& b) {
        return a.time != b.time ? a.time < b.time : a.random_key < b.random_key;
      });
      std::vector<FreedBlock>& batch = freed_scratch_;
      batch.clear();
      batch.swap(s_.freed);  // place() may free more blocks into s_.freed
      std::size_t i = 0;
      for (; i < batch.size() && next_block_ < launch.blocks.size(); ++i) {
        place(batch[i].sm, batch[i].block_slot, batch[i].time);
      }
      s_.freed.insert(s_.freed.end(), batch.begin() + static_cast<std::ptrdiff_t>(i), batch.end());
    }
    if (next_block_ >= launch.blocks.size()) {
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

  // ---- the SM: warp scheduling and L1 --------------------------------------------------------

  void run_sm(std::uint32_t sm, std::uint64_t epoch_start, std::uint64_t epoch_end) {
    SmState& m = s_.sms[sm];
    m.misses.advance_to(epoch_start / config_.interconnect.epoch_cycles);
    std::uint64_t clock = std::max(m.clock, epoch_start);
    while (clock < epoch_end) {
      std::uint32_t chosen = kNoWarp;
      std::uint64_t earliest = kPendingFill;
      for (std::uint32_t i = 0; i < slots_; ++i) {
        std::uint32_t slot = m.round_robin + i;
        slot = slot >= slots_ ? slot - slots_ : slot;
        const WarpSlot& w = warp(sm, slot);
        if (!w.live || w.pending != 0 || w.barrier_target != w.barriers_passed) {
          continue;
        }
        if (w.ready_time <= clock) {
          chosen = slot;
          break;
        }
        earliest = std::min(earliest, w.ready_time);
      }
      if (chosen == kNoWarp) {
        clock = earliest < epoch_end ? earliest : epoch_end;
        continue;
      }
      clock = issue(sm, chosen, clock, epoch_end);
      m.round_robin = chosen + 1 == slots_ ? 0 : chosen + 1;
    }
    m.clock = clock;
  }

  /// Issues up to warp_quantum bulks of one warp; returns the SM clock after them.
  std::uint64_t issue(std::uint32_t sm, std::uint32_t slot, std::uint64_t clock,
                      std::uint64_t epoch_end) {
    SmState& m = s_.sms[sm];
    WarpSlot& w = warp(sm, slot);
    for (std::uint32_t q = 0; q < config_.sm.warp_quantum; ++q) {
      const Bulk& bulk = trace_.bulks[w.bulk];
      if (bulk.barriers > 0 && w.barrier_bulk != w.bulk) {
        w.barrier_target = w.barriers_passed + bulk.barriers;
        release_barriers(sm, w.block_slot, clock);
        if (w.barrier_target != w.barriers_passed) {
          return clock;  // waits for the rest of its block
        }
      }
      if (bulk.has_loads && l1_enabled_ && m.misses.outstanding() >= config_.l1.mshrs) {
        return epoch_end;  // MSHRs full: the SM stalls until fills retire (next epoch)
      }
      issued_ = true;
      const Transaction* t = trace_.transactions.data() + bulk.first_transaction;
      for (std::uint32_t i = 0; i < bulk.transaction_count; ++i, ++t) {
        switch (static_cast<tracebuf::AccessKind>(t->kind)) {
          case tracebuf::AccessKind::kRead:
            load(sm, slot, *t, clock);
            break;
          case tracebuf::AccessKind::kWrite:
            store(sm, *t, clock);
            break;
          case tracebuf::AccessKind::kReadModifyWrite:
            load(sm, slot, *t, clock);
            store(sm, *t, clock);
            break;
          case tracebuf::AccessKind::kAtomic:
            atomic(sm, slot, *t, clock);
            break;
        }
        clock += config_.sm.issue_cycles;
      }
      ++w.bulk;
      if (w.bulk == w.bulk_end) {
        w.live = false;
        BlockSlot& b = s_.blocks[std::size_t{sm} * blocks_per_sm_ + w.block_slot];
        --b.live_warps;
        if (b.live_warps == 0) {
          finish_block(sm, w.block_slot, clock);
        } else {
          release_barriers(sm, w.block_slot, clock);  // an exited warp no longer holds them
        }
        return clock;
      }
      if (bulk.has_loads || w.pending != 0 || w.ready_time > clock) {
        return clock;
      }
    }
    return clock;
  }

  /// Releases the warps of a block whose barrier every live warp of the block has reached.
  void release_barriers(std::uint32_t sm, std::uint32_t block_slot, std::uint64_t now) {
    const BlockSlot& b = s_.blocks[std::size_t{sm} * blocks_per_sm_ + block_slot];
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
      }
    }
  }

  AccessCounters& counters(std::uint32_t slot) { return counters_[slot]; }

  /// L2-sector chunks covering the given L1 sectors.
  [[nodiscard]] std::uint8_t chunks_of(std::uint8_t l1_sectors) const {
    if (chunks_per_l1_sector_ == 1) {
      return l1_sectors;
    }
    std::uint32_t out = 0;
    const std::uint32_t group = (1u << chunks_per_l1_sector_) - 1;
    for (std::uint32_t m = l1_sectors; m != 0; m &= m - 1) {
      out |= group << (static_cast<std::uint32_t>(std::countr_zero(m)) * chunks_per_l1_sector_);
    }
    return static_cast<std::uint8_t>(out);
  }

  void send(std::uint32_t sm, const Transaction& t, tracebuf::AccessKind kind,
            std::uint8_t sectors, std::uint32_t waiting_warp, std::uint64_t clock) {
    L2Request r{};
    r.issue_time = clock;
    r.fill_time = clock + t2_;
    r.line = t.line;
    r.slot = t.slot;
    r.warp = waiting_warp;
    r.sm = static_cast<std::uint16_t>(sm);
    r.kind = static_cast<std::uint8_t>(kind);
    r.sectors = sectors;
    s_.sms[sm].queue.push_back(r);
  }

  void load(std::uint32_t sm, std::uint32_t slot, const Transaction& t, std::uint64_t clock) {
    WarpSlot& w = warp(sm, slot);
    if (!l1_enabled_) {
      send(sm, t, tracebuf::AccessKind::kRead, t.l2_sectors, slot, clock);
      ++w.pending;
      return;
    }
    AccessCounters& c = counters(t.slot);
    const auto requested = static_cast<std::uint32_t>(std::popcount(t.l1_sectors));
    ++c.l1_accesses;
    c.l1_sectors += requested;
    const std::uint32_t set = trace_.l1_set[t.line];
    const std::uint8_t way = l1_.lookup(sm, t.line);
    std::uint8_t missing = t.l1_sectors;
    if (way != kNoWay) {
      WayState& state = l1_.way(sm, set, way);
      missing = static_cast<std::uint8_t>(t.l1_sectors & ~state.valid);
      l1_.touch(sm, set, way);
      if (missing == 0) {
        ++c.l1_hits;
        c.l1_sector_hits += requested;
        if (state.fill_time > clock) {
          ++c.l1_inflight_hits;
          if (state.fill_time == kPendingFill) {
            s_.waits.push_back({static_cast<std::uint16_t>(sm), slot, t.line});
            ++w.pending;
            return;
          }
        }
        w.ready_time = std::max(w.ready_time, std::max(state.fill_time, clock + t1_));
        return;
      }
      c.l1_sector_hits += requested - static_cast<std::uint32_t>(std::popcount(missing));
      state.valid |= missing;
      state.fill_time = kPendingFill;
    } else {
      const auto eviction = l1_.fill(sm, set, t.line, random_);
      WayState& state = l1_.way(sm, set, eviction.way);
      missing = sectored_l1_ ? t.l1_sectors : all_l1_sectors_;
      state.valid = missing;
      state.fill_time = kPendingFill;
    }
    send(sm, t, tracebuf::AccessKind::kRead, sectored_l1_ ? chunks_of(missing) : all_chunks_, slot,
         clock);
    ++w.pending;
    s_.sms[sm].misses.add_unresolved();
  }

  void store(std::uint32_t sm, const Transaction& t, std::uint64_t clock) {
    if (l1_enabled_) {
      const std::uint32_t set = trace_.l1_set[t.line];
      const std::uint8_t way = l1_.lookup(sm, t.line);
      if (way != kNoWay) {
        if (store_policy_ == StorePolicy::kInvalidate) {
          l1_.invalidate(sm, set, t.line);
        } else {
          l1_.way(sm, set, way).valid |= t.l1_sectors;
        }
      } else if (store_policy_ == StorePolicy::kAllocate) {
        const auto eviction = l1_.fill(sm, set, t.line, random_);
        WayState& state = l1_.way(sm, set, eviction.way);
        state.valid = t.l1_sectors;
        state.fill_time = clock;
      }
    }
    send(sm, t, tracebuf::AccessKind::kWrite, t.l2_sectors, kNoWarp, clock);
  }

  void atomic(std::uint32_t sm, std::uint32_t slot, const Transaction& t, std::uint64_t clock) {
    send(sm, t, tracebuf::AccessKind::kAtomic, t.l2_sectors, slot, clock);
    ++warp(sm, slot).pending;
  }

  // ---- the L2, the DRAM and the way back ------------------------------------------------------

  void drain(std::uint64_t epoch_end) {
    auto& order = s_.drain_order;
    order.clear();
    for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
      order.insert(order.end(), s_.sms[sm].queue.size(), static_cast<std::uint16_t>(sm));
    }
    if (order.empty() && s_.waits.empty()) {
      return;
    }
    if (weighted_random_) {
      // Picking queue i with probability (its remaining length) / (all remaining) at every step
      // gives each interleaving of the queues probability prod(n_i!) / N!: a uniform shuffle of
      // the SM labels, drawn with Fisher-Yates.
      for (std::size_t i = order.size(); i > 1; --i) {
        std::swap(order[i - 1], order[random_.below(static_cast<std::uint32_t>(i))]);
      }
    } else {  // round_robin: one request per non-empty queue in turn, from a random SM
      std::size_t remaining = order.size();
      order.clear();
      const std::uint32_t start = random_.below(sm_count_);
      cursor_.resize(sm_count_);
      for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
        cursor_[sm] = s_.sms[sm].queue.size();  // requests left in each queue
      }
      for (std::uint32_t k = 0; remaining > 0; ++k) {
        const std::uint32_t sm = (start + k) % sm_count_;
        if (cursor_[sm] > 0) {
          order.push_back(static_cast<std::uint16_t>(sm));
          --cursor_[sm];
          --remaining;
        }
      }
    }
    s_.processed.clear();
    s_.dram_requests.clear();
    s_.dram_meta.clear();
    cursor_.assign(sm_count_, 0);
    for (std::uint16_t sm : order) {
      l2_access(s_.sms[sm].queue[cursor_[sm]++]);
    }
    for (SmState& m : s_.sms) {
      m.queue.clear();
    }
    drain_dram();
    resolve(epoch_end);
  }

  void l2_access(const L2Request& request) {
    const auto index = static_cast<std::uint32_t>(s_.processed.size());
    s_.processed.push_back(request);
    const auto kind = static_cast<tracebuf::AccessKind>(request.kind);
    const std::uint32_t parts = trace_.l2_lines_per_l1_line;
    const std::uint32_t per_part = trace_.l2_sectors_per_l2_line;
    const std::uint32_t part_mask = (1u << per_part) - 1;
    const bool write = kind == tracebuf::AccessKind::kWrite;
    const bool atomic = kind == tracebuf::AccessKind::kAtomic;
    std::uint32_t accesses = 0;
    std::uint32_t hits = 0;
    std::uint32_t sectors = 0;
    std::uint32_t sector_hits = 0;
    std::uint32_t missing_sectors = 0;  // to read from DRAM (loads, atomics)
    std::uint32_t written_through = 0;  // to write to DRAM (store misses)
    std::uint32_t first_missing = kNoLine;
    std::uint32_t first_written = kNoLine;
    for (std::uint32_t p = 0; p < parts; ++p) {
      const auto bits = static_cast<std::uint8_t>((request.sectors >> (p * per_part)) & part_mask);
      if (bits == 0) {
        continue;
      }
      const std::uint32_t id = request.line * parts + p;
      const std::uint32_t set = trace_.l2_set[id];
      const auto count = static_cast<std::uint32_t>(std::popcount(bits));
      std::uint8_t way = l2_.lookup(0, id);
      WayState* state = nullptr;
      if (way == kNoWay) {
        way = allocate_l2(id, set);
        state = &l2_.way(0, set, way);
      } else {
        state = &l2_.way(0, set, way);
        l2_.touch(0, set, way);
      }
      // Write hits follow the C2050 rule when write_activation is set (paper §2.1): only
      // sectors that a store brought in or wrote take a store as a hit.
      const std::uint8_t present = write && write_activation_ ? state->written : state->valid;
      const auto present_bits = static_cast<std::uint8_t>(present & bits);
      ++accesses;
      sectors += count;
      sector_hits += static_cast<std::uint32_t>(std::popcount(present_bits));
      if (present_bits == bits) {
        ++hits;
        if (write) {
          state->dirty |= bits;
        }
      } else if (write) {
        // Write miss (paper §2.1): memory is updated and the block becomes valid in the L2.
        written_through += count;
        first_written = first_written == kNoLine ? id : first_written;
      } else {
        missing_sectors += static_cast<std::uint32_t>(std::popcount(
            static_cast<std::uint8_t>(bits & ~state->valid)));
        first_missing = first_missing == kNoLine ? id : first_missing;
      }
      state->valid |= bits;
      if (write || atomic) {
        state->written |= bits;
      }
      if (atomic) {
        state->dirty |= bits;
      }
    }
    AccessCounters& c = counters(request.slot);
    if (write) {
      c.l2_writes += accesses;
      c.l2_write_hits += hits;
      c.l2_write_sectors += sectors;
      c.l2_write_sector_hits += sector_hits;
    } else if (atomic) {
      c.l2_atomics += accesses;
      c.l2_atomic_hits += hits;
    } else {
      c.l2_reads += accesses;
      c.l2_read_hits += hits;
      c.l2_read_sectors += sectors;
      c.l2_read_sector_hits += sector_hits;
    }
    // The L2 misses of one request lie in one L1 line, hence in one DRAM row (the loader checks
    // that dram.interleave_bytes is a multiple of l1.line): one DRAM request each way.
    if (first_missing != kNoLine) {
      s_.dram_requests.push_back(
          {trace_.dram_location[first_missing], missing_sectors * bursts_per_sector_, false});
      s_.dram_meta.push_back({index, request.slot});
    }
    if (first_written != kNoLine) {
      dram_write(first_written, written_through);
    }
  }

  std::uint8_t allocate_l2(std::uint32_t id, std::uint32_t set) {
    const auto eviction = l2_.fill(0, set, id, random_);
    if (eviction.evicted_line != kNoLine) {
      if (eviction.evicted_dirty != 0) {
        dram_write(eviction.evicted_line,
                   static_cast<std::uint32_t>(std::popcount(eviction.evicted_dirty)));
      }
      if (config_.l2.inclusive && l1_enabled_) {
        const std::uint32_t l1_line = eviction.evicted_line / trace_.l2_lines_per_l1_line;
        result_.back_invalidations += l1_.invalidate_everywhere(trace_.l1_set[l1_line], l1_line);
      }
    }
    return static_cast<std::uint8_t>(eviction.way);
  }

  void dram_write(std::uint32_t id, std::uint32_t sectors) {
    s_.dram_requests.push_back({trace_.dram_location[id], sectors * bursts_per_sector_, true});
    s_.dram_meta.push_back({kNoRequest, 0});
  }

  /// Random batches (paper §3.2.3): up to max_groups groups of 1..max_group requests each.
  void drain_dram() {
    const std::size_t n = s_.dram_requests.size();
    const std::uint32_t groups =
        config_.dram.batch_max_groups == 0 ? sm_count_ : config_.dram.batch_max_groups;
    std::size_t begin = 0;
    while (begin < n) {
      std::size_t end = begin;
      for (std::uint32_t g = 0; g < groups && end < n; ++g) {
        end = std::min(n, end + 1 + random_.below(config_.dram.batch_max_group));
      }
      const double latency = s_.dram->batch_latency(
          std::span<const dram::Request>(s_.dram_requests.data() + begin, end - begin));
      const double full = static_cast<double>(t2_) + latency;
      const auto full_cycles = static_cast<std::uint64_t>(full + 0.5);
      ++result_.dram_batches;
      for (std::size_t k = begin; k < end; ++k) {
        const DramMeta& meta = s_.dram_meta[k];
        if (meta.request == kNoRequest) {
          ++result_.dram_writes;
          continue;
        }
        L2Request& r = s_.processed[meta.request];
        r.fill_time = std::max(r.fill_time, r.issue_time + full_cycles);
        AccessCounters& c = counters(meta.slot);
        ++c.dram_reads;
        c.dram_latency_sum += full;
      }
      begin = end;
    }
  }

  /// Fill times are known now: hand them to the L1 lines and the warps waiting for them.
  void resolve(std::uint64_t epoch_end) {
    for (const L2Request& r : s_.processed) {
      if (r.warp == kNoWarp) {
        continue;
      }
      SmState& m = s_.sms[r.sm];
      if (static_cast<tracebuf::AccessKind>(r.kind) == tracebuf::AccessKind::kRead &&
          l1_enabled_) {
        const std::uint8_t way = l1_.lookup(r.sm, r.line);
        if (way != kNoWay) {
          WayState& state = l1_.way(r.sm, trace_.l1_set[r.line], way);
          state.fill_time =
              state.fill_time == kPendingFill ? r.fill_time : std::max(state.fill_time, r.fill_time);
        }
        m.misses.resolve(r.fill_time / config_.interconnect.epoch_cycles);
      }
      WarpSlot& w = warp(r.sm, r.warp);
      w.ready_time = std::max(w.ready_time, r.fill_time);
      --w.pending;
    }
    for (const FillWait& wait : s_.waits) {
      std::uint64_t fill = epoch_end + t1_;
      const std::uint8_t way = l1_.lookup(wait.sm, wait.line);
      if (way != kNoWay) {
        const WayState& state = l1_.way(wait.sm, trace_.l1_set[wait.line], way);
        if (state.fill_time != kPendingFill) {
          fill = state.fill_time;
        }
      }
      WarpSlot& w = warp(wait.sm, wait.warp);
      w.ready_time = std::max(w.ready_time, fill);
      --w.pending;
    }
    s_.waits.clear();
  }

  const CompiledTrace& trace_;
  const HierarchyConfig& config_;
  TrialRandom& random_;
  TrialWorkspace::State& s_;
  CacheArray<L1Policy>& l1_;
  CacheArray<L2Policy>& l2_;
  TrialResult& result_;
  const LaunchTrace* launch_ = nullptr;
  std::uint32_t sm_count_ = 0;
  std::uint32_t blocks_per_sm_ = 0;
  std::uint32_t warps_per_block_ = 0;
  std::uint32_t slots_ = 0;
  std::uint64_t live_blocks_ = 0;
  std::size_t next_block_ = 0;
  bool issued_ = false;
  bool l1_enabled_ = true;
  bool sectored_l1_ = false;
  std::uint64_t t1_ = 0;
  std::uint64_t t2_ = 0;
  std::uint32_t chunks_per_l1_sector_ = 1;
  std::uint8_t all_chunks_ = 0xF;
  std::uint32_t bursts_per_sector_ = 1;
  enum class StorePolicy { kInvalidate, kUpdate, kAllocate };
  StorePolicy store_policy_ = StorePolicy::kInvalidate;
  bool weighted_random_ = true;
  bool write_activation_ = false;
  std::uint8_t all_l1_sectors_ = 1;
  AccessCounters* counters_ = nullptr;
  std::vector<std::size_t> cursor_;
  std::vector<FreedBlock> freed_scratch_;
};

}  // namespace memcarlo::sim
