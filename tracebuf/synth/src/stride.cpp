// Pattern "stride": thread g sums a[(g + k * total) * K]. Neighbouring lanes are K elements
// apart, so a full warp touches 32 * K * elem-size / 128 lines per request (2 for K = 2 floats).
#include "pattern.hpp"
#include "trace_builder.hpp"
#include "warp_walk.hpp"

namespace memcarlo::synth {
namespace {

const std::vector<std::string> kListing = {
    "template <class T>",
    "__global__ void strided_sum(const T* a, T* out, unsigned n, unsigned K) {",
    "  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;",
    "  unsigned total = gridDim.x * blockDim.x;",
    "  T sum = 0;",
    "  for (unsigned i = g; i < n; i += total)",
    "    sum += a[i * K];",
    "  out[g] = sum;",
    "}",
};

std::uint64_t total_threads(const Parameters& p) {
  return std::uint64_t{p.blocks} * p.threads;
}

/// Elements spanned by a: the last index read is (n - 1) * K with n = total * iterations.
std::uint64_t a_elements(const Parameters& p) {
  const std::uint64_t n = total_threads(p) * p.iterations;
  return checked_multiply(n - 1, p.stride, "the size of a") + 1;
}

void resolve(Parameters& p) {
  check_array_size(checked_multiply(a_elements(p), p.element_size, "the size of a"), "a",
                   "--blocks, --threads, --iterations or --stride");
}

void generate(const Parameters& p, TraceBuilder& trace) {
  trace.set_kernel("strided_sum", kListing);
  const std::uint32_t a = trace.add_array("a", a_elements(p) * p.element_size);
  const std::uint32_t out = trace.add_array("out", total_threads(p) * p.element_size);
  const std::uint32_t read = trace.add_access({.line = 7,
                                               .expression = "a[i * K]",
                                               .array = a,
                                               .element_size = p.element_size,
                                               .loop_depth = 1,
                                               .sequence = 0});
  const std::uint32_t write = trace.add_access({.line = 8,
                                                .expression = "out[g]",
                                                .kind = tracebuf::AccessKind::kWrite,
                                                .array = out,
                                                .element_size = p.element_size,
                                                .loop_depth = 0,
                                                .sequence = 1});
  trace.set_launch({p.blocks, 1, 1}, {p.threads, 1, 1}, p.blocks);
  trace.add_fact("lane_stride_bytes", std::uint64_t{p.stride} * p.element_size);
  trace.begin();

  const std::uint64_t a_base = trace.base(a);
  const std::uint64_t out_base = trace.base(out);
  const std::uint64_t lane_stride = std::uint64_t{p.stride} * p.element_size;
  for_each_warp_1d(p, trace, [&](const Warp1d& warp) {
    for (std::uint32_t k = 0; k < p.iterations; ++k) {
      const std::uint64_t first_index = warp.first_thread + k * total_threads(p);
      add_coalesced_record(trace, read, warp.lanes, a_base, first_index, lane_stride);
    }
    add_coalesced_record(trace, write, warp.lanes, out_base, warp.first_thread, p.element_size);
  });
}

}  // namespace

const PatternDefinition& stride_pattern() {
  static const PatternDefinition definition = {
      .info = {.name = "stride",
               .description = "thread g reads a[(g + k*total) * K]: lanes K elements apart, "
                              "K*elem-size*32/128 transactions per request",
               .options = "--stride K (2): elements between neighbouring threads; "
                          "--iterations I (4): reads per thread"},
      .options = kUsesStride | kUsesIterations,
      .defaults = {.blocks = 64, .iterations = 4, .stride = 2},
      .resolve = &resolve,
      .generate = &generate,
  };
  return definition;
}

}  // namespace memcarlo::synth
