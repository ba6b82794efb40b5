// Pattern "gather": every thread reads `iterations` uniformly random, element-aligned addresses
// of an array of --footprint bytes (indices come from a hash, not from memory: no dependence).
#include "pattern.hpp"
#include "random.hpp"
#include "trace_builder.hpp"
#include "warp_walk.hpp"

namespace memcarlo::synth {
namespace {

const std::vector<std::string> kListing = {
    "template <class T>",
    "__global__ void gather(const T* a, T* out, unsigned n, unsigned iterations, unsigned seed) {",
    "  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;",
    "  T sum = 0;",
    "  for (unsigned k = 0; k < iterations; ++k) {",
    "    unsigned idx = uniform_index(seed, g, k, n);  // a hash: no memory access",
    "    sum += a[idx];",
    "  }",
    "  out[g] = sum;",
    "}",
};

constexpr std::uint64_t kIndexStream = 0x6761746865720000ull;  // "gather"

void resolve(Parameters& p) {
  check_array_size(
      checked_multiply(std::uint64_t{p.blocks} * p.threads, p.element_size, "the size of out"),
      "out", "--blocks or --threads");
}

void generate(const Parameters& p, TraceBuilder& trace) {
  const std::uint64_t elements = p.footprint / p.element_size;
  const std::uint64_t total_threads = std::uint64_t{p.blocks} * p.threads;
  trace.set_kernel("gather", kListing);
  const std::uint32_t a = trace.add_array("a", elements * p.element_size);
  const std::uint32_t out = trace.add_array("out", total_threads * p.element_size);
  const std::uint32_t read = trace.add_access({.line = 7,
                                               .expression = "a[idx]",
                                               .array = a,
                                               .element_size = p.element_size,
                                               .loop_depth = 1,
                                               .sequence = 0});
  const std::uint32_t write = trace.add_access({.line = 9,
                                                .expression = "out[g]",
                                                .kind = tracebuf::AccessKind::kWrite,
                                                .array = out,
                                                .element_size = p.element_size,
                                                .loop_depth = 0,
                                                .sequence = 1});
  trace.set_launch({p.blocks, 1, 1}, {p.threads, 1, 1}, p.blocks);
  trace.add_fact("elements", elements);
  trace.begin();

  const std::uint64_t a_base = trace.base(a);
  const std::uint64_t out_base = trace.base(out);
  for_each_warp_1d(p, trace, [&](const Warp1d& warp) {
    for (std::uint32_t k = 0; k < p.iterations; ++k) {
      add_lane_record(trace, read, warp.lanes, [&](std::uint32_t lane) {
        const std::uint64_t thread = warp.first_thread + lane;
        const std::uint64_t hash = keyed_hash(p.seed, kIndexStream, thread * p.iterations + k);
        return a_base + below(hash, elements) * p.element_size;
      });
    }
    add_coalesced_record(trace, write, warp.lanes, out_base, warp.first_thread, p.element_size);
  });
}

}  // namespace

const PatternDefinition& gather_pattern() {
  static const PatternDefinition definition = {
      .info = {.name = "gather",
               .description = "uniformly random element-aligned reads over --footprint bytes "
                              "(seeded), then out[g] = sum",
               .options = "--footprint BYTES (4MiB): size of the gathered array; "
                          "--iterations I (8): reads per thread"},
      .options = kUsesFootprint | kUsesIterations,
      .defaults = {.blocks = 64, .iterations = 8, .footprint = std::uint64_t{4} << 20},
      .resolve = &resolve,
      .generate = &generate,
  };
  return definition;
}

}  // namespace memcarlo::synth
