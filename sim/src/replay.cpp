// The policy-free part of the replay (replay.hpp): launch setup, the epoch loop and fill
// resolution.
#include "replay.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace memcarlo::sim {

Replay::Replay(const CompiledTrace& trace, const HierarchyConfig& config,
               TrialWorkspace::State& state, Residency& residency, SmSide& sm_side, L2Side& l2_side,
               const schedule::CtaScheduler& scheduler, TrialResult& result, NumaLinks* numa)
    : trace_(trace), config_(config), s_(state), sm_side_(sm_side), l2_side_(l2_side),
      scheduler_(scheduler), result_(result), numa_(numa), residency_(residency) {
  sm_count_ = config.sm.count;
  l1_enabled_ = config.l1.enabled;
  t1_ = config.l1.latency;
  epoch_cycles_ = config.interconnect.epoch_cycles;
  epoch_shift_ = std::has_single_bit(epoch_cycles_)
                     ? static_cast<std::uint32_t>(std::countr_zero(epoch_cycles_))
                     : kNoShift;
}

void Replay::run_launch(const LaunchTrace& launch, bool keep_l2, LaunchStreams& streams) {
  setup(launch, keep_l2, streams);
  std::uint64_t epoch_start = 0;
  const std::uint64_t epoch = epoch_cycles_;
  while (!residency_.done()) {
    const std::uint64_t epoch_end = epoch_start + epoch;
    const std::uint64_t epoch_index = epoch_of(epoch_start);
    s_.requests.clear();
    for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
      s_.request_begin[sm] = static_cast<std::uint32_t>(s_.requests.size());
      sm_side_.run_sm(sm, epoch_start, epoch_end, epoch_index, trial_epoch_);
    }
    s_.request_begin[sm_count_] = static_cast<std::uint32_t>(s_.requests.size());
    if (!s_.requests.empty() || !s_.waits.empty()) {
      streams.restart_epoch(epoch_index);
      if (numa_ != nullptr) {
        numa_->place_first_touches();
      }
      l2_side_.run();
      if (numa_ != nullptr) {
        numa_->cross_links(epoch_index);
      }
      resolve(epoch_end);
    }
    residency_.dispatch();
    ++trial_epoch_;
    epoch_start = epoch_end;
    if (!sm_side_.take_issued() && residency_.live_blocks() > 0) {
      const std::uint64_t next = residency_.next_event();
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

void Replay::setup(const LaunchTrace& launch, bool keep_l2, LaunchStreams& streams) {
  s_.sms.resize(sm_count_);
  const std::uint32_t slots = launch.resident_blocks_per_sm * launch.warps_per_block;
  for (SmState& m : s_.sms) {
    m.clock = 0;
    m.round_robin = slots == 0 ? 0 : streams.warp_order.below(slots);
    m.misses.reset();
  }
  s_.request_begin.assign(sm_count_ + 1, 0);
  s_.waits.clear();
  // The line table first (the caches point into it), then the L2, then the launch's L1s.
  if (keep_l2) {
    s_.lines.clear_holders();
  } else {
    const std::uint32_t holder_words =
        l1_enabled_ ? PrivateCacheView::holder_words(sm_count_) : 0;
    s_.lines.reset(s_.line_space.capacity(), holder_words, trace_.l2_lines_per_l1_line,
                   static_cast<std::uint16_t>(kNoWay));
  }
  sm_side_.begin_launch(launch);
  if (numa_ != nullptr) {
    numa_->begin_launch();
  }
  l1_ = sm_side_.l1_view();
  l2_side_.begin_launch(keep_l2, l1_);
  s_.dram->reset();

  // Random start alignment (§3.2.1): each SM's first blocks start after a random delay of up
  // to start_jitter x the issue time of one block.
  const double block_cycles =
      launch.blocks.empty() ? 0.0
                            : static_cast<double>(launch.transactions) /
                                  static_cast<double>(launch.blocks.size()) *
                                  config_.sm.issue_cycles;
  const double jitter = config_.schedule.start_jitter * block_cycles;
  for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
    s_.sms[sm].clock = static_cast<std::uint64_t>(streams.start_jitter.uniform() * jitter);
  }
  scheduler_.plan({launch, sm_count_, launch.resident_blocks_per_sm, config_.numa.modules,
                   trace_.load_info, &trace_},
                  streams.cta_schedule,
                  s_.cta_plan);
  schedule::check_plan(s_.cta_plan, launch.blocks.size(), sm_count_, config_.schedule.cta);
  residency_.setup(launch, streams.block_tie_break);
  residency_.dispatch();  // blocks with no records finish at once
}

/// Fill times are known now: hand them to the L1 lines and the warps waiting for them. Every
/// update is a max or a count, so the order of the requests does not matter. The latencies of
/// the loads' L1 misses and of their in-flight hits on lines whose fill time was unknown are
/// known now too: each is counted once, from the time the warp gets its data.
void Replay::resolve(std::uint64_t epoch_end) {
  const PrivateCacheView l1 = l1_;
  std::uint64_t* const latency_counts = s_.latency_counts.data();
  const std::uint32_t* const l1_set = s_.line_space.view().l1_set;
  // Where `line` sits in `sm`'s L1 now: `at` if that way still holds it, else wherever it went
  // (a line evicted and fetched again within the epoch), or kNoCell. A request that took no way
  // (bypassed data, ldesc.cache) carries kNoCell cut to 32 bits.
  const auto l1_cell = [&](std::uint32_t sm, std::uint32_t line, std::uint32_t at) {
    if (at != static_cast<std::uint32_t>(kNoCell) && l1.tags[at] == line) {
      return std::size_t{at};
    }
    const std::uint32_t set = l1_set[line];
    const std::uint32_t way = l1.lookup(sm, set, line);
    return way == kNoWay ? kNoCell : l1.row(sm, set) + way;
  };
  for (const L2Request& r : s_.requests) {
    const std::uint64_t fill = r.issue_time + r.fill_delay;
    const bool fills_l1 = r.kind == RequestKind::kDemandFill || r.kind == RequestKind::kPrefetch;
    if (fills_l1 && l1_enabled_) {
      const std::size_t at = l1_cell(r.sm, r.line, r.l1_way);
      if (at != kNoCell) {
        std::uint64_t& fill_time = l1.fill_time[at];
        fill_time = fill_time == kPendingFill ? fill : std::max(fill_time, fill);
      }
      s_.sms[r.sm].misses.resolve(epoch_of(fill));
      if (r.kind == RequestKind::kDemandFill) {  // an L1 miss of a load: the warp waits fill_delay
        const auto level = r.from_dram != 0 ? latency::Level::kDram : latency::Level::kL2;
        ++latency_counts[std::size_t{r.counter} * latency::kRowSize +
                         latency::index_of(level, r.fill_delay)];
      }
    }
    if (r.waiter != kNoWaiter) {
      WarpSlot& w = residency_.warp(r.sm, r.waiter);
      w.ready_time = std::max(w.ready_time, fill);
      if (--w.pending == 0) {
        residency_.refresh(r.sm, r.waiter);
      }
    }
  }
  for (const FillWait& wait : s_.waits) {
    std::uint64_t fill = epoch_end + t1_;
    const std::size_t at = l1_cell(wait.sm, wait.line, wait.l1_way);
    if (at != kNoCell && l1.fill_time[at] != kPendingFill) {
      fill = l1.fill_time[at];
    }
    // The warp's data is there at the fill; the hit's latency is at least an L1 hit's.
    const std::uint64_t latency = std::max(fill, wait.issue_time + t1_) - wait.issue_time;
    ++latency_counts[std::size_t{wait.counter} * latency::kRowSize +
                     latency::index_of(latency::Level::kL1Inflight, latency)];
    WarpSlot& w = residency_.warp(wait.sm, wait.warp);
    w.ready_time = std::max(w.ready_time, fill);
    if (--w.pending == 0) {
      residency_.refresh(wait.sm, wait.warp);
    }
  }
  s_.waits.clear();
}

}  // namespace memcarlo::sim
