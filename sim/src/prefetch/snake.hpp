// snake: chains of strides between a thread's consecutive loads, after Mostofi, Falahati,
// Mahani, Lotfi-Kamran, Sarbazi-Azad, "Snake: A Variable-length Chain-based Prefetching for
// GPUs", MICRO 2023 (sections 3.1 to 3.4). Per SM:
// - the Head table: per resident warp, the last load (PC) it ran and that instruction's first
//   lane's address (§3.1, §3.4: the first thread's address); every stride is between first
//   lanes. §3.4 also leaves out a warp whose lanes are not one stride, on the empirical claim
//   that they always are; per lane that is false for every 2D block narrower than 32
//   threads (the 16 x 16 blocks of Backprop, Hotspot, Srad and lud, §4 Table 2, which §5 shows
//   prefetched), so by default such a warp trains like any other and its predicted instruction
//   is its own lines moved by the stride (`uniform_lanes`=true: the literal per-lane rule);
// - the Tail table (`prefetch.snake.tail_entries`, 10): entries (PC1, PC2, inter-thread stride,
//   status T1, warp-id vector). Each Head update sends (previous PC, current PC, the stride
//   between their addresses, the warp) to it: a matching entry gets the warp's bit, otherwise a
//   new entry is made (victim: among the `eviction_candidates` least recently used, the one
//   with the fewest warps); the warp's bit is cleared, and the status reset to not trained, in
//   the entries of the same PC1 whose PC2 or stride differ (the paper's mismatch rule). T1 is
//   promoted (10) once `train_warps` (3) warps are in the vector, and trained (11) once a warp
//   already in the vector sees the same stride again;
// - the per-PC fields of the Tail table (intra-warp stride and status T2, inter-warp stride) in
//   a side table of the same size keyed by PC (the paper keeps them in PC1's entries; with
//   several entries per PC1 one copy per PC is the same information). The intra-warp stride is
//   the distance between two instances of a load in one warp: directly when they are
//   consecutive, otherwise through the warp's chain in the Tail table (the previous instance's
//   address is the Head's address less the strides from the load to the Head's PC), or, when
//   that chain has left the Tail (a loop whose strides between loads change every iteration,
//   PolyBench 2MM's k loop, makes new entries per warp and iteration), from the PC's two warp
//   columns if the warp is one of them; trained once `train_warps` warps see it. The inter-warp
//   stride per warp id is kept from the two last warps seen at the PC (the Head's two warps per PC
//   for greedy schedulers) and trusted once `train_warps` warps show it.
// Prefetching, on each instruction: walk the chain from the load: the first step through a
// promoted or trained entry of the load (any warp: promotion prefetches for all future warps),
// deeper steps only through entries trained or promoted that have the warp's bit, up to
// `depth` loads ahead, each a predicted instruction; then (unless `intra_inter` is off: the
// paper's s-Snake) the next instance by the intra-warp stride when trained, and the next
// warp's instance by the inter-warp stride only when neither gave anything (inter-thread
// strides first, the paper's priority).
// Throttling (`throttle`): no prefetch for `full_window` cycles (50) when the unused prefetched
// lines fill `space_percent` of the SM's L1 (the prefetch space: half of it, as the decoupled
// L1 gives the prefetches until trained), and none while the L1->L2 read traffic measured over
// `bandwidth_window` cycles has passed `bandwidth_high` % of `peak_bytes_per_cycle` until it
// falls under `bandwidth_low` %. Training goes on while throttled.
// Decoupled storage (`decoupled`, section 3.2): prefetch/snake/decoupled_storage.hpp, on the
// prefetcher's L1 storage hooks (before_fill, on_fill, on_evict, on_prefetch_used).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"
#include "snake/decoupled_storage.hpp"

namespace memcarlo::sim::prefetch {

inline constexpr KeySpec kSnakeTailEntries{"prefetch.snake.tail_entries", "integer", "10",
                                           "snake: Tail table entries per SM, 1 to 64"};
inline constexpr KeySpec kSnakeEvictionCandidates{
    "prefetch.snake.eviction_candidates", "integer", "5",
    "snake: the least recently used Tail entries among which the one with the fewest warps is "
    "evicted, 1 to tail_entries"};
inline constexpr KeySpec kSnakeTrainWarps{
    "prefetch.snake.train_warps", "integer", "3",
    "snake: warps that must show a stride before it is used (promotion), 1 to 64"};
inline constexpr KeySpec kSnakeDepth{"prefetch.snake.depth", "integer", "3",
                                     "snake: loads ahead the chain is walked, 1 to 4"};
inline constexpr KeySpec kSnakeIntraInter{
    "prefetch.snake.intra_inter", "boolean", "true",
    "snake: also prefetch by intra-warp and inter-warp strides (false: the paper's s-Snake)"};
inline constexpr KeySpec kSnakeThrottle{"prefetch.snake.throttle", "boolean", "true",
                                        "snake: throttle on a full prefetch space and on "
                                        "L1-L2 bandwidth (false: the paper's Snake-T)"};
inline constexpr KeySpec kSnakeFullWindow{
    "prefetch.snake.full_window", "integer", "50",
    "snake: cycles without prefetching after the prefetch space is found full, 0 to 1000000"};
inline constexpr KeySpec kSnakeSpacePercent{
    "prefetch.snake.space_percent", "integer", "50",
    "snake: the prefetch space, % of the SM's L1 lines unused prefetches may fill, 1 to 100"};
inline constexpr KeySpec kSnakeBandwidthHigh{
    "prefetch.snake.bandwidth_high", "integer", "70",
    "snake: % of peak L1-L2 bandwidth at which prefetching stops, 1 to 100"};
inline constexpr KeySpec kSnakeBandwidthLow{
    "prefetch.snake.bandwidth_low", "integer", "50",
    "snake: % of peak L1-L2 bandwidth under which it starts again, 0 to bandwidth_high"};
inline constexpr KeySpec kSnakePeakBytes{
    "prefetch.snake.peak_bytes_per_cycle", "integer", "64",
    "snake: the peak L1-L2 read bandwidth of one SM, bytes per cycle, 1 to 4096"};
inline constexpr KeySpec kSnakeUniformLanes{
    "prefetch.snake.uniform_lanes", "boolean", "false",
    "snake: leave out of training and prefetching a warp instruction whose lanes are not one "
    "uniform stride (§3.4 read per lane: every 2D block narrower than 32 threads is left out; "
    "false: every warp trains on its first lane's address and a non-uniform instruction's "
    "lines are prefetched moved by the stride)"};
inline constexpr KeySpec kSnakeBandwidthWindow{
    "prefetch.snake.bandwidth_window", "integer", "64",
    "snake: cycles over which the L1-L2 bandwidth is measured, 1 to 1000000"};

class Snake {
 public:
  static constexpr std::string_view kName = "snake";
  static constexpr std::uint32_t kMaxDepth = 4;
  static constexpr std::uint32_t kMaxRequests = (kMaxDepth + 2) * kMaxLinesPerInstruction;
  static constexpr std::array kKeys{
      kSnakeTailEntries,     kSnakeEvictionCandidates, kSnakeTrainWarps,     kSnakeDepth,
      kSnakeIntraInter,      kSnakeThrottle,           kSnakeFullWindow,     kSnakeSpacePercent,
      kSnakeBandwidthHigh,   kSnakeBandwidthLow,       kSnakePeakBytes,      kSnakeBandwidthWindow,
      kSnakeDecoupled,       kSnakeDemandPercent,      kSnakeTrainingCycles, kSnakeFreePercent,
      kSnakeTransferPercent, kSnakeUniformLanes};

  /// What the tables did (every SM): why warps were left out, what trained, what was predicted.
  struct Stats {
    std::uint64_t instructions = 0;  // warp instructions seen (loads)
    std::uint64_t non_uniform = 0;   // of them, lanes not one stride
    std::uint64_t tail_updates = 0;  // Head updates sent to the Tail (a previous load of the warp)
    std::uint64_t tail_new = 0;      // Tail entries made
    std::uint64_t tail_evictions = 0;  // of them, replacing a used entry
    std::uint64_t promotions = 0;      // entries promoted (10)
    std::uint64_t mismatches = 0;      // warp bits cleared by the mismatch rule
    std::uint64_t chain_steps = 0;     // instructions predicted by the chain walk
    std::uint64_t intra_predictions = 0;
    std::uint64_t inter_warp_predictions = 0;
  };

  /// T1's states (the paper's two bits).
  enum class Status : std::uint8_t { kNotTrained = 0b00, kPromoted = 0b10, kTrained = 0b11 };

  /// A Tail table entry (public for the tests that replay the paper's figures).
  struct TailEntry {
    std::uint32_t pc1 = 0;
    std::uint32_t pc2 = 0;
    std::int64_t stride = 0;  // inter-thread: PC2's address - PC1's address
    Status status = Status::kNotTrained;
    std::uint64_t warps = 0;  // bit w: resident warp w showed this stride
    std::uint64_t stamp = 0;  // LRU
    bool used = false;
    [[nodiscard]] std::uint32_t warp_count() const {
      return static_cast<std::uint32_t>(std::popcount(warps));
    }
    [[nodiscard]] bool usable() const { return used && status != Status::kNotTrained; }
  };

  /// The per-PC fields of the Tail table.
  struct PcFields {
    std::int64_t intra = 0;         // intra-warp stride
    std::uint64_t intra_warps = 0;  // warps that saw it
    bool intra_trained = false;     // T2
    std::int64_t inter_warp = 0;    // per warp id
    bool inter_warp_trained = false;
    std::int64_t candidate = 0;  // the last per-warp stride seen, and how many times in a row
    std::uint32_t candidate_seen = 0;
    std::uint64_t warp[2] = {0, 0};  // the two last warps (grid ids) seen at the PC, newest first
    std::uint64_t base[2] = {0, 0};
    std::uint32_t warps_seen = 0;  // 0, 1 or 2 of them valid
  };

  explicit Snake(const HierarchyConfig& config)
      : line_(config.l1.line),
        tail_entries_(bounded_key(config, kSnakeTailEntries, 1, 64)),
        candidates_(bounded_key(config, kSnakeEvictionCandidates, 1, tail_entries_)),
        train_warps_(bounded_key(config, kSnakeTrainWarps, 1, 64)),
        depth_(bounded_key(config, kSnakeDepth, 1, kMaxDepth)),
        intra_inter_(boolean_key(config, kSnakeIntraInter)),
        throttle_(boolean_key(config, kSnakeThrottle)),
        full_window_(bounded_key(config, kSnakeFullWindow, 0, 1000000)),
        space_percent_(bounded_key(config, kSnakeSpacePercent, 1, 100)),
        high_(bounded_key(config, kSnakeBandwidthHigh, 1, 100)),
        low_(bounded_key(config, kSnakeBandwidthLow, 0, high_)),
        peak_bytes_(bounded_key(config, kSnakePeakBytes, 1, 4096)),
        window_(bounded_key(config, kSnakeBandwidthWindow, 1, 1000000)),
        uniform_lanes_(boolean_key(config, kSnakeUniformLanes)),
        storage_(config) {}

  void begin_launch(std::uint32_t sm_count) {
    head_.assign(std::size_t{sm_count} * kWarpTables, Head{});
    tail_.assign(std::size_t{sm_count} * tail_entries_, TailEntry{});
    pcs_.reset(sm_count, tail_entries_);
    throttles_.assign(sm_count, Throttle{});
    trained_.assign(sm_count, 0);
    storage_.begin_launch(sm_count);
    clock_ = 0;
  }

  // ---- the L1 storage hooks: the decoupled storage ----------------------------------------
  template <class Evict>
  void before_fill(const L1Set& set, Evict& evict) {
    storage_.before_fill(set, evict, trained_[value_of(set.sm)] != 0);
  }
  void on_fill(const L1Fill& fill) { storage_.on_fill(fill); }
  void on_evict(const L1Way& way, bool unused_prefetch) { storage_.on_evict(way, unused_prefetch); }
  void on_prefetch_used(const L1Way& way) { storage_.on_prefetch_used(way); }

  template <class Sink>
  void on_access(const L1Access& access, Sink& sink) {
    const std::uint32_t sm = value_of(access.sm);
    const std::uint32_t warp = value_of(access.warp) % kWarpTables;
    Head& head = head_[std::size_t{sm} * kWarpTables + warp];
    if (!access.first_of_instruction) {
      // a later line of a non-uniform instruction: the predicted instructions' lines moved by
      // the same strides as its first line
      if (head.valid && head.warp == access.global_warp() && head.pc == value_of(access.load)) {
        for (std::uint32_t i = 0; i < head.moves; ++i) {
          sink.prefetch(ByteAddress{advance(value_of(access.line_address), head.move[i], 1)});
        }
      }
      return;
    }
    const std::uint32_t pc = value_of(access.load);
    const std::uint64_t base = value_of(access.base_address);
    const bool off = throttled(sm, access);  // measured on every instruction
    throttled_instructions_ += off ? 1 : 0;
    ++stats_.instructions;
    if (!access.uniform_stride) {
      ++stats_.non_uniform;
      if (uniform_lanes_) {
        head = Head{};  // the warp is left out of prefetching until its lanes are strided again
        return;
      }
    }
    train(sm, warp, access.global_warp(), pc, base, head);
    if (!off) {
      prefetch(sm, warp, pc, base, access, head, sink);
    }
  }

  // ---- inspection, for the tests ----------------------------------------------------------
  [[nodiscard]] const TailEntry* tail_entry(std::uint32_t sm, std::uint32_t pc1,
                                            std::uint32_t pc2) const {
    for (std::uint32_t i = 0; i < tail_entries_; ++i) {
      const TailEntry& e = tail_[std::size_t{sm} * tail_entries_ + i];
      if (e.used && e.pc1 == pc1 && e.pc2 == pc2) {
        return &e;
      }
    }
    return nullptr;
  }
  [[nodiscard]] std::uint32_t tail_size(std::uint32_t sm) const {
    std::uint32_t n = 0;
    for (std::uint32_t i = 0; i < tail_entries_; ++i) {
      n += tail_[std::size_t{sm} * tail_entries_ + i].used ? 1 : 0;
    }
    return n;
  }
  [[nodiscard]] const PcFields* pc_fields(std::uint32_t sm, std::uint32_t pc) {
    return pcs_.find(sm, pc);
  }
  /// Puts `entry` in SM `sm`'s Tail table as the most recently used (a test's starting state).
  void set_tail_entry(std::uint32_t sm, TailEntry entry) {
    TailEntry& slot = victim(sm);
    entry.used = true;
    entry.stamp = ++clock_;
    slot = entry;
  }
  [[nodiscard]] const Stats& stats() const { return stats_; }
  /// Instructions seen while throttled (every SM).
  [[nodiscard]] std::uint64_t throttled_instructions() const { return throttled_instructions_; }

 private:
  struct Head {
    std::uint64_t warp = 0;  // the grid's warp id (a new block in the slot starts afresh)
    std::uint64_t base = 0;
    std::uint32_t pc = 0;
    bool valid = false;
    // The moves (predicted address - base) of the instruction's predictions when its lanes are
    // not one stride, for its later lines.
    std::uint32_t moves = 0;
    std::array<std::int64_t, kMaxDepth + 1> move{};
  };
  struct Throttle {
    std::uint64_t until = 0;         // no prefetch before this cycle (full space)
    std::uint64_t window_start = 0;  // the bandwidth window
    std::uint64_t window_reads = 0;
    bool bandwidth = false;  // over bandwidth_high, not yet under bandwidth_low
    bool started = false;
  };

  TailEntry* row(std::uint32_t sm) { return tail_.data() + std::size_t{sm} * tail_entries_; }

  /// The entry to replace in SM `sm`'s Tail: a free one, else among the `candidates_` least
  /// recently used the one with the fewest warps (the older on a tie).
  TailEntry& victim(std::uint32_t sm) {
    TailEntry* const entries = row(sm);
    std::array<TailEntry*, 64> by_age{};
    for (std::uint32_t i = 0; i < tail_entries_; ++i) {
      if (!entries[i].used) {
        return entries[i];
      }
      by_age[i] = &entries[i];
    }
    const auto first = by_age.begin();
    std::partial_sort(first, first + candidates_, first + tail_entries_,
                      [](const TailEntry* a, const TailEntry* b) { return a->stamp < b->stamp; });
    TailEntry* best = by_age[0];
    for (std::uint32_t i = 1; i < candidates_; ++i) {
      if (by_age[i]->warp_count() < best->warp_count()) {
        best = by_age[i];
      }
    }
    return *best;
  }

  /// The Head update of warp `warp` running `pc` at `base`, and what it teaches the tables.
  void train(std::uint32_t sm, std::uint32_t warp, std::uint64_t grid_warp, std::uint32_t pc,
             std::uint64_t base, Head& head) {
    // The warp's previous instance of pc if it is one of the two last warps that ran pc (the
    // per-PC warp columns, kept for greedy schedulers), read before this instance replaces it.
    bool recorded = false;
    std::uint64_t recorded_base = 0;
    if (intra_inter_) {
      if (const PcFields* f = pcs_.find(sm, pc)) {
        for (std::uint32_t i = 0; i < f->warps_seen && !recorded; ++i) {
          recorded = f->warp[i] == grid_warp;
          recorded_base = f->base[i];
        }
      }
      train_inter_warp(sm, pc, grid_warp, base);
    }
    if (head.valid && head.warp == grid_warp) {
      if (head.pc == pc) {
        if (intra_inter_) {
          train_intra(sm, warp, pc, static_cast<std::int64_t>(base - head.base));
        }
      } else {
        if (intra_inter_) {
          std::int64_t from_pc = 0;
          if (chain_distance(sm, warp, pc, head.pc, from_pc)) {
            // the warp's previous instance of pc was at head.base - from_pc
            train_intra(sm, warp, pc, static_cast<std::int64_t>(base - head.base) + from_pc);
          } else if (recorded) {
            // the chain back to it was evicted from the Tail (a loop whose strides between
            // loads change every iteration makes a new entry per warp and iteration), but the
            // PC's warp columns still hold it
            train_intra(sm, warp, pc, static_cast<std::int64_t>(base - recorded_base));
          }
        }
        train_tail(sm, warp, head.pc, pc, static_cast<std::int64_t>(base - head.base));
      }
    }
    head = Head{grid_warp, base, pc, true};
  }

  /// The Tail table's detection step (the paper's Figure 12).
  void train_tail(std::uint32_t sm, std::uint32_t warp, std::uint32_t pc1, std::uint32_t pc2,
                  std::int64_t stride) {
    const std::uint64_t bit = std::uint64_t{1} << warp;
    TailEntry* entries = row(sm);
    TailEntry* match = nullptr;
    ++stats_.tail_updates;
    for (std::uint32_t i = 0; i < tail_entries_; ++i) {
      TailEntry& e = entries[i];
      if (!e.used || e.pc1 != pc1) {
        continue;
      }
      if (e.pc2 == pc2 && e.stride == stride) {
        match = &e;
      } else if ((e.warps & bit) != 0) {
        e.warps &= ~bit;  // the warp's next load or stride did not match: back to detection
        ++stats_.mismatches;
        e.status = Status::kNotTrained;
      }
    }
    if (match == nullptr) {
      match = &victim(sm);
      ++stats_.tail_new;
      stats_.tail_evictions += match->used ? 1 : 0;
      *match = TailEntry{pc1, pc2, stride, Status::kNotTrained, 0, 0, true};
    }
    const bool again = (match->warps & bit) != 0;
    match->warps |= bit;
    match->stamp = ++clock_;
    if (again && match->status == Status::kPromoted) {
      match->status = Status::kTrained;
    } else if (match->status == Status::kNotTrained && match->warp_count() >= train_warps_) {
      match->status = Status::kPromoted;
      trained_[sm] = 1;
      ++stats_.promotions;
    }
  }

  /// The sum of the strides along warp `warp`'s chain from `from` to `to` in SM `sm`'s Tail
  /// (entries with the warp's bit), at most tail_entries steps; false if there is none.
  bool chain_distance(std::uint32_t sm, std::uint32_t warp, std::uint32_t from, std::uint32_t to,
                      std::int64_t& distance) {
    const std::uint64_t bit = std::uint64_t{1} << warp;
    std::uint32_t at = from;
    distance = 0;
    for (std::uint32_t step = 0; step < tail_entries_; ++step) {
      const TailEntry* next = nullptr;
      const TailEntry* entries = row(sm);
      for (std::uint32_t i = 0; i < tail_entries_; ++i) {
        if (entries[i].used && entries[i].pc1 == at && (entries[i].warps & bit) != 0) {
          next = &entries[i];
          break;
        }
      }
      if (next == nullptr) {
        return false;
      }
      distance += next->stride;
      at = next->pc2;
      if (at == to) {
        return true;
      }
      if (at == from) {
        return false;
      }
    }
    return false;
  }

  void train_intra(std::uint32_t sm, std::uint32_t warp, std::uint32_t pc, std::int64_t stride) {
    PcFields& f = pcs_.find_or_insert(sm, pc);
    const std::uint64_t bit = std::uint64_t{1} << warp;
    if (f.intra_warps != 0 && stride == f.intra) {
      f.intra_warps |= bit;
    } else {
      f.intra = stride;
      f.intra_warps = bit;
      f.intra_trained = false;
    }
    f.intra_trained =
        f.intra != 0 && std::popcount(f.intra_warps) >= static_cast<int>(train_warps_);
  }

  void train_inter_warp(std::uint32_t sm, std::uint32_t pc, std::uint64_t grid_warp,
                        std::uint64_t base) {
    PcFields& f = pcs_.find_or_insert(sm, pc);
    if (f.warps_seen > 0 && f.warp[0] == grid_warp) {
      f.base[0] = base;  // the same warp again (a loop): its newest address
      return;
    }
    if (f.warps_seen > 0) {
      const auto warps = static_cast<std::int64_t>(grid_warp - f.warp[0]);
      const auto bytes = static_cast<std::int64_t>(base - f.base[0]);
      if (bytes % warps == 0 && (f.candidate_seen == 0 || bytes / warps == f.candidate)) {
        f.candidate = bytes / warps;
        ++f.candidate_seen;
      } else if (bytes % warps == 0) {
        f.candidate = bytes / warps;
        f.candidate_seen = 1;
      } else {
        f.candidate_seen = 0;
      }
      // n equal strides in a row are n + 1 warps
      f.inter_warp_trained = f.candidate_seen + 1 >= train_warps_ && f.candidate != 0;
      f.inter_warp = f.candidate;
    }
    f.warp[1] = f.warp[0];
    f.base[1] = f.base[0];
    f.warp[0] = grid_warp;
    f.base[0] = base;
    f.warps_seen = f.warps_seen < 2 ? f.warps_seen + 1 : 2;
  }

  bool throttled(std::uint32_t sm, const L1Access& access) {
    if (!throttle_) {
      return false;
    }
    Throttle& t = throttles_[sm];
    const std::uint64_t clock = value_of(access.clock);
    if (!t.started) {
      t = Throttle{0, clock, access.l2_reads, false, true};
    } else if (clock >= t.window_start + window_) {
      const std::uint64_t bytes = (access.l2_reads - t.window_reads) * line_;
      const std::uint64_t peak = (clock - t.window_start) * peak_bytes_;
      if (bytes * 100 >= peak * high_) {
        t.bandwidth = true;
      } else if (bytes * 100 < peak * low_) {
        t.bandwidth = false;
      }
      t.window_start = clock;
      t.window_reads = access.l2_reads;
    }
    if (clock >= t.until && std::uint64_t{access.prefetched_lines} * 100 >=
                                std::uint64_t{access.l1_lines} * space_percent_) {
      t.until = clock + full_window_;
    }
    return t.bandwidth || clock < t.until;
  }

  /// The lines of the instruction predicted at `address` from this one (at `base`): with one
  /// lane stride, its lanes' span from `address`; otherwise this instruction's lines moved by
  /// address - base (this first line now, the later ones as they come: Head::move).
  template <class Sink>
  void predict(Sink& sink, std::uint64_t address, std::uint64_t base, const L1Access& access,
               Head& head) {
    if (access.uniform_stride) {
      prefetch_instruction(sink, address, access, line_);
      return;
    }
    const auto move = static_cast<std::int64_t>(address - base);
    sink.prefetch(ByteAddress{advance(value_of(access.line_address), move, 1)});
    if (head.moves < head.move.size()) {
      head.move[head.moves++] = move;
    }
  }

  template <class Sink>
  void prefetch(std::uint32_t sm, std::uint32_t warp, std::uint32_t pc, std::uint64_t base,
                const L1Access& access, Head& head, Sink& sink) {
    const std::uint64_t bit = std::uint64_t{1} << warp;
    const TailEntry* entries = row(sm);
    std::uint32_t at = pc;
    std::uint64_t address = base;
    bool chained = false;
    for (std::uint32_t step = 0; step < depth_; ++step) {
      // the entry of `at` this warp trained (the most warps first); the first step may use any
      // promoted one
      const TailEntry* next = nullptr;
      for (std::uint32_t i = 0; i < tail_entries_; ++i) {
        const TailEntry& e = entries[i];
        if (!e.usable() || e.pc1 != at) {
          continue;
        }
        const bool own = (e.warps & bit) != 0;
        if (!own && step > 0) {
          continue;
        }
        const bool next_own = next != nullptr && (next->warps & bit) != 0;
        if (next == nullptr || (own && !next_own) ||
            (own == next_own && e.warp_count() > next->warp_count())) {
          next = &e;
        }
      }
      if (next == nullptr) {
        break;
      }
      address = advance(address, next->stride, 1);
      predict(sink, address, base, access, head);
      ++stats_.chain_steps;
      chained = true;
      at = next->pc2;
    }
    if (!intra_inter_) {
      return;
    }
    const PcFields* f = pcs_.find(sm, pc);
    if (f == nullptr) {
      return;
    }
    if (f->intra_trained) {
      predict(sink, advance(base, f->intra, 1), base, access, head);
      ++stats_.intra_predictions;
    } else if (!chained && f->inter_warp_trained) {
      predict(sink, advance(base, f->inter_warp, 1), base, access, head);
      ++stats_.inter_warp_predictions;
    }
  }

  std::uint32_t line_;
  std::uint32_t tail_entries_;
  std::uint32_t candidates_;
  std::uint32_t train_warps_;
  std::uint32_t depth_;
  bool intra_inter_;
  bool throttle_;
  std::uint32_t full_window_;
  std::uint32_t space_percent_;
  std::uint32_t high_;
  std::uint32_t low_;
  std::uint32_t peak_bytes_;
  std::uint32_t window_;
  bool uniform_lanes_;
  SnakeStorage storage_;
  std::vector<std::uint8_t> trained_;  // per SM: a stride was promoted in this launch
  std::vector<Head> head_;
  std::vector<TailEntry> tail_;
  LruTable<PcFields> pcs_;
  std::vector<Throttle> throttles_;
  std::uint64_t clock_ = 0;
  std::uint64_t throttled_instructions_ = 0;
  Stats stats_;
};

}  // namespace memcarlo::sim::prefetch
