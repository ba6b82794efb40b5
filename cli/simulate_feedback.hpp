// What `memcarlo simulate` tells its user while it works, on standard error: a notice up front when
// a run will need much memory or time, a note when --threads asks for more than the machine has,
// and a progress line on a terminal. None of it changes the report.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/monte_carlo.hpp"

namespace memcarlo::cli {

// ---- Resources, estimated before the trials start
// ------------------------------------------------

/// A replay rate every preset beats on a current x86-64 core (the README's benchmark measures
/// 5.7-6.5 M L1 transactions per second per core on fermi-c2050 and about 6 M on h100); the
/// time estimate is meant to err long.
inline constexpr double kConservativeTransactionsPerSecond = 2e6;  // per worker thread
/// A notice is printed when the trials are expected to take longer than this ...
inline constexpr double kNoticeSeconds = 60;
/// ... or need more memory than this, or than half the machine's physical memory.
inline constexpr std::uint64_t kNoticeBytes = std::uint64_t{4} << 30;

struct RunEstimate {
  std::uint64_t compiled_trace_bytes = 0;
  std::uint64_t trial_state_bytes = 0;  // per worker thread
  unsigned threads = 1;
  std::uint64_t transactions = 0;  // per trial
  std::uint32_t trials = 0;        // the run's trials, or the first round with --until-ci
  bool until_ci = false;
  std::uint32_t max_trials = 0;  // with --until-ci

  [[nodiscard]] std::uint64_t memory_bytes() const {
    return compiled_trace_bytes + std::uint64_t{threads} * trial_state_bytes;
  }
  /// Seconds for `trials` trials at the conservative rate.
  [[nodiscard]] double seconds() const;
};

/// Memory one worker thread's trial state takes for `trace` on `config`, about: per cache way
/// (every SM's L1 and the L2) its tag, sector masks, fill time and replacement state, per L1 line
/// of the trace its record in the line table, per counter slot its counters. Within about 10 % of
/// what a run measures (performance.trial_state_bytes_per_thread) on every preset.
std::uint64_t estimate_trial_state_bytes(const sim::CompiledTrace& trace,
                                         const sim::HierarchyConfig& config);

/// One line saying what the run will need, when it needs more than kNoticeSeconds or kNoticeBytes
/// (or half of `physical_bytes`, when known: non-zero); empty otherwise.
std::string resource_notice(const RunEstimate& estimate, std::uint64_t physical_bytes);

/// The machine's physical memory in bytes, 0 when unknown.
std::uint64_t physical_memory_bytes();

// ---- Threads ----------------------------------------------------------------------------------

/// The worker threads a run gets: `requested` (0: all `available`), at most `available`, the
/// hardware threads TBB may use (it ignores a larger request with a warning of its own). `note`
/// is set when the request was lowered.
unsigned usable_threads(unsigned requested, unsigned available, std::string& note);

/// Hardware threads this process may run on (TBB's default concurrency: the affinity mask).
unsigned available_threads();

// ---- The terminal -----------------------------------------------------------------------------

/// Columns of the terminal on `fd`, or nullopt when it is not a terminal.
std::optional<std::size_t> terminal_columns(int fd);

/// Whether to draw a progress line: standard error is a terminal (not a pipe or a CI log) that can
/// erase a line (TERM is not "dumb").
bool progress_wanted();

/// Where a run stands in a sweep: point `point` (from 0) of `points`, what it sets, and how long
/// the sweep has been running.
struct SweepPosition {
  std::uint32_t point = 0;
  std::uint32_t points = 1;
  std::string label;  // the point's parameters, "l1.size=32768, l1.replacement=lru"
  double elapsed_seconds = 0;
};

/// "12/32 trials, 3.1 s, about 5.2 s left"; with --until-ci, "40 trials (at most 1000), 3.1 s,
/// widest 95% interval 0.0123 (load 3 l2_hit_ratio), target 0.005" once an interval is known.
/// In a sweep, a bar of the whole sweep, the point and the time the sweep has left before it:
/// "[#####---------------] point 3/12 (l1.size=32768): 8/32 trials, 2.0 s; sweep 25 s, about
/// 1.3 min left" (with --until-ci, the points not yet run count as long as the finished ones).
struct ProgressState {
  std::uint32_t done = 0;
  std::uint32_t total = 0;  // the trials, or --max-trials with --until-ci
  bool until_ci = false;
  double elapsed_seconds = 0;
  std::optional<double> widest;  // with --until-ci, after the first evaluation
  std::string widest_where;
  double target = 0;
  std::optional<SweepPosition> sweep;
};
std::string progress_text(const ProgressState& state);

/// The progress line: redrawn in place with "\r" and erase-to-end-of-line, at most four times a
/// second, erased at the end.
class ProgressLine {
 public:
  explicit ProgressLine(std::ostream& out) : out_(out) {}
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { finish(); }

  /// Redraws the line unless the last drawing is less than 250 ms old (or `force`).
  void show(const std::string& text, bool force = false);
  /// Erases the line (once).
  void finish();

 private:
  std::ostream& out_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// ---- Progress of a run ------------------------------------------------------------------------

/// What the progress of a run depends on (simulate's options and the threads it got).
struct ProgressPlan {
  std::uint32_t trials = 32;  // --trials: all of them, or the first round with --until-ci
  double until_ci = 0;        // 0: no stop rule
  std::uint32_t max_trials = 1000;
  unsigned bins = 20;
  unsigned threads = 1;
  /// In a sweep: the point (its elapsed_seconds is ignored; the sweep's clock is `sweep_start`).
  std::optional<SweepPosition> sweep;
  std::chrono::steady_clock::time_point sweep_start{};
};

/// Draws the progress line of a run on `out` while sim::run_monte_carlo works. That driver reports
/// between rounds only, so the constructor cuts the trials of `mc` into rounds: without a stop
/// rule, rounds of a multiple of the threads (about 50 at most); with --until-ci, rounds of the
/// stop rule's own size (mc.round, 8) from the first trial, such that the rule is still asked
/// after exactly the same trials as without progress (with more threads than a round has trials,
/// the first round is left whole so that no thread idles, and the line moves after it). Trial t
/// draws from its own random stream whatever round runs it, so the results are bit-identical to a
/// run without progress, and so is the stop rule's verdict.
class ProgressDriver {
 public:
  /// Replaces mc.trials, mc.round, mc.max_trials and mc.converged (the stop rule of
  /// analysis::intervals_within with plan.until_ci, as simulate sets it). `trace`, `config` and
  /// `out` must outlive the run.
  ProgressDriver(const ProgressPlan& plan, const sim::CompiledTrace& trace,
                 const sim::HierarchyConfig& config, sim::MonteCarloOptions& mc, std::ostream& out);
  ProgressDriver(const ProgressDriver&) = delete;
  ProgressDriver& operator=(const ProgressDriver&) = delete;

  /// Erases the line.
  void finish() { line_.finish(); }

 private:
  void show(std::uint32_t done, bool force);

  ProgressPlan plan_;
  ProgressLine line_;
  std::chrono::steady_clock::time_point start_;
  std::optional<double> widest_;
  std::string widest_where_;
};

}  // namespace memcarlo::cli
