// Replay throughput: L1 transactions per second per core on one thread and on all cores, the
// speed-up between the two, and memory per transaction; before them the compile's time on one
// thread and on all cores and the compiled trace's bytes per transaction. Default input: a
// ~10M-transaction scalar CSR SpMV synthetic trace replayed on the fermi-c2050 preset (issue 2's
// benchmark).
//
//   memcarlo-bench-replay [--trace FILE] [--hierarchy P] [--set KEY=VALUE]... [--trials N]
//                         [--threads J] [--digest]
// --digest prints a checksum of every trial's counters, so that a change meant only to make the
// replay faster can be checked to leave its results bit-identical, and on a line of its own one of
// the per-load latency histograms.
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/latency_bins.hpp"
#include "memcarlo/sim/monte_carlo.hpp"
#include "memcarlo/sim/trial_digest.hpp"

namespace {

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) * 1e-6 +
         static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) * 1e-6;
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

double run(const memcarlo::sim::CompiledTrace& trace, const memcarlo::sim::HierarchyConfig& config,
           unsigned threads, std::uint32_t trials, std::uint64_t& workspace_bytes,
           std::uint64_t& digest, std::uint64_t& latency_digest) {
  memcarlo::sim::MonteCarloOptions options;
  options.trials = trials;
  options.threads = threads;
  options.seed = 11;
  const auto result = memcarlo::sim::run_monte_carlo(trace, config, options);
  workspace_bytes = result.workspace_bytes;
  memcarlo::sim::TrialDigest d;
  memcarlo::sim::TrialDigest latencies;  // apart, so that the counters' digest stays comparable
  for (const auto& trial : result.trials) {
    d.add(trial);
    // The dense layout, as the digest was first taken (values(): the loads' rows in order).
    const auto& histogram = trial.latency_histogram;
    const std::size_t size = trace.loads.size() * memcarlo::sim::latency::kRowSize;
    for (const std::uint64_t count : histogram.dense(size)) {
      latencies.add(count);
    }
  }
  digest = d.value();
  latency_digest = latencies.value();
  return result.wall_seconds;
}

}  // namespace

int main(int argc, char** argv) try {
  memcarlo::bench::InputOptions input_options;
  std::uint32_t trials = 4;
  std::uint32_t threads = std::max(1u, std::thread::hardware_concurrency());
  bool digest = false;
  const bool parsed = memcarlo::bench::parse_options(
      argc, argv, input_options, "[--trials N] [--threads J] [--digest]",
      [&](const char* flag, const char* value) {
        if (!std::strcmp(flag, "--digest")) {
          digest = true;
          return 1;
        }
        std::uint32_t* target = !std::strcmp(flag, "--trials")    ? &trials
                                : !std::strcmp(flag, "--threads") ? &threads
                                                                  : nullptr;
        if (target == nullptr) {
          return 0;
        }
        if (value != nullptr) {
          *target = memcarlo::bench::positive_option(flag, value);
        }
        return 2;
      });
  if (!parsed) {
    return 1;
  }
  const auto input = memcarlo::bench::load_input(input_options);
  if (!input) {
    return 1;
  }
  const auto& config = input->config;
  const auto& compiled = input->compiled;
  const auto transactions = static_cast<double>(compiled.transactions.size());
  memcarlo::bench::print_input(input_options, input->trace_path, compiled);
  memcarlo::bench::print_compile(*input);

  std::uint64_t workspace_one = 0;
  std::uint64_t workspace_all = 0;
  std::uint64_t digest_one = 0;
  std::uint64_t digest_all = 0;
  std::uint64_t latency_digest_one = 0;
  std::uint64_t latency_digest_all = 0;
  const double cpu_before = cpu_seconds();
  const double one = run(compiled, config, 1, trials, workspace_one, digest_one, latency_digest_one);
  const double cpu_one = cpu_seconds() - cpu_before;
  const double cpu_middle = cpu_seconds();
  const double all = run(compiled, config, threads, trials * threads, workspace_all, digest_all,
                         latency_digest_all);
  const double cpu_all = cpu_seconds() - cpu_middle;
  const double rate_one = transactions * trials / one;
  const double rate_all = transactions * trials * threads / all;
  std::printf("1 thread : %u trials in %.2f s = %.1f M transactions/s per core "
              "(%.1f M per CPU-second)\n",
              trials, one, rate_one / 1e6, transactions * trials / cpu_one / 1e6);
  // CPU-seconds over wall seconds: below the thread count when the threads did not all run at
  // once (a shared machine, or a serialized driver), whatever the rates say.
  std::printf("%u threads: %u trials in %.2f s = %.1f M transactions/s, %.1f M per core "
              "(%.1f M per CPU-second, %.2f CPUs busy)\n",
              threads, trials * threads, all, rate_all / 1e6, rate_all / threads / 1e6,
              transactions * trials * threads / cpu_all / 1e6, cpu_all / all);
  std::printf("speed-up 1 -> %u threads: %.2f\n", threads, rate_all / rate_one);
  std::printf("memory: compiled trace %.1f bytes/transaction, trial state %.1f bytes/transaction "
              "per thread, peak RSS %.1f bytes/transaction\n",
              static_cast<double>(compiled.bytes()) / transactions,
              static_cast<double>(workspace_all) / transactions,
              static_cast<double>(peak_rss_kib()) * 1024.0 / transactions);
  if (digest) {
    std::printf("digest: %016llx (first %u trials), %016llx (%u trials on %u threads)\n",
                static_cast<unsigned long long>(digest_one), trials,
                static_cast<unsigned long long>(digest_all), trials * threads, threads);
    std::printf("latency histogram digest: %016llx (first %u trials), %016llx (%u trials on %u "
                "threads)\n",
                static_cast<unsigned long long>(latency_digest_one), trials,
                static_cast<unsigned long long>(latency_digest_all), trials * threads, threads);
  }
  return 0;
} catch (const std::exception& error) {  // a bad trace, hierarchy or override
  std::cerr << "error: " << error.what() << "\n";
  return 2;
}
