// Pattern "stream": a grid-stride copy, out[i] = in[i]. Every line is touched by exactly one warp
// instruction, so all reads are compulsory misses; 32 lanes x elem-size <= 128 bytes is one
// transaction per request.
#include "pattern.hpp"
#include "trace_builder.hpp"
#include "warp_walk.hpp"

namespace memcarlo::synth {
namespace {

// Thread g copies elements g, g + total, g + 2 total, ... (iterations of them).
const std::vector<std::string> kListing = {
    "template <class T>",
    "__global__ void stream_copy(const T* in, T* out, unsigned n) {",
    "  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;",
    "  unsigned total = gridDim.x * blockDim.x;",
    "  for (unsigned i = g; i < n; i += total)",
    "    out[i] = in[i];",
    "}",
};

std::uint64_t element_count(const Parameters& p) {
  return std::uint64_t{p.blocks} * p.threads * p.iterations;
}

void resolve(Parameters& p) {
  check_array_size(checked_multiply(element_count(p), p.element_size, "the array size"),
                   "in and out", "--blocks, --threads or --iterations");
}

void generate(const Parameters& p, TraceBuilder& trace) {
  const std::uint64_t total_threads = std::uint64_t{p.blocks} * p.threads;
  const std::uint64_t bytes = element_count(p) * p.element_size;
  trace.set_kernel("stream_copy", kListing);
  const std::uint32_t in = trace.add_array("in", bytes);
  const std::uint32_t out = trace.add_array("out", bytes);
  // The loop body is one read then one store; a store starts a new bulk sequence (paper §2).
  const std::uint32_t read = trace.add_access({.line = 6,
                                               .expression = "in[i]",
                                               .array = in,
                                               .element_size = p.element_size,
                                               .loop_depth = 1,
                                               .sequence = 0});
  const std::uint32_t write = trace.add_access({.line = 6,
                                                .expression = "out[i]",
                                                .kind = tracebuf::AccessKind::kWrite,
                                                .array = out,
                                                .element_size = p.element_size,
                                                .loop_depth = 1,
                                                .sequence = 1});
  trace.set_launch({p.blocks, 1, 1}, {p.threads, 1, 1}, p.blocks);
  trace.add_fact("elements", element_count(p));
  trace.begin();

  const std::uint64_t in_base = trace.base(in);
  const std::uint64_t out_base = trace.base(out);
  for_each_warp_1d(p, trace, [&](const Warp1d& warp) {
    for (std::uint32_t k = 0; k < p.iterations; ++k) {
      const std::uint64_t first_element = warp.first_thread + k * total_threads;
      add_coalesced_record(trace, read, warp.lanes, in_base, first_element, p.element_size);
      add_coalesced_record(trace, write, warp.lanes, out_base, first_element, p.element_size);
    }
  });
}

}  // namespace

const PatternDefinition& stream_pattern() {
  static const PatternDefinition definition = {
      .info = {.name = "stream",
               .description = "coalesced grid-stride copy out[i] = in[i]; every read a "
                              "compulsory miss, 1 transaction per request for elem-size <= 4",
               .options = "--iterations I (4): elements copied per thread"},
      .options = kUsesIterations,
      .defaults = {.blocks = 64, .iterations = 4},
      .resolve = &resolve,
      .generate = &generate,
  };
  return definition;
}

}  // namespace memcarlo::synth
