// Accel-Sim's standard output as measurements: per `kernel_name = ...` statistics block, the
// sector hit rates of its L1 data caches and L2 from the cumulative cache-statistics breakdowns.
#include <array>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include "memcarlo/reports/ncu_compare.hpp"
#include "ncu_text.hpp"

namespace memcarlo::reports {
namespace {

using ncu_text::trim;

constexpr std::string_view kL1Name = "Total_core_cache_stats_breakdown";
constexpr std::string_view kL2Name = "L2_cache_stats_breakdown";
constexpr std::string_view kKernelLine = "kernel_name = ";

// The counts a hit rate needs, by access type, as cache_stats::print_stats names them.
enum Status : std::size_t { kHit, kHitReserved, kMiss, kSectorMiss, kStatusCount };
constexpr std::array<std::string_view, kStatusCount> kStatusNames{"HIT", "HIT_RESERVED", "MISS",
                                                                  "SECTOR_MISS"};
enum Type : std::size_t { kGlobalRead, kGlobalWrite, kTypeCount };
constexpr std::array<std::string_view, kTypeCount> kTypeNames{"GLOBAL_ACC_R", "GLOBAL_ACC_W"};

using Counts = std::array<std::array<std::uint64_t, kStatusCount>, kTypeCount>;

/// One cache's counts as printed in one statistics block.
struct CacheCounts {
  bool seen = false;
  Counts counts{};
};

/// The counts of this block alone: the difference from the previous block's cumulative counts,
/// or this block's own when any went down (statistics reset between kernels).
Counts launch_counts(const CacheCounts& now, const CacheCounts& before) {
  if (!before.seen) {
    return now.counts;
  }
  for (std::size_t t = 0; t < kTypeCount; ++t) {
    for (std::size_t s = 0; s < kStatusCount; ++s) {
      if (now.counts[t][s] < before.counts[t][s]) {
        return now.counts;
      }
    }
  }
  Counts difference{};
  for (std::size_t t = 0; t < kTypeCount; ++t) {
    for (std::size_t s = 0; s < kStatusCount; ++s) {
      difference[t][s] = now.counts[t][s] - before.counts[t][s];
    }
  }
  return difference;
}

struct Ratios {
  std::optional<double> in_flight_inclusive;
  std::optional<double> hit_only;
};

/// Percentages over the access types whose bit is set in `types`.
Ratios ratios(const Counts& counts, unsigned types) {
  std::uint64_t hits = 0;
  std::uint64_t reserved = 0;
  std::uint64_t lookups = 0;
  for (std::size_t t = 0; t < kTypeCount; ++t) {
    if (((types >> t) & 1u) == 0) {
      continue;
    }
    hits += counts[t][kHit];
    reserved += counts[t][kHitReserved];
    lookups +=
        counts[t][kHit] + counts[t][kHitReserved] + counts[t][kMiss] + counts[t][kSectorMiss];
  }
  if (lookups == 0) {
    return {};
  }
  const auto total = static_cast<double>(lookups);
  return {100.0 * static_cast<double>(hits + reserved) / total,
          100.0 * static_cast<double>(hits) / total};
}

class AccelsimParser {
 public:
  AccelsimParser(std::istream& in, const std::string& path) : in_(in), path_(path) {}

  NcuMeasurements parse() {
    result_.path = path_;
    result_.layout = NcuCsvLayout::kAccelsim;
    std::string line;
    while (std::getline(in_, line)) {
      ++line_number_;
      const std::string_view text = trim(line);
      if (text.starts_with(kKernelLine)) {
        finish_block();
        kernel_ = std::string(trim(text.substr(kKernelLine.size())));
        in_block_ = true;
        if (kernel_.empty()) {
          fail("expected a kernel name after \"kernel_name =\"");
        }
      } else if (text.starts_with(kL1Name) && text.size() > kL1Name.size() &&
                 text[kL1Name.size()] == '[') {
        stat_line(text, kL1Name, l1_now_);
      } else if (text.starts_with(kL2Name) && text.size() > kL2Name.size() &&
                 text[kL2Name.size()] == '[') {
        stat_line(text, kL2Name, l2_now_);
      }
    }
    finish_block();
    if (blocks_ == 0) {
      throw CompareInputError(path_ +
                              ": no \"kernel_name = \" line: not the output of Accel-Sim, which "
                              "prints one per finished kernel");
    }
    if (!any_statistics_) {
      throw CompareInputError(path_ + ": no " + std::string(kL1Name) + " or " +
                              std::string(kL2Name) +
                              " lines: Accel-Sim did not print its cache statistics (did the "
                              "simulation finish?)");
    }
    return std::move(result_);
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw CompareInputError(path_ + ":" + std::to_string(line_number_) + ": " + message);
  }

  /// "NAME[TYPE][STATUS] = N": keeps N when TYPE and STATUS are among those a hit rate needs.
  void stat_line(std::string_view text, std::string_view name, CacheCounts& cache) {
    if (!in_block_) {
      return;  // statistics before any kernel finished
    }
    std::string_view rest = text.substr(name.size());
    const auto field = [&]() -> std::string_view {
      if (rest.empty() || rest.front() != '[') {
        fail("expected " + std::string(name) + "[TYPE][STATUS] = N");
      }
      const std::size_t close = rest.find(']');
      if (close == std::string_view::npos) {
        fail("expected ']' in " + std::string(name) + "[TYPE][STATUS] = N");
      }
      const std::string_view value = rest.substr(1, close - 1);
      rest = rest.substr(close + 1);
      return value;
    };
    const std::string_view type = field();
    const std::string_view status = field();
    rest = trim(rest);
    if (!rest.starts_with('=')) {
      fail("expected '= N' after " + std::string(name) + "[" + std::string(type) + "][" +
           std::string(status) + "]");
    }
    rest = trim(rest.substr(1));
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
    if (error != std::errc() || end != rest.data() + rest.size()) {
      fail("expected a count after '=', found \"" + std::string(rest) + "\"");
    }
    any_statistics_ = true;
    for (std::size_t t = 0; t < kTypeCount; ++t) {
      for (std::size_t s = 0; s < kStatusCount; ++s) {
        if (type == kTypeNames[t] && status == kStatusNames[s]) {
          cache.counts[t][s] = value;
          cache.seen = true;
        }
      }
    }
  }

  void finish_block() {
    if (!in_block_) {
      return;
    }
    ++blocks_;
    NcuKernel* kernel = nullptr;
    for (NcuKernel& k : result_.kernels) {
      if (k.name == kernel_) {
        kernel = &k;
      }
    }
    if (kernel == nullptr) {
      result_.kernels.push_back(NcuKernel{kernel_, 0, {}, {}});
      kernel = &result_.kernels.back();
    }
    ++kernel->launches;
    const unsigned kRead = 1u << kGlobalRead;
    const unsigned kWrite = 1u << kGlobalWrite;
    // Metric order as in kComparedMetrics: L1 (loads, stores), L2 reads, L2 writes.
    const std::array<Ratios, kComparedMetrics.size()> values{
        l1_now_.seen ? ratios(launch_counts(l1_now_, l1_before_), kRead | kWrite) : Ratios{},
        l2_now_.seen ? ratios(launch_counts(l2_now_, l2_before_), kRead) : Ratios{},
        l2_now_.seen ? ratios(launch_counts(l2_now_, l2_before_), kWrite) : Ratios{}};
    for (std::size_t m = 0; m < values.size(); ++m) {
      if (values[m].in_flight_inclusive) {
        kernel->percent[m].push_back(*values[m].in_flight_inclusive);
        kernel->hit_only_percent[m].push_back(*values[m].hit_only);
      }
    }
    if (l1_now_.seen) {
      l1_before_ = l1_now_;
    }
    if (l2_now_.seen) {
      l2_before_ = l2_now_;
    }
    l1_now_ = {};
    l2_now_ = {};
    in_block_ = false;
  }

  std::istream& in_;
  const std::string& path_;
  NcuMeasurements result_;
  std::uint64_t line_number_ = 0;
  std::uint64_t blocks_ = 0;
  bool in_block_ = false;
  bool any_statistics_ = false;
  std::string kernel_;
  CacheCounts l1_now_, l1_before_, l2_now_, l2_before_;
};

}  // namespace

NcuMeasurements parse_accelsim_stats(std::istream& in, const std::string& path) {
  return AccelsimParser(in, path).parse();
}

NcuMeasurements read_measurements(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw CompareInputError(path + ": cannot open");
  }
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::istringstream stream(text);
  const bool accelsim = text.find(std::string(kKernelLine)) != std::string::npos &&
                        (text.find(std::string(kL1Name) + "[") != std::string::npos ||
                         text.find(std::string(kL2Name) + "[") != std::string::npos);
  return accelsim ? parse_accelsim_stats(stream, path) : parse_ncu_csv(stream, path);
}

}  // namespace memcarlo::reports
