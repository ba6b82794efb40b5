// Semantic invariants of a trace that framing alone cannot catch: ids, kinds, snapshot bounds,
// lane masks of partial warps, allocation overlap, and addresses outside every allocation.
#include <algorithm>
#include <string>

#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::tracebuf {
CheckReport check_invariants(const TraceReader& reader) {
  const std::string& path = reader.path();
  const auto& loads = reader.loads();
  CheckReport report;
  auto fail = [&](std::uint64_t offset, const std::string& what) {
    throw TraceError(TraceError::Kind::kInvariant, path, offset, what);
  };

  for (std::size_t i = 0; i < loads.size(); ++i) {
    if (loads[i].id != i) {
      fail(0, "loads[" + std::to_string(i) + "].id is " + std::to_string(loads[i].id) +
                  "; ids must be 0, 1, 2, ... in table order");
    }
    for (std::uint32_t d : loads[i].depends_on) {
      if (d >= loads.size()) {
        fail(0, "loads[" + std::to_string(i) + "].depends_on names load " + std::to_string(d) +
                    ", which is not in the table of " + std::to_string(loads.size()));
      }
    }
    if (loads[i].redundant_of && *loads[i].redundant_of >= loads.size()) {
      fail(0, "loads[" + std::to_string(i) + "].redundant_of names a load not in the table");
    }
  }

  std::vector<Allocation> allocations = reader.allocations();
  std::sort(allocations.begin(), allocations.end(),
            [](const Allocation& a, const Allocation& b) { return a.base < b.base; });
  for (std::size_t i = 1; i < allocations.size(); ++i) {
    if (allocations[i - 1].base + allocations[i - 1].size > allocations[i].base) {
      fail(0, "allocations " + std::to_string(allocations[i - 1].id) + " and " +
                  std::to_string(allocations[i].id) + " overlap");
    }
  }
  auto inside_allocation = [&](std::uint64_t address) {
    auto it = std::upper_bound(
        allocations.begin(), allocations.end(), address,
        [](std::uint64_t a, const Allocation& alloc) { return a < alloc.base; });
    if (it == allocations.begin()) {
      return false;
    }
    --it;
    return address - it->base < it->size;
  };

  for (const LaunchStreams& launch : reader.launches()) {
    const LaunchInfo& info = launch.info;
    const std::uint64_t first = info.snapshot_first_block;
    const std::uint64_t last = first + info.snapshot_block_count;
    const std::uint32_t warps = info.warps_per_block();
    const auto threads = static_cast<std::uint32_t>(info.block.volume());
    const std::uint32_t last_warp_lanes = threads - (warps - 1) * 32;
    const std::uint32_t last_warp_mask =
        last_warp_lanes >= 32 ? 0xFFFFFFFFu : ((1u << last_warp_lanes) - 1);
    for (const WarpStream& stream : launch.warps) {
      const std::uint64_t where = stream.segments.empty() ? 0 : stream.segments.front().file_offset;
      if (stream.block < first || stream.block >= last) {
        fail(where, "warp stream of block " + std::to_string(stream.block) +
                        " outside the snapshot [" + std::to_string(first) + ", " +
                        std::to_string(last) + ") of launch " + std::to_string(info.index));
      }
      if (stream.warp >= warps) {
        fail(where, "warp " + std::to_string(stream.warp) + " of block " +
                        std::to_string(stream.block) + ", but blocks have " +
                        std::to_string(warps) + " warps");
      }
      ++report.warps;
      for (const auto& segment : stream.segments) {
        const std::byte* at = segment.begin;
        for (std::uint32_t r = 0; r < segment.record_count; ++r) {
          RecordView view(at);
          const std::uint64_t offset =
              segment.file_offset + static_cast<std::uint64_t>(at - segment.begin);
          if (view.static_id() >= loads.size()) {
            fail(offset, "record static id " + std::to_string(view.static_id()) +
                             " is not in the loads table (" + std::to_string(loads.size()) +
                             " entries)");
          }
          const LoadInfo& load = loads[view.static_id()];
          if (view.kind() != load.kind) {
            fail(offset, "record kind " + std::string(to_string(view.kind())) + " but loads[" +
                             std::to_string(load.id) + "].kind is " +
                             std::string(to_string(load.kind)));
          }
          if (stream.warp == warps - 1 && (view.active_mask() & ~last_warp_mask) != 0) {
            fail(offset, "active mask has lanes beyond the block's " + std::to_string(threads) +
                             " threads");
          }
          if (!allocations.empty()) {
            view.for_each_address([&](unsigned, std::uint64_t address) {
              if (!inside_allocation(address)) {
                ++report.addresses_outside_allocations;
              }
            });
          }
          ++report.records;
          at += view.size_bytes();
        }
      }
    }
  }
  if (report.addresses_outside_allocations > 0) {
    report.warnings.push_back(std::to_string(report.addresses_outside_allocations) +
                              " lane addresses lie outside every listed allocation");
  }
  return report;
}

}  // namespace memcarlo::tracebuf
