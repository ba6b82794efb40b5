// Pattern "rows": thread g sums its own row of a, a[g * N + k] for k = 0 .. N-1, then writes
// out[g] (the matrix-vector products of PolyBench's atax and bicg). Neighbouring lanes are a row
// apart, so each lane has lines of its own, and each thread re-reads its line on the next
// 128 / elem-size - 1 iterations: reuse by the same thread only (the Locality Descriptors paper's
// INTRA-THREAD type), which an L1 keeps only if the warps' lines stay resident between them.
#include "index_forms.hpp"
#include "pattern.hpp"
#include "trace_builder.hpp"
#include "warp_walk.hpp"

namespace memcarlo::synth {
namespace {

const std::vector<std::string> kListing = {
    "template <class T>",
    "__global__ void row_sums(const T* a, T* out, unsigned N) {",
    "  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;",
    "  T sum = 0;",
    "  for (unsigned k = 0; k < N; ++k)",
    "    sum += a[g * N + k];",
    "  out[g] = sum;",
    "}",
};

std::uint64_t total_threads(const Parameters& p) {
  return std::uint64_t{p.blocks} * p.threads;
}

void resolve(Parameters& p) {
  check_array_size(
      checked_multiply(checked_multiply(total_threads(p), p.size, "the size of a"),
                       p.element_size, "the size of a"),
      "a", "--blocks, --threads or --size");
}

void generate(const Parameters& p, TraceBuilder& trace) {
  const std::uint64_t n = p.size;
  trace.set_kernel("row_sums", kListing);
  const std::uint32_t a = trace.add_array("a", total_threads(p) * n * p.element_size);
  const std::uint32_t out = trace.add_array("out", total_threads(p) * p.element_size);
  // g * N + k with g = blockIdx.x * blockDim.x + threadIdx.x, over the loop k = 0, 1, ... < N.
  const IndexInduction k_loop{
      .variable = "k", .bound = {{1, {"N"}}}, .init_text = "0", .bound_text = "N"};
  const std::vector<IndexTerm> a_terms = {
      {1, {"N", "blockDim.x", "blockIdx.x"}}, {1, {"N", "threadIdx.x"}}, {1, {"k"}}};
  const std::vector<IndexTerm> out_terms = {{1, {"blockDim.x", "blockIdx.x"}},
                                            {1, {"threadIdx.x"}}};
  trace.add_kernel_argument("N", static_cast<std::int64_t>(n));
  const std::uint32_t read =
      trace.add_access({.line = 6,
                        .expression = "a[g * N + k]",
                        .index_json = index_form("affine", "a", "g*N + k", a_terms, 0, {k_loop}),
                        .array = a,
                        .element_size = p.element_size,
                        .loop_depth = 1,
                        .sequence = 0});
  const std::uint32_t write =
      trace.add_access({.line = 7,
                        .expression = "out[g]",
                        .index_json = index_form("affine", "out", "g", out_terms, 0),
                        .kind = tracebuf::AccessKind::kWrite,
                        .array = out,
                        .element_size = p.element_size,
                        .loop_depth = 0,
                        .sequence = 1});
  trace.set_launch({p.blocks, 1, 1}, {p.threads, 1, 1}, p.blocks);
  trace.begin();

  const std::uint64_t a_base = trace.base(a);
  const std::uint64_t out_base = trace.base(out);
  for_each_warp_1d(p, trace, [&](const Warp1d& warp) {
    for (std::uint64_t k = 0; k < n; ++k) {
      add_lane_record(trace, read, warp.lanes, [&](std::uint32_t lane) {
        return a_base + ((warp.first_thread + lane) * n + k) * p.element_size;
      });
    }
    add_coalesced_record(trace, write, warp.lanes, out_base, warp.first_thread, p.element_size);
  });
}

}  // namespace

const PatternDefinition& rows_pattern() {
  static const PatternDefinition definition = {
      .info = {.name = "rows",
               .description = "thread g sums its own row a[g*N + k], k < N (atax, bicg): lanes a "
                              "row apart, each thread re-reads its own lines (reuse by the same "
                              "thread only)",
               .options = "--size N (64): elements per row"},
      .options = kUsesSize,
      .defaults = {.blocks = 64, .size = 64},
      .resolve = &resolve,
      .generate = &generate,
  };
  return definition;
}

}  // namespace memcarlo::synth
