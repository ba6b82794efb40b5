// Record-by-record comparison of two traces (see trace_comparison.hpp).
#include "memcarlo/tracebuf/trace_comparison.hpp"

#include <algorithm>
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

class Comparer {
 public:
  Comparer(bool compare_barriers, std::size_t max_differences)
      : compare_barriers_(compare_barriers), max_differences_(max_differences) {}

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
        difference(where + " record " + std::to_string(k) + ": expected " + describe(e[k], e_low) +
                   ", got " + describe(a[k], a_low));
        return;  // the rest of this warp is likely shifted
      }
    }
    if (e.size() != a.size()) {
      difference(where + ": " + std::to_string(e.size()) + " records expected, " +
                 std::to_string(a.size()) + " found");
    }
  }

  bool compare_barriers_;
  std::size_t max_differences_;
  TraceComparison result_;
};

}  // namespace

TraceComparison compare_traces(const TraceReader& expected, const TraceReader& actual,
                               bool compare_barriers, std::size_t max_differences) {
  Comparer comparer(compare_barriers, max_differences);
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
