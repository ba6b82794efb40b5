// The L2's share of a replay, alone: how fast the engine's own L2 structures (the LRU recency
// ranks of replacement/policy.hpp and a line-to-way presence map) take the L2 lines of a trace's
// L1 transactions when nothing else is simulated. Every read is taken as an L1 miss that fetches
// what the L1 would ask for (the whole L1 line when the L1 is not sectored), every store as its
// L2 chunks; no L1, no write semantics, no back-invalidation, no DRAM, no scheduler, no random
// draws, no counters; LRU whatever l2.replacement says. The order is fixed: one bulk per warp in
// turn. It is a floor under the replay's time, not a model: a full trial does this work (less
// the L2 accesses of its few L1 hits) and much more, so the pass tells how far a throughput
// target is from what the L2 work alone costs. One single-thread trial of the real engine runs
// on the same trace for the ratio.
//
//   memcarlo-bench-l2-floor [--trace FILE] [--hierarchy P] [--set KEY=VALUE]... [--passes N]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/monte_carlo.hpp"
#include "memcarlo/sim/replacement/policy.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace {

using memcarlo::sim::CompiledTrace;
using memcarlo::sim::HierarchyConfig;

/// The transactions in the floor's order: warps take turns, one bulk each.
std::vector<std::uint32_t> round_robin_order(const CompiledTrace& trace) {
  std::vector<std::uint32_t> order;
  order.reserve(trace.transactions.size());
  std::vector<std::uint32_t> next(trace.warps.size(), 0);
  for (bool any = true; any;) {
    any = false;
    for (std::size_t w = 0; w < trace.warps.size(); ++w) {
      if (next[w] == trace.warps[w].bulk_count) {
        continue;
      }
      const auto& bulk = trace.bulks[trace.warps[w].first_bulk + next[w]++];
      for (std::uint32_t t = 0; t < bulk.transaction_count; ++t) {
        order.push_back(bulk.first_transaction + t);
      }
      any = true;
    }
  }
  return order;
}

/// Per transaction, bit p: the transaction touches L2 line p of its L1 line.
std::vector<std::uint8_t> parts_touched(const CompiledTrace& trace, const HierarchyConfig& config) {
  const std::uint32_t parts = trace.l2_lines_per_l1_line;
  const std::uint32_t chunks_per_part = trace.l2_sectors_per_l2_line;
  const std::uint32_t chunks_per_l1_sector = config.l1.sector / config.l2.sector;
  const bool sectored = config.l1.sectors_per_line() > 1;
  const auto l1_sectors_of = memcarlo::sim::l1_sectors_of_chunks(config);
  std::vector<std::uint8_t> out(trace.transactions.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto& t = trace.transactions[i];
    std::uint32_t chunks = t.l2_sectors;
    if (t.kind() == memcarlo::tracebuf::AccessKind::kRead && config.l1.enabled) {
      chunks = 0;  // an L1 miss asks for the L1 sectors it lacks: here all it touches
      for (std::uint32_t s = 0; s < config.l1.sectors_per_line(); ++s) {
        if (!sectored || ((l1_sectors_of[t.l2_sectors] >> s) & 1) != 0) {
          chunks |= ((1u << chunks_per_l1_sector) - 1) << (s * chunks_per_l1_sector);
        }
      }
    }
    std::uint8_t mask = 0;
    for (std::uint32_t p = 0; p < parts; ++p) {
      if (((chunks >> (p * chunks_per_part)) & ((1u << chunks_per_part) - 1)) != 0) {
        mask = static_cast<std::uint8_t>(mask | (1u << p));
      }
    }
    out[i] = mask;
  }
  return out;
}

struct FloorResult {
  double seconds = 0;
  std::uint64_t accesses = 0;
  std::uint64_t hits = 0;
};

FloorResult l2_floor(const CompiledTrace& trace, const HierarchyConfig& config,
                     const std::vector<std::uint32_t>& order,
                     const std::vector<std::uint8_t>& parts, std::uint32_t passes) {
  constexpr std::uint16_t kNoWay = 0xFFFF;
  constexpr std::uint32_t kEmpty = 0xFFFFFFFF;
  const std::uint32_t sets = config.l2.sets();
  const std::uint32_t ways = config.l2.associativity;
  const std::uint32_t per_line = trace.l2_lines_per_l1_line;
  memcarlo::sim::replacement::RecencyRanks ranks;
  ranks.reset(sets, ways);
  const auto recency = ranks.view();
  std::vector<std::uint16_t> way_of(trace.l2_line_count(), kNoWay);
  std::vector<std::uint32_t> holder(std::size_t{sets} * ways, kEmpty);
  FloorResult result;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t pass = 0; pass < passes; ++pass) {
    for (const std::uint32_t index : order) {
      const std::uint32_t first = trace.transactions[index].line * per_line;
      for (std::uint32_t bits = parts[index]; bits != 0; bits &= bits - 1) {
        const std::uint32_t id = first + static_cast<std::uint32_t>(std::countr_zero(bits));
        const std::uint32_t set = trace.l2_set[id];
        ++result.accesses;
        const std::uint16_t way = way_of[id];
        if (way != kNoWay) {
          recency.promote(set, way);
          ++result.hits;
          continue;
        }
        const std::uint32_t victim = recency.rotate_oldest(set);
        std::uint32_t& held = holder[std::size_t{set} * ways + victim];
        if (held != kEmpty) {
          way_of[held] = kNoWay;
        }
        held = id;
        way_of[id] = static_cast<std::uint16_t>(victim);
      }
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace

int main(int argc, char** argv) try {
  memcarlo::bench::InputOptions input_options;
  std::uint32_t passes = 4;
  const bool parsed = memcarlo::bench::parse_options(
      argc, argv, input_options, "[--passes N]", [&](const char* flag, const char* value) {
        if (std::strcmp(flag, "--passes") != 0) {
          return 0;
        }
        if (value != nullptr) {
          passes = memcarlo::bench::positive_option("--passes", value);
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
  std::cout << "L2: " << config.l2.sets() << " sets x " << config.l2.associativity << " ways\n";

  const auto order = round_robin_order(compiled);
  const auto parts = parts_touched(compiled, config);
  const FloorResult floor = l2_floor(compiled, config, order, parts, passes);
  const double floor_rate = transactions * passes / floor.seconds;
  const double per_transaction = static_cast<double>(floor.accesses) / (transactions * passes);
  std::printf(
      "L2 floor: %u passes in %.2f s = %.1f M transactions/s per core, %.1f M L2 "
      "accesses/s (%.2f per transaction, %.1f %% hits)\n",
      passes, floor.seconds, floor_rate / 1e6,
      static_cast<double>(floor.accesses) / floor.seconds / 1e6, per_transaction,
      100.0 * static_cast<double>(floor.hits) / static_cast<double>(floor.accesses));

  memcarlo::sim::MonteCarloOptions options;
  options.trials = 1;
  options.threads = 1;
  options.seed = 11;
  const auto run = memcarlo::sim::run_monte_carlo(compiled, config, options);
  const double engine_rate = transactions / run.wall_seconds;
  std::printf("full replay: 1 trial in %.2f s = %.1f M transactions/s per core\n", run.wall_seconds,
              engine_rate / 1e6);
  std::printf("the L2 floor is %.0f %% of the replay's time\n", 100.0 * engine_rate / floor_rate);
  return 0;
} catch (const std::exception& error) {  // a bad trace, hierarchy or override
  std::cerr << "error: " << error.what() << "\n";
  return 2;
}
