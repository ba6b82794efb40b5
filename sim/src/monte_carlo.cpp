// TBB-parallel trials with per-thread reusable workspaces.
#include "memcarlo/sim/monte_carlo.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "memcarlo/sim/trial.hpp"
#include "parallel.hpp"

namespace memcarlo::sim {

MonteCarloRun run_monte_carlo(const CompiledTrace& trace, const HierarchyConfig& config,
                              const MonteCarloOptions& options) {
  MonteCarloRun run;
  run.threads = options.threads == 0 ? static_cast<unsigned>(tbb::info::default_concurrency())
                                     : options.threads;
  const auto start = std::chrono::steady_clock::now();
  tbb::task_arena arena(static_cast<int>(run.threads));
  // One workspace per slot of the arena (each thread in it has its own index): plain memory that
  // ThreadSanitizer follows, unlike enumerable_thread_specific's, which TBB manages itself.
  std::vector<TrialWorkspace> workspaces(run.threads);
  auto run_range = [&](std::uint32_t first, std::uint32_t last) {
    run.trials.resize(last);
    arena.execute([&] {
      detail::parallel_for_index(last - first, 1, [&](std::size_t k) {
        const auto t = static_cast<std::uint32_t>(first + k);
        if (options.share.owns(t)) {
          TrialWorkspace& workspace = workspaces.at(detail::current_parallel_slot);
          run.trials[t] = run_trial(trace, config, options.seed, t, workspace);
        }
      });
    });
    if (options.gather) {
      options.gather(run.trials, first, last);
    }
    if (options.progress) {
      options.progress(last);
    }
  };
  std::uint32_t done = 0;
  std::uint32_t target = std::max<std::uint32_t>(1, options.trials);
  if (options.converged) {
    target = std::min(target, options.max_trials);
  }
  while (true) {
    run_range(done, target);
    done = target;
    if (!options.converged) {
      break;
    }
    if (options.converged(run.trials)) {
      run.converged = true;
      break;
    }
    if (done >= options.max_trials) {
      break;
    }
    target = std::min(options.max_trials, done + std::max<std::uint32_t>(1, options.round));
  }
  for (const TrialWorkspace& workspace : workspaces) {
    run.workspace_bytes = std::max(run.workspace_bytes, workspace.bytes());
  }
  run.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace memcarlo::sim
