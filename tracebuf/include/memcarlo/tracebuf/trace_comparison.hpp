// Comparing two traces of the same program record by record, per (launch, block, warp): how the
// cuda backend's trace is checked against the host backend's (`memcarlo trace compare`,
// docs/cuda-backend.md). Addresses are compared relative to the lowest address each static access
// touches in its launch, since the backends allocate device memory at different addresses.
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
  [[nodiscard]] bool equal() const { return differences.empty(); }
};

/// `expected` and `actual` must come from the same program and the same MEMCARLO_* options.
/// The cuda backend cannot see __syncthreads, so barrier counts are only counted unless
/// `compare_barriers`.
TraceComparison compare_traces(const TraceReader& expected, const TraceReader& actual,
                               bool compare_barriers = false, std::size_t max_differences = 20);

}  // namespace memcarlo::tracebuf
