// Record-by-record comparison of two traces (see trace_comparison.hpp).
#include "memcarlo/tracebuf/trace_comparison.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
#include <utility>

namespace memcarlo::tracebuf {
namespace {

/// Per static id, the lowest address its records touch in the launch.
std::map<std::uint32_t, std::uint64_t> lowest_addresses(const LaunchStreams& launch) {
  std::map<std::uint32_t, std::uint64_t> lowest;
  for (const WarpStream& stream : launch.warps) {
    stream.for_each([&](const RecordView& record) {
      std::uint64_t& low = lowest.try_emplace(record.static_id(), ~std::uint64_t{0}).first->second;
      record.for_each_address(
          [&](unsigned, std::uint64_t address) { low = std::min(low, address); });
    });
  }
  return lowest;
}

std::vector<RecordView> records_of(const WarpStream& stream) {
  std::vector<RecordView> records;
  stream.for_each([&](const RecordView& record) { records.push_back(record); });
  return records;
}

std::string describe(const RecordView& record, std::uint64_t lowest) {
  std::ostringstream text;
  text << "{id " << record.static_id() << ", mask 0x" << std::hex << record.active_mask()
       << std::dec << ", size " << record.element_size() << ", barriers " << record.barriers()
       << ", offsets";
  record.for_each_address([&](unsigned lane, std::uint64_t address) {
    if (lane < 4) {
      text << " " << lane << ":" << static_cast<std::int64_t>(address - lowest);
    }
  });
  text << (record.active_lanes() > 4 ? " ...}" : "}");
  return text.str();
}

/// One access of one lane, its address relative to its static access's lowest in the launch.
struct LaneAccess {
  std::uint32_t static_id = 0;
  AccessKind kind{};
  std::uint32_t element_size = 0;
  std::uint32_t barriers = 0;
  std::int64_t offset = 0;
  bool operator==(const LaneAccess&) const = default;
};

std::string describe(const LaneAccess& access) {
  return "{id " + std::to_string(access.static_id) + ", size " +
         std::to_string(access.element_size) + ", barriers " + std::to_string(access.barriers) +
         ", offset " + std::to_string(access.offset) + "}";
}

/// Each lane's accesses in the order the stream gives them (its program order).
std::array<std::vector<LaneAccess>, 32> lane_sequences(
    const std::vector<RecordView>& records, const std::map<std::uint32_t, std::uint64_t>& lowest,
    bool with_barriers) {
  std::array<std::vector<LaneAccess>, 32> lanes;
  for (const RecordView& record : records) {
    const auto low = lowest.find(record.static_id());
    const std::uint64_t base = low == lowest.end() ? 0 : low->second;
    record.for_each_address([&](unsigned lane, std::uint64_t address) {
      lanes[lane].push_back({record.static_id(), record.kind(), record.element_size(),
                             with_barriers ? record.barriers() : 0,
                             static_cast<std::int64_t>(address - base)});
    });
  }
  return lanes;
}

class Comparer {
 public:
  explicit Comparer(const CompareOptions& options)
      : compare_barriers_(options.compare_barriers),
        per_lane_(options.per_lane),
        max_differences_(options.max_differences) {}

  void difference(const std::string& text) {
    if (result_.differences.size() < max_differences_) {
      result_.differences.push_back(text);
    } else if (result_.differences.size() == max_differences_) {
      result_.differences.push_back("... (more differences not listed)");
    }
  }

  void launches(const LaunchStreams& expected, const LaunchStreams& actual) {
    const std::string where =
        "launch " + std::to_string(expected.info.index) + " ('" + expected.info.kernel + "')";
    const auto& e = expected.info;
    const auto& a = actual.info;
    if (e.grid != a.grid || e.block != a.block ||
        e.dynamic_shared_bytes != a.dynamic_shared_bytes ||
        e.snapshot_first_block != a.snapshot_first_block ||
        e.snapshot_block_count != a.snapshot_block_count) {
      difference(where + ": grid, block, shared memory or snapshot range differ");
    }
    const auto expected_lowest = lowest_addresses(expected);
    const auto actual_lowest = lowest_addresses(actual);
    std::map<std::pair<std::uint32_t, std::uint32_t>, const WarpStream*> actual_streams;
    for (const WarpStream& stream : actual.warps) {
      actual_streams[{stream.block, stream.warp}] = &stream;
    }
    for (const WarpStream& stream : expected.warps) {
      const std::string warp_where =
          where + " block " + std::to_string(stream.block) + " warp " + std::to_string(stream.warp);
      const auto found = actual_streams.find({stream.block, stream.warp});
      if (found == actual_streams.end()) {
        difference(warp_where + ": missing (" + std::to_string(stream.record_count) + " records)");
        continue;
      }
      streams(warp_where, stream, *found->second, expected_lowest, actual_lowest);
      actual_streams.erase(found);
    }
    for (const auto& [key, stream] : actual_streams) {
      difference(where + " block " + std::to_string(key.first) + " warp " +
                 std::to_string(key.second) + ": unexpected (" +
                 std::to_string(stream->record_count) + " records)");
    }
  }

  TraceComparison take() { return std::move(result_); }

 private:
  void streams(const std::string& where, const WarpStream& expected, const WarpStream& actual,
               const std::map<std::uint32_t, std::uint64_t>& expected_lowest,
               const std::map<std::uint32_t, std::uint64_t>& actual_lowest) {
    const std::vector<RecordView> e = records_of(expected);
    const std::vector<RecordView> a = records_of(actual);
    const std::size_t common = std::min(e.size(), a.size());
    for (std::size_t k = 0; k < common; ++k) {
      ++result_.records_compared;
      const std::uint64_t e_low = expected_lowest.at(e[k].static_id());
      const std::uint64_t a_low =
          actual_lowest.count(a[k].static_id()) != 0 ? actual_lowest.at(a[k].static_id()) : 0;
      if (e[k].barriers() != a[k].barriers()) {
        ++result_.barrier_differences;
      }
      bool same = e[k].static_id() == a[k].static_id() && e[k].kind() == a[k].kind() &&
                  e[k].element_size() == a[k].element_size() &&
                  e[k].active_mask() == a[k].active_mask() &&
                  (!compare_barriers_ || e[k].barriers() == a[k].barriers());
      for (unsigned lane = 0; same && lane < e[k].active_lanes(); ++lane) {
        same = e[k].active_address(lane) - e_low == a[k].active_address(lane) - a_low;
      }
      if (!same) {
        if (!per_lane_) {
          difference(where + " record " + std::to_string(k) + ": expected " +
                     describe(e[k], e_low) + ", got " + describe(a[k], a_low));
          return;  // the rest of this warp is likely shifted
        }
        lanes(where, e, a, expected_lowest, actual_lowest);
        return;
      }
    }
    if (e.size() != a.size()) {
      if (per_lane_) {
        lanes(where, e, a, expected_lowest, actual_lowest);
        return;
      }
      difference(where + ": " + std::to_string(e.size()) + " records expected, " +
                 std::to_string(a.size()) + " found");
    }
  }

  /// The records of a warp differ: compare each lane's own accesses.
  void lanes(const std::string& where, const std::vector<RecordView>& e,
             const std::vector<RecordView>& a,
             const std::map<std::uint32_t, std::uint64_t>& expected_lowest,
             const std::map<std::uint32_t, std::uint64_t>& actual_lowest) {
    const auto expected = lane_sequences(e, expected_lowest, compare_barriers_);
    const auto actual = lane_sequences(a, actual_lowest, compare_barriers_);
    for (unsigned lane = 0; lane < 32; ++lane) {
      const auto& x = expected[lane];
      const auto& y = actual[lane];
      const auto mismatch = std::mismatch(x.begin(), x.end(), y.begin(), y.end());
      if (mismatch.first == x.end() && mismatch.second == y.end()) {
        continue;
      }
      const auto n = static_cast<std::size_t>(mismatch.first - x.begin());
      difference(where + " lane " + std::to_string(lane) + " access " + std::to_string(n) +
                 ": expected " +
                 (mismatch.first == x.end() ? "no more (" + std::to_string(x.size()) + " in all)"
                                            : describe(*mismatch.first)) +
                 ", got " +
                 (mismatch.second == y.end() ? "no more (" + std::to_string(y.size()) + " in all)"
                                             : describe(*mismatch.second)));
      return;
    }
    ++result_.regrouped_warps;
  }

  bool compare_barriers_;
  bool per_lane_;
  std::size_t max_differences_;
  TraceComparison result_;
};

}  // namespace

TraceComparison compare_traces(const TraceReader& expected, const TraceReader& actual,
                               const CompareOptions& options) {
  Comparer comparer(options);
  if (expected.loads().size() != actual.loads().size()) {
    comparer.difference("loads tables differ in size: " + std::to_string(expected.loads().size()) +
                        " and " + std::to_string(actual.loads().size()));
  } else {
    for (std::size_t id = 0; id < expected.loads().size(); ++id) {
      if (expected.loads()[id].expression != actual.loads()[id].expression ||
          expected.loads()[id].kind != actual.loads()[id].kind) {
        comparer.difference("load " + std::to_string(id) + ": '" + expected.loads()[id].expression +
                            "' and '" + actual.loads()[id].expression + "'");
      }
    }
  }
  // Launches pair up by kernel and by their order among that kernel's traced launches.
  std::map<std::string, std::vector<const LaunchStreams*>> actual_by_kernel;
  for (const LaunchStreams& launch : actual.launches()) {
    actual_by_kernel[launch.info.kernel].push_back(&launch);
  }
  std::map<std::string, std::size_t> used;
  for (const LaunchStreams& launch : expected.launches()) {
    const std::size_t nth = used[launch.info.kernel]++;
    const auto& candidates = actual_by_kernel[launch.info.kernel];
    if (nth >= candidates.size()) {
      comparer.difference("launch of '" + launch.info.kernel + "' #" + std::to_string(nth) +
                          " is missing");
      continue;
    }
    comparer.launches(launch, *candidates[nth]);
  }
  for (const auto& [kernel, launches] : actual_by_kernel) {
    if (launches.size() > used[kernel]) {
      comparer.difference("unexpected launches of '" + kernel + "'");
    }
  }
  return comparer.take();
}

}  // namespace memcarlo::tracebuf
