// Comparing two traces of the same program record by record, per (launch, block, warp): how the
// cuda backend's trace is checked against the host backend's (`memcarlo trace compare`,
// docs/cuda-backend.md). Addresses are compared relative to the lowest address each static access
// touches in its launch, since the backends allocate device memory at different addresses.
//
// Per lane, a warp's accesses come in the lane's program order whatever the hardware does; how
// lanes are grouped into records and how the groups interleave is not fixed on GPUs that schedule
// the threads of a warp independently (Volta on): lanes that left a loop early may run past it
// before the others finish, differently from run to run. `per_lane` compares each lane's own
// sequence of accesses when the records differ, and counts such warps as regrouped, not different.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::tracebuf {

struct TraceComparison {
  std::vector<std::string> differences;  // the first few, each naming where
  std::uint64_t records_compared = 0;
  std::uint64_t barrier_differences = 0;  // not a difference unless compare_barriers
  /// With per_lane: warps whose records differ while every lane's own accesses agree.
  std::uint64_t regrouped_warps = 0;
  [[nodiscard]] bool equal() const { return differences.empty(); }
};

/// `expected` and `actual` must come from the same program and the same MEMCARLO_* options.
/// The cuda backend cannot see __syncthreads, so barrier counts are only counted unless
/// `compare_barriers`.
struct CompareOptions {
  bool compare_barriers = false;
  /// A warp whose records differ agrees when each lane's accesses (static id, kind, size, address
  /// offset, and barriers if compared) agree in order.
  bool per_lane = false;
  std::size_t max_differences = 20;
};

TraceComparison compare_traces(const TraceReader& expected, const TraceReader& actual,
                               const CompareOptions& options);

inline TraceComparison compare_traces(const TraceReader& expected, const TraceReader& actual,
                                      bool compare_barriers = false,
                                      std::size_t max_differences = 20) {
  return compare_traces(expected, actual,
                        CompareOptions{.compare_barriers = compare_barriers,
                                       .max_differences = max_differences});
}

}  // namespace memcarlo::tracebuf
