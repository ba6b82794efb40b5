// Pattern "chain": chains of strides between consecutive loads of a thread (the LPS pattern of
// the Snake paper, MICRO 2023, Figures 7 and 8: four loads whose addresses differ by -400,
// 40400 and -400 bytes, in a loop that advances by 40000 bytes). Thread g of the grid reads
// u[start + g + k * loop] and then the chain's next loads at the running sums of the strides,
// so neighbouring lanes are one element apart (coalesced), every load has a fixed stride
// between warps and between CTAs, and a fixed stride between the loop's iterations.
#include <algorithm>
#include <numeric>

#include "pattern.hpp"
#include "trace_builder.hpp"
#include "warp_walk.hpp"

namespace memcarlo::synth {
namespace {

const std::vector<std::string> kListing = {
    "template <class T>",
    "__global__ void chain(const T* u, T* out, unsigned start, int s1, int s2, int s3,",
    "                      unsigned loop, unsigned iterations) {",
    "  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;",
    "  T sum = 0;",
    "  for (unsigned k = 0; k < iterations; ++k) {",
    "    const T* p = u + start + g + k * loop;  // strides below in bytes, elements in code",
    "    sum += p[0];",
    "    sum += p[s1];",
    "    sum += p[s1 + s2];",
    "    sum += p[s1 + s2 + s3];",
    "  }",
    "  out[g] = sum;",
    "}",
};

std::uint64_t total_threads(const Parameters& p) {
  return std::uint64_t{p.blocks} * p.threads;
}

/// The lowest and highest byte offsets of the chain's loads relative to its first.
std::pair<std::int64_t, std::int64_t> chain_extent(const Parameters& p) {
  std::int64_t offset = 0;
  std::int64_t low = 0;
  std::int64_t high = 0;
  for (const std::int64_t stride : p.chain) {
    offset += stride;
    low = std::min(low, offset);
    high = std::max(high, offset);
  }
  return {low, high};
}

std::uint64_t u_bytes(const Parameters& p) {
  const auto [low, high] = chain_extent(p);
  const std::uint64_t threads = checked_multiply(total_threads(p), p.element_size, "the size of u");
  const std::uint64_t loop = checked_multiply(p.iterations - 1, p.loop_stride, "the size of u");
  return static_cast<std::uint64_t>(high - low) + threads + loop;
}

void resolve(Parameters& p) {
  if (p.chain.empty() || p.chain.size() > 3) {
    throw OptionError("--chain must list 1 to 3 strides, got " + std::to_string(p.chain.size()));
  }
  for (const std::int64_t stride : p.chain) {
    if (stride % p.element_size != 0 || stride > (std::int64_t{1} << 30) ||
        stride < -(std::int64_t{1} << 30)) {
      throw OptionError("--chain: every stride must be a multiple of --elem-size (" +
                        std::to_string(p.element_size) + " bytes) within +-2^30, got " +
                        std::to_string(stride));
    }
  }
  if (p.loop_stride % p.element_size != 0) {
    throw OptionError("--loop-stride must be a multiple of --elem-size, got " +
                      std::to_string(p.loop_stride));
  }
  check_array_size(u_bytes(p), "u", "--blocks, --threads, --iterations, --chain or --loop-stride");
}

void generate(const Parameters& p, TraceBuilder& trace) {
  trace.set_kernel("chain", kListing);
  const std::uint32_t u = trace.add_array("u", u_bytes(p));
  const std::uint32_t out = trace.add_array("out", total_threads(p) * p.element_size);
  std::vector<std::uint32_t> loads;
  static const std::array<const char*, 4> kExpressions = {"p[0]", "p[s1]", "p[s1 + s2]",
                                                          "p[s1 + s2 + s3]"};
  for (std::size_t i = 0; i <= p.chain.size(); ++i) {
    loads.push_back(trace.add_access({.line = static_cast<std::uint32_t>(8 + i),
                                      .expression = kExpressions[i],
                                      .array = u,
                                      .element_size = p.element_size,
                                      .loop_depth = 1,
                                      .sequence = 0}));
  }
  const std::uint32_t write = trace.add_access({.line = 13,
                                                .expression = "out[g]",
                                                .kind = tracebuf::AccessKind::kWrite,
                                                .array = out,
                                                .element_size = p.element_size,
                                                .loop_depth = 0,
                                                .sequence = 1});
  trace.set_launch({p.blocks, 1, 1}, {p.threads, 1, 1}, p.blocks);
  trace.begin();

  const std::uint64_t u_base = trace.base(u) + static_cast<std::uint64_t>(-chain_extent(p).first);
  const std::uint64_t out_base = trace.base(out);
  for_each_warp_1d(p, trace, [&](const Warp1d& warp) {
    for (std::uint32_t k = 0; k < p.iterations; ++k) {
      std::uint64_t at = u_base + std::uint64_t{k} * p.loop_stride;
      for (std::size_t i = 0; i < loads.size(); ++i) {
        add_coalesced_record(trace, loads[i], warp.lanes, at, warp.first_thread, p.element_size);
        if (i < p.chain.size()) {
          at += static_cast<std::uint64_t>(p.chain[i]);
        }
      }
    }
    add_coalesced_record(trace, write, warp.lanes, out_base, warp.first_thread, p.element_size);
  });
}

}  // namespace

const PatternDefinition& chain_pattern() {
  static const PatternDefinition definition = {
      .info = {.name = "chain",
               .description = "each thread reads a chain of loads at fixed byte strides from "
                              "one another, in a loop (the Snake paper's LPS pattern)",
               .options = "--chain S1,S2,... (-400,40400,-400): bytes between consecutive "
                          "loads; --loop-stride B (40000): bytes per iteration; --iterations I "
                          "(4)"},
      .options = kUsesChain | kUsesLoopStride | kUsesIterations,
      .defaults = {.blocks = 64,
                   .iterations = 4,
                   .chain = {-400, 40400, -400},
                   .loop_stride = 40000},
      .resolve = &resolve,
      .generate = &generate,
  };
  return definition;
}

}  // namespace memcarlo::synth
