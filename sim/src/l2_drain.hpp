// The L2 side of an epoch (paper §3.2.2-3), templated on the L2 replacement policy only: the
// inter-core scheduler's order over the SMs' requests, the shared L2 (Fermi write semantics,
// inclusive back-invalidation through the policy-free view of the L1s) and the DRAM's random
// batches. It leaves every request's fill delay in place for Replay::resolve.
#pragma once

#include <algorithm>
#include <array>
#include <bit>

#include "memcarlo/tracebuf/model.hpp"
#include "trial_state.hpp"

namespace memcarlo::sim {

/// The L2 side as the (policy-free) replay sees it: one virtual call per epoch.
class L2Side {
 public:
  virtual ~L2Side() = default;
  /// Before a launch, after the line table and the L1s were reset for it: with `keep`, the L2
  /// stays as the previous launch left it; otherwise it starts empty. `l1` is the launch's L1s,
  /// for back-invalidation.
  virtual void begin_launch(bool keep, const PrivateCacheView& l1) = 0;
  /// Serves the epoch's requests: SM s's are s_.requests[request_begin[s], request_begin[s + 1]).
  virtual void run() = 0;
};

template <class L2Policy>
class L2Drain final : public L2Side {
  using L1View = PrivateCacheView;
  using L2View = typename SharedCache<L2Policy>::View;

 public:
  L2Drain(const CompiledTrace& trace, const HierarchyConfig& config, LaunchStreams& streams,
          TrialWorkspace::State& state, SharedCache<L2Policy>& l2, TrialResult& result)
      : trace_(trace), config_(config), streams_(streams), s_(state), l2_(l2),
        result_(result) {
    sm_count_ = config.sm.count;
    t2_ = config.l2.latency;
    weighted_random_ = config.interconnect.scheduler == "weighted_random";
    k_.back_invalidate = config.l2.inclusive && config.l1.enabled;
    k_.write_activation = config.l2.write_activation;
    k_.store_allocates = config.l2.store_miss == "allocate";
    load_state_ahead_ = config.l2.size / config.l2.line * sizeof(SharedWay) > kResidentStateBytes;
    k_.bursts_per_sector = std::max<std::uint32_t>(1, config.l2.sector / 32);
    k_.part_shift = static_cast<std::uint32_t>(std::countr_zero(trace.l2_lines_per_l1_line));
    k_.parts = trace.l2_lines_per_l1_line;
    // Byte p of spread_[sectors]: the sectors of L2 line p of the L1 line.
    const std::uint32_t per_part = trace.l2_sectors_per_l2_line;
    for (std::uint32_t sectors = 0; sectors < 256; ++sectors) {
      std::uint64_t spread = 0;
      for (std::uint32_t part = 0; part < trace.l2_lines_per_l1_line; ++part) {
        const std::uint64_t bits = (sectors >> (part * per_part)) & ((1u << per_part) - 1);
        spread |= bits << (8 * part);
      }
      spread_[sectors] = spread;
    }
    k_.spread = spread_.data();
    k_.counters = state.slot_counters.data();
  }

  void begin_launch(bool keep, const PrivateCacheView& l1) override {
    l1_ = l1;
    const LineSpace::View lines = s_.line_space.view();
    k_.l1_set = lines.l1_set;
    k_.l2_set = lines.l2_set;
    k_.dram_location = lines.dram;
    if (!keep) {
      l2_.reset(config_.l2.sets(), config_.l2.associativity, s_.lines,
                static_cast<std::uint32_t>(std::countr_zero(trace_.l2_lines_per_l1_line)));
    }
  }

  void run() override {
    order();
    s_.dram_requests.clear();
    s_.dram_meta.clear();
    if (load_state_ahead_) {
      serve<true>();
    } else {
      serve<false>();
    }
    serve_dram();
  }

 private:
  static constexpr std::uint32_t kPrefetchL2Reads = kPrefetchGroup.index_of("l2_reads");
  static constexpr std::uint32_t kPrefetchL2ReadHits = kPrefetchGroup.index_of("l2_read_hits");
  static constexpr std::uint32_t kPrefetchDramReads = kPrefetchGroup.index_of("dram_reads");

  /// The prefetch counter row of slot `slot`. Only prefetch requests reach here, and only a
  /// trial whose SM side enabled the group (it is built first) sends them.
  std::uint64_t* prefetch_row(std::uint32_t slot) {
    if (prefetch_rows_ == nullptr) {
      prefetch_rows_ = s_.counter_groups.enable(kPrefetchGroup, trace_.slots.size());
    }
    return prefetch_rows_ + std::size_t{slot} * kPrefetchGroup.width();
  }

  /// s_.drain_index: the requests in the order the L2 takes them.
  void order() {
    auto& order = s_.drain_order;
    order.clear();
    for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
      order.insert(order.end(), s_.request_begin[sm + 1] - s_.request_begin[sm],
                   static_cast<std::uint16_t>(sm));
    }
    if (weighted_random_) {
      // Picking queue i with probability (its remaining length) / (all remaining) at every step
      // gives each interleaving of the queues probability prod(n_i!) / N!: a uniform shuffle of
      // the SM labels, drawn with Fisher-Yates.
      for (std::size_t i = order.size(); i > 1; --i) {
        std::swap(order[i - 1], order[streams_.l2_order.below(static_cast<std::uint32_t>(i))]);
      }
    } else {  // round_robin: one request per non-empty queue in turn, from a random SM
      std::size_t remaining = order.size();
      order.clear();
      const std::uint32_t start = streams_.l2_order.below(sm_count_);
      cursor_.resize(sm_count_);
      for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
        cursor_[sm] = s_.request_begin[sm + 1] - s_.request_begin[sm];  // requests left
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
    // The k-th label s stands for SM s's k-th request (each queue is first in, first out).
    cursor_.assign(s_.request_begin.begin(), s_.request_begin.end() - 1);
    s_.drain_index.resize(order.size());
    std::uint32_t* index = s_.drain_index.data();
    for (std::size_t k = 0; k < order.size(); ++k) {
      index[k] = cursor_[order[k]]++;
    }
  }

  /// The L2 side of run(); StateAhead: also ask the CPU for the way state of a nearer request (a
  /// loop of its own, so that the other keeps its registers).
  template <bool StateAhead>
  void serve() {
    // Constants and views in locals, kept in registers across the loop (see SmSideOf).
    const Constants k = k_;
    const L1View l1 = l1_;
    const L2View l2 = l2_.view();
    const std::uint32_t* index = s_.drain_index.data();
    const std::size_t n = s_.drain_index.size();
    for (std::size_t i = 0; i < n; ++i) {
      // The per-line tables rarely fit in the CPU's caches: ask for a later request's lines now.
      constexpr std::size_t distance = StateAhead ? kFarLoadAhead : kLoadAhead;
      const std::uint32_t ahead = s_.requests[index[std::min(i + distance, n - 1)]].line;
      const std::uint32_t ahead_id = ahead << k.part_shift;
      load_ahead(l2.ways_of_line(ahead));
      load_ahead(k.l2_set + ahead_id);
      load_ahead(k.dram_location + ahead);
      if constexpr (StateAhead) {
        // Nearer, those lines have arrived: ask for the way state of the first L2 line it holds.
        const std::uint32_t near = s_.requests[index[std::min(i + kStateAhead, n - 1)]].line;
        const std::uint32_t near_way = l2.ways_of_line(near)[0];
        if (near_way != kNoWay) {
          load_ahead(l2.row(k.l2_set[near << k.part_shift]) + near_way);
        }
      }
      const L2Request& request = s_.requests[index[i]];
      switch (request.kind) {
        case RequestKind::kDemandFill:
          read<true>(k, l1, l2, request, index[i]);
          break;
        case RequestKind::kPrefetch:
          read<false>(k, l1, l2, request, index[i]);
          break;
        case RequestKind::kStore:
        case RequestKind::kAtomic:
          write_or_atomic(k, l1, l2, request, index[i]);
          break;
      }
    }
  }

  // How many requests ahead the per-line tables are asked for. A request takes several hundred
  // instructions where the L2 lines are small and mostly miss (fermi-c2050: four 32-byte
  // evictions), a few dozen where they are large and mostly hit (h100): there, further ahead,
  // and the way state too, once the presence entry it needs has arrived.
  static constexpr std::size_t kLoadAhead = 6;
  static constexpr std::size_t kFarLoadAhead = 24;
  static constexpr std::size_t kStateAhead = 12;
  // Way states past this size are unlikely to stay in the CPU's caches between two accesses to
  // a set (h100: 3.2 MB, v100: 0.8 MB, fermi-c2050: 0.2 MB); below it asking for them only costs.
  static constexpr std::uint64_t kResidentStateBytes = 512 * 1024;

  /// What the access loops need, copied into a local so that it stays in registers.
  struct Constants {
    const std::uint64_t* spread;
    AccessCounters* counters;
    const std::uint32_t* l1_set;
    const std::uint32_t* l2_set;
    const DramLocation* dram_location;
    std::uint32_t part_shift;
    std::uint32_t parts;  // L2 lines per L1 line
    std::uint32_t bursts_per_sector;
    bool back_invalidate;
    bool write_activation;
    bool store_allocates;  // l2.store_miss = allocate
  };

  /// An L1 miss (Demand) or a prefetch. Per L2 line: a hit if every requested sector is valid;
  /// the sectors that are not go to DRAM, in one request for the whole L1 line. A prefetch counts
  /// apart from the loads (it is traffic, not one of their accesses).
  template <bool Demand>
  MEMCARLO_HOT void read(const Constants& k, const L1View& l1, const L2View& l2,
                         const L2Request& request, std::uint32_t index) {
    const std::uint32_t sectors = bits_of(request.sectors);
    const std::uint32_t first_id = request.line << k.part_shift;
    const std::uint16_t* const ways = l2.ways_of_line(request.line);
    const std::uint64_t spread = k.spread[sectors];
    std::uint32_t accesses = 0;
    std::uint32_t hits = 0;
    std::uint32_t sector_hits = 0;
    for (std::uint32_t part = 0; part < k.parts; ++part) {
      const auto bits = static_cast<std::uint32_t>(spread >> (8 * part)) & 0xFF;
      if (bits == 0) {
        continue;
      }
      const std::uint32_t id = first_id + part;
      const std::uint32_t set = k.l2_set[id];
      const std::uint32_t way = ways[part];
      ++accesses;
      if (way == kNoWay) {
        allocate(k, l1, l2, id, set).valid = sector_mask(bits);
      } else {
        l2.touch(set, way);
        SharedWay& state = l2.row(set)[way];
        const std::uint32_t present = bits_of(state.valid) & bits;
        sector_hits += static_cast<std::uint32_t>(std::popcount(present));
        hits += present == bits ? 1 : 0;
        state.valid |= bits;
      }
    }
    const auto requested = static_cast<std::uint32_t>(std::popcount(sectors));
    if constexpr (Demand) {
      AccessCounters& c = k.counters[request.counter];
      c.l2_reads += accesses;
      c.l2_read_hits += hits;
      c.l2_read_sectors += requested;
      c.l2_read_sector_hits += sector_hits;
    } else {
      std::uint64_t* const row = prefetch_row(request.counter);
      row[kPrefetchL2Reads] += accesses;
      row[kPrefetchL2ReadHits] += hits;
    }
    // The L2 misses of one request lie in one L1 line, hence in one DRAM row: one DRAM request.
    if (hits != accesses) {
      s_.dram_requests.push_back({k.dram_location[request.line],
                                  (requested - sector_hits) * k.bursts_per_sector, false});
      s_.dram_meta.push_back({index, Demand ? request.counter : kNoRequest});
    }
  }

  void write_or_atomic(const Constants& k, const L1View& l1, const L2View& l2,
                       const L2Request& request, std::uint32_t index) {
    const bool write = request.kind == RequestKind::kStore;
    const bool atomic = !write;
    std::uint32_t accesses = 0;
    std::uint32_t hits = 0;
    std::uint32_t sectors = 0;
    std::uint32_t sector_hits = 0;
    std::uint32_t written_through = 0;  // store misses: sectors written to DRAM
    const std::uint32_t first_id = request.line << k.part_shift;
    const std::uint16_t* const ways = l2.ways_of_line(request.line);
    const std::uint64_t spread = k.spread[bits_of(request.sectors)];
    for (std::uint32_t part = 0; part < k.parts; ++part) {
      const auto bits = static_cast<std::uint32_t>(spread >> (8 * part)) & 0xFF;
      if (bits == 0) {
        continue;
      }
      const std::uint32_t id = first_id + part;
      const std::uint32_t set = k.l2_set[id];
      const auto count = static_cast<std::uint32_t>(std::popcount(bits));
      const std::uint32_t way = ways[part];
      SharedWay* state = nullptr;
      if (way == kNoWay) {
        state = &allocate(k, l1, l2, id, set);
      } else {
        l2.touch(set, way);
        state = l2.row(set) + way;
      }
      // Write hits follow the C2050 rule when write_activation is set (paper §2.1): only
      // sectors that a store brought in or wrote take a store as a hit.
      const SectorMask present = write && k.write_activation ? state->written : state->valid;
      // l2.store_miss = allocate: the L2 takes the bytes of absent sectors without a fetch (a
      // hit, as Nsight Compute counts it), dirty until written back at eviction.
      const std::uint32_t present_bits =
          write && k.store_allocates ? bits : bits_of(present) & bits;
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
      }
      state->valid |= bits;
      state->written |= bits;
      if (atomic) {
        state->dirty |= bits;
      }
    }
    AccessCounters& c = k.counters[request.counter];
    if (write) {
      c.l2_writes += accesses;
      c.l2_write_hits += hits;
      c.l2_write_sectors += sectors;
      c.l2_write_sector_hits += sector_hits;
      if (hits != accesses) {
        dram_write(k, request.line, written_through);
      }
    } else {
      c.l2_atomics += accesses;
      c.l2_atomic_hits += hits;
      if (hits != accesses) {  // the missing sectors come from DRAM, like a read's
        s_.dram_requests.push_back({k.dram_location[request.line],
                                    (sectors - sector_hits) * k.bursts_per_sector, false});
        s_.dram_meta.push_back({index, request.counter});
      }
    }
  }

  /// A way for L2 line `id` in `set`, its masks empty. A dirty victim is written back; under
  /// inclusion its L1 line leaves every L1.
  MEMCARLO_HOT SharedWay& allocate(const Constants& k, const L1View& l1, const L2View& l2,
                                   std::uint32_t id, std::uint32_t set) {
    const auto evicted = [&](std::uint32_t line, std::uint32_t dirty) MEMCARLO_INLINE_LAMBDA {
      const std::uint32_t l1_line = line >> k.part_shift;
      if (dirty != 0) {
        dram_write(k, l1_line, static_cast<std::uint32_t>(std::popcount(dirty)));
      }
      if (k.back_invalidate && l1.held_anywhere(l1_line)) [[unlikely]] {
        result_.back_invalidations += l1.invalidate_everywhere(k.l1_set[l1_line], l1_line);
      }
    };
    return l2.fill(set, id, streams_.l2_replacement, evicted);
  }

  void dram_write(const Constants& k, std::uint32_t l1_line, std::uint32_t sectors) {
    s_.dram_requests.push_back({k.dram_location[l1_line], sectors * k.bursts_per_sector, true});
    s_.dram_meta.push_back({kNoRequest, 0});
  }

  /// Random batches (paper §3.2.3): up to max_groups groups of 1..max_group requests each.
  void serve_dram() {
    const std::size_t n = s_.dram_requests.size();
    const std::uint32_t groups =
        config_.dram.batch_max_groups == 0 ? sm_count_ : config_.dram.batch_max_groups;
    std::size_t begin = 0;
    while (begin < n) {
      std::size_t end = begin;
      for (std::uint32_t g = 0; g < groups && end < n; ++g) {
        end = std::min(n, end + 1 + streams_.dram_batches.below(config_.dram.batch_max_group));
      }
      const double latency = s_.dram->batch_latency(
          std::span<const dram::Request>(s_.dram_requests.data() + begin, end - begin));
      const double full = static_cast<double>(t2_) + latency;
      const auto full_cycles = static_cast<std::uint32_t>(full + 0.5);
      ++result_.dram_batches;
      for (std::size_t k = begin; k < end; ++k) {
        const DramMeta& meta = s_.dram_meta[k];
        if (meta.request == kNoRequest) {
          ++result_.dram_writes;
          continue;
        }
        L2Request& r = s_.requests[meta.request];
        r.fill_delay = std::max(r.fill_delay, full_cycles);
        r.from_dram = 1;
        if (meta.counter == kNoRequest) {
          ++prefetch_row(r.counter)[kPrefetchDramReads];  // a prefetch's: r.counter is its slot
          continue;
        }
        AccessCounters& c = k_.counters[meta.counter];
        ++c.dram_reads;
        c.dram_latency_sum += full;
      }
      begin = end;
    }
  }

  const CompiledTrace& trace_;
  const HierarchyConfig& config_;
  LaunchStreams& streams_;
  TrialWorkspace::State& s_;
  PrivateCacheView l1_{};
  SharedCache<L2Policy>& l2_;
  TrialResult& result_;
  std::uint32_t sm_count_ = 0;
  std::uint32_t t2_ = 0;
  bool weighted_random_ = true;
  bool load_state_ahead_ = false;  // the way states are too large to stay in the CPU's caches
  Constants k_{};
  std::array<std::uint64_t, 256> spread_{};
  std::vector<std::uint32_t> cursor_;
  std::uint64_t* prefetch_rows_ = nullptr;  // the prefetch counter group, once a prefetch came
};

}  // namespace memcarlo::sim
