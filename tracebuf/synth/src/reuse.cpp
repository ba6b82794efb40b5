// Pattern "reuse": every warp reads the whole of a small array, 32 consecutive elements per
// request, --iterations passes. The expected L1 hit ratio, computed by hand:
//
//   The array has L = elements * E / 128 lines (E = elem-size), line-aligned; assume the footprint
//   is a multiple of 128 bytes and threads a multiple of 32 (the defaults are). A full warp's
//   request c reads elements 32c .. 32c+31, i.e. 32E bytes: a quarter, half, one, two or four
//   whole lines. So each warp touches each line r = max(1, 4 / E) times per pass (r = 1 for
//   4-byte elements and larger). An SM that runs b blocks of w = threads / 32 warps for P passes
//   reads each line n = b * w * P * r times. With the array resident in the L1 (it fits, and
//   consecutive lines spread evenly over the sets) only the first of those reads misses:
//   H1(SM) = (n - 1) / n. Over B blocks on S SMs: H1 = 1 - min(B, S) / (B * w * P * r), which is
//   (n - 1) / n with n = B * w * P * r / S when S divides B. A read of a line whose fill is
//   still in flight counts as a hit here. The kernel stores nothing, so under any store policy
//   only a[] occupies the L1.
#include "pattern.hpp"
#include "trace_builder.hpp"
#include "warp_walk.hpp"

namespace memcarlo::synth {
namespace {

const std::vector<std::string> kListing = {
    "template <class T>",
    "__global__ void reuse(const T* a, unsigned n, unsigned passes) {",
    "  unsigned lane = threadIdx.x % 32;",
    "  T sum = 0;",
    "  for (unsigned p = 0; p < passes; ++p)",
    "    for (unsigned c = lane; c < n; c += 32)",
    "      sum += a[c];",
    "  keep_in_register(sum);  // no store: only a[] competes for the L1",
    "}",
};

void resolve(Parameters&) {}

void generate(const Parameters& p, TraceBuilder& trace) {
  const std::uint64_t elements = p.footprint / p.element_size;
  const std::uint64_t bytes = elements * p.element_size;
  trace.set_kernel("reuse", kListing);
  const std::uint32_t a = trace.add_array("a", bytes);
  const std::uint32_t read = trace.add_access({.line = 7,
                                               .expression = "a[c]",
                                               .array = a,
                                               .element_size = p.element_size,
                                               .loop_depth = 2,
                                               .sequence = 0});
  trace.set_launch({p.blocks, 1, 1}, {p.threads, 1, 1}, p.blocks);
  trace.add_fact("elements", elements);
  trace.add_fact("lines", (bytes + kTransactionLineBytes - 1) / kTransactionLineBytes);
  trace.add_fact("warps_per_block", warps_per_block(p.threads));
  trace.add_fact("passes", p.iterations);
  trace.begin();

  const std::uint64_t a_base = trace.base(a);
  const std::uint64_t requests_per_pass =
      (elements + tracebuf::kWarpSize - 1) / tracebuf::kWarpSize;
  for_each_warp_1d(p, trace, [&](const Warp1d& warp) {
    for (std::uint32_t pass = 0; pass < p.iterations; ++pass) {
      for (std::uint64_t c = 0; c < requests_per_pass; ++c) {
        const std::uint64_t first = c * tracebuf::kWarpSize;
        const std::uint64_t in_array = elements - first;  // elements left from `first`
        const std::uint32_t mask =
            in_array >= tracebuf::kWarpSize ? warp.lanes : warp.lanes & ((1u << in_array) - 1);
        add_coalesced_record(trace, read, mask, a_base, first, p.element_size);
      }
    }
  });
}

}  // namespace

const PatternDefinition& reuse_pattern() {
  static const PatternDefinition definition = {
      .info = {.name = "reuse",
               .description = "every warp re-reads a small array in coalesced 32-element chunks; "
                              "L1 hit ratio (n-1)/n, n = blocks per SM x warps x passes",
               .options = "--footprint BYTES (8KiB): array size; --iterations P (4): passes"},
      .options = kUsesFootprint | kUsesIterations,
      .defaults = {.blocks = 64, .iterations = 4, .footprint = 8192},
      .resolve = &resolve,
      .generate = &generate,
  };
  return definition;
}

}  // namespace memcarlo::synth
