// Resource notice, thread limit and progress line of `memcarlo simulate` (see
// simulate_feedback.hpp).
#include "simulate_feedback.hpp"

#include <sys/ioctl.h>
#include <tbb/info.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string_view>

#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::cli {
namespace {

std::string printf_string(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string bytes_text(std::uint64_t bytes) {
  const auto value = static_cast<double>(bytes);
  if (bytes >= (std::uint64_t{1} << 30)) {
    return printf_string("%.1f GiB", value / (1 << 30));
  }
  if (bytes >= (std::uint64_t{1} << 20)) {
    return printf_string("%.0f MiB", value / (1 << 20));
  }
  return printf_string("%.0f KiB", value / (1 << 10));
}

std::string seconds_text(double seconds) {
  if (seconds < 90) {
    return printf_string(seconds < 10 ? "%.1f s" : "%.0f s", seconds);
  }
  if (seconds < 90 * 60) {
    return printf_string("%.1f min", seconds / 60);
  }
  return printf_string("%.1f h", seconds / 3600);
}

}  // namespace

double RunEstimate::seconds() const {
  return static_cast<double>(transactions) * trials /
         (kConservativeTransactionsPerSecond * std::max(1u, threads));
}

std::uint64_t estimate_trial_state_bytes(const sim::CompiledTrace& trace,
                                         const sim::HierarchyConfig& config) {
  // Per way: L1 tag (4), valid sectors (1), fill time (8) and its recency rank (1); L2 way record
  // (8, sim::SharedWay) and rank (1). Per set, one 64-bit word of invalid ways. The line table
  // holds per L1 line of the trace one 16-bit word per 16 SMs (the holders) and one per L2 line
  // inside it (its way).
  std::uint64_t bytes = 0;
  if (config.l1.enabled) {
    const std::uint64_t ways =
        std::uint64_t{config.sm.count} * (config.l1.capacity() / config.l1.line);
    bytes += ways * 14 + std::uint64_t{config.sm.count} * config.l1.sets() * 8;
  }
  const std::uint64_t l2_ways = config.l2.size / config.l2.line;
  bytes += l2_ways * 9 + std::uint64_t{config.l2.sets()} * 8;
  const std::uint64_t holder_words = config.l1.enabled ? (config.sm.count + 15) / 16 : 0;
  bytes += std::uint64_t{trace.l1_line_count()} * (holder_words + trace.l2_lines_per_l1_line) * 2;
  bytes += trace.slots.size() * sizeof(sim::AccessCounters);
  // Per SM, its resident warps' and blocks' scheduling state (40 and 16 bytes: WarpSlot and
  // BlockSlot in sim/src/trial_state.hpp); it matters on presets with many SMs and small caches
  // (tafe-multigpu-8: 64 SMs of 48 warps, 16 KiB L1s).
  bytes += std::uint64_t{config.sm.count} * (config.sm.max_warps * 40 + config.sm.max_blocks * 16);
  // With several modules, the numa counter group: one row per counter slot.
  if (config.numa.modules > 1) {
    bytes += trace.slots.size() * sim::kNumaGroup.width() * sizeof(std::uint64_t);
  }
  return bytes;
}

std::string resource_notice(const RunEstimate& estimate, std::uint64_t physical_bytes) {
  const std::uint64_t memory = estimate.memory_bytes();
  const double seconds = estimate.seconds();
  const bool much_memory =
      memory > kNoticeBytes || (physical_bytes > 0 && memory > physical_bytes / 2);
  if (!much_memory && seconds <= kNoticeSeconds) {
    return {};
  }
  std::string text = "this run needs about " + bytes_text(memory) +
                     " of memory (the compiled trace " + bytes_text(estimate.compiled_trace_bytes) +
                     ", " + std::to_string(estimate.threads) + " threads x " +
                     bytes_text(estimate.trial_state_bytes) + " of trial state";
  if (physical_bytes > 0) {
    text += "; this machine has " + bytes_text(physical_bytes);
  }
  text += ") and about " + seconds_text(seconds) + " for " +
          (estimate.until_ci ? "its first " : "") + std::to_string(estimate.trials) +
          " trials of " + std::to_string(estimate.transactions) +
          " transactions (at a conservative " +
          printf_string("%.0f", kConservativeTransactionsPerSecond / 1e6) +
          " M transactions/s per thread)";
  if (estimate.until_ci) {
    text += ", up to " + std::to_string(estimate.max_trials) + " trials with --until-ci";
  }
  text += much_memory ? "; fewer threads (-j) need less memory" : "";
  text += seconds > kNoticeSeconds ? "; fewer trials (-n) take less time" : "";
  return text;
}

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size)
             : 0;
}

unsigned usable_threads(unsigned requested, unsigned available, std::string& note) {
  available = std::max(1u, available);
  if (requested == 0) {
    return available;
  }
  if (requested > available) {
    note = "--threads " + std::to_string(requested) + " is more than the " +
           std::to_string(available) + " hardware threads this process may use; using " +
           std::to_string(available) + " (more would only take turns on them)";
    return available;
  }
  return requested;
}

unsigned available_threads() {
  return static_cast<unsigned>(std::max(1, tbb::info::default_concurrency()));
}

std::optional<std::size_t> terminal_columns(int fd) {
  if (::isatty(fd) == 0) {
    return std::nullopt;
  }
  winsize size{};
  if (::ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) {
    return std::nullopt;
  }
  return size.ws_col;
}

bool progress_wanted() {
  if (::isatty(STDERR_FILENO) == 0) {
    return false;
  }
  const char* term = std::getenv("TERM");
  return term == nullptr || std::string_view(term) != "dumb";
}

namespace {

/// The sweep's part of a progress line: the bar in front, the sweep's time and what it has left
/// behind. `fraction` is the share of the sweep done, 0 when unknown.
std::string sweep_bar(double fraction) {
  constexpr int kWidth = 20;
  const int filled = std::clamp(static_cast<int>(fraction * kWidth), 0, kWidth);
  return "[" + std::string(static_cast<std::size_t>(filled), '#') +
         std::string(static_cast<std::size_t>(kWidth - filled), '-') + "] ";
}

}  // namespace

std::string progress_text(const ProgressState& s) {
  if (s.sweep) {
    ProgressState run = s;
    run.sweep.reset();
    const SweepPosition& at = *s.sweep;
    const double points = std::max(1u, at.points);
    // With --until-ci a point's length is unknown until it stops: only finished points count.
    const double within =
        !s.until_ci && s.total > 0 ? std::min(1.0, static_cast<double>(s.done) / s.total) : 0.0;
    const double fraction = (at.point + within) / points;
    std::string text = "memcarlo: " + sweep_bar(fraction) + "point " +
                       std::to_string(at.point + 1) + "/" + std::to_string(at.points);
    if (!at.label.empty()) {
      text += " (" + at.label + ")";
    }
    text += ": " + progress_text(run).substr(std::string_view("memcarlo: ").size());
    text += "; sweep " + seconds_text(at.elapsed_seconds);
    if (fraction > 0 && fraction < 1) {
      text += ", about " + seconds_text(at.elapsed_seconds * (1 - fraction) / fraction) + " left";
    }
    return text;
  }
  std::string text = "memcarlo: " + std::to_string(s.done);
  if (s.until_ci) {
    text += " trials (at most " + std::to_string(s.total) + "), " + seconds_text(s.elapsed_seconds);
    if (s.widest) {
      text += std::isinf(*s.widest)
                  ? ", an interval is still undefined (" + s.widest_where + ")"
                  : ", widest 95% interval " + printf_string("%.4g", *s.widest) + " (" +
                        s.widest_where + "), target " + printf_string("%g", s.target);
    }
    return text;
  }
  text += "/" + std::to_string(s.total) + " trials, " + seconds_text(s.elapsed_seconds);
  if (s.done > 0 && s.done < s.total) {
    const double left = s.elapsed_seconds / s.done * (s.total - s.done);
    text += ", about " + seconds_text(left) + " left";
  }
  return text;
}

void ProgressLine::show(const std::string& text, bool force) {
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && !force && now - last_ < std::chrono::milliseconds(250)) {
    return;
  }
  out_ << "\r\033[K" << text << std::flush;
  drawn_ = true;
  last_ = now;
}

void ProgressLine::finish() {
  if (drawn_) {
    out_ << "\r\033[K" << std::flush;
    drawn_ = false;
  }
}

ProgressDriver::ProgressDriver(const ProgressPlan& plan, const sim::CompiledTrace& trace,
                               const sim::HierarchyConfig& config, sim::MonteCarloOptions& mc,
                               std::ostream& out)
    : plan_(plan), line_(out), start_(std::chrono::steady_clock::now()) {
  const unsigned threads = std::max(1u, plan.threads);
  if (plan.until_ci > 0) {
    const std::uint32_t first = std::min(plan.trials, plan.max_trials);
    const std::uint32_t round = std::max<std::uint32_t>(1, mc.round);
    mc.trials = threads <= round ? (first - 1) % round + 1 : first;
    mc.round = round;
    mc.max_trials = plan.max_trials;
    mc.converged = [this, first, round, &trace,
                    &config](const std::vector<sim::TrialResult>& trials) {
      const auto done = static_cast<std::uint32_t>(trials.size());
      // The points where simulate without progress asks the rule: the first round, every round
      // after it, and the last trial allowed.
      const bool asked = done >= first && ((done - first) % round == 0 || done == plan_.max_trials);
      bool converged = false;
      if (asked) {
        const analysis::SimulationSummary summary =
            analysis::summarize_run(trials, trace, config, plan_.bins);
        converged = analysis::intervals_within(summary, plan_.until_ci);
        const analysis::WidestInterval widest = analysis::widest_interval(summary);
        widest_ = widest.half_width;
        widest_where_ = widest.where;
      }
      show(done, asked);
      return converged;
    };
  } else {
    const std::uint32_t total = std::max<std::uint32_t>(1, plan.trials);
    const std::uint32_t per_thread = (total + 50 * threads - 1) / (50 * threads);
    const std::uint32_t chunk = threads * std::max(1u, per_thread);
    mc.trials = total;
    if (chunk < total) {
      mc.trials = chunk;
      mc.round = chunk;
      mc.max_trials = total;
      mc.converged = [this, total](const std::vector<sim::TrialResult>& trials) {
        show(static_cast<std::uint32_t>(trials.size()), false);
        return trials.size() >= total;
      };
    }
  }
  show(0, true);
}

void ProgressDriver::show(std::uint32_t done, bool force) {
  ProgressState state;
  state.done = done;
  state.until_ci = plan_.until_ci > 0;
  state.total = state.until_ci ? plan_.max_trials : plan_.trials;
  state.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  state.widest = widest_;
  state.widest_where = widest_where_;
  state.target = plan_.until_ci;
  if (plan_.sweep) {
    state.sweep = plan_.sweep;
    state.sweep->elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - plan_.sweep_start)
            .count();
  }
  line_.show(progress_text(state), force);
}

}  // namespace memcarlo::cli
