// Measured vs predicted: reads Nsight Compute's CSV and a memcarlo report, matches kernels by name
// and compares sector hit rates against the report's 2σ prediction band. Plain structs; printers
// apart.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/analysis/distribution.hpp"

namespace memcarlo::reports {

/// Version of the `memcarlo compare --json` document.
inline constexpr int kCompareSchemaVersion = 1;

/// A report or CSV that cannot be read. what() names the file and the place (line, JSON key)
/// and what was expected.
class CompareInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One compared quantity: the Nsight Compute metric (a percentage) and the report key (a ratio).
struct ComparedMetric {
  std::string_view ncu_metric;
  std::string_view report_key;
  std::string_view label;
};

/// The three pairs `memcarlo compare` checks, in output order. Nsight's L1 sector hit rate counts
/// the sector lookups of loads, stores and atomics alike, and so does l1_sector_lookup_hit_ratio
/// (docs/ncu-compare.md).
inline constexpr std::array<ComparedMetric, 3> kComparedMetrics{{
    {"l1tex__t_sector_hit_rate.pct", "l1_sector_lookup_hit_ratio", "L1 sector hit rate"},
    {"lts__t_sector_op_read_hit_rate.pct", "l2_sector_read_hit_ratio", "L2 sector read hit rate"},
    {"lts__t_sector_op_write_hit_rate.pct", "l2_sector_write_hit_ratio",
     "L2 sector write hit rate"},
}};

// ---- Nsight Compute measurements --------------------------------------------------------------

enum class NcuCsvLayout {
  kDetails,   // `--page details` (the default): one row per (launch, metric)
  kRaw,       // `--page raw`: one row per launch, one column per metric, a units row first
  kAccelsim,  // not Nsight Compute: the standard output of Accel-Sim (parse_accelsim_stats)
};

/// The launches of one kernel name, exactly as Nsight Compute printed it.
struct NcuKernel {
  std::string name;
  std::uint32_t launches = 0;
  /// Per compared metric (index into kComparedMetrics): one percentage per launch that had a
  /// number (`n/a` values are left out).
  std::array<std::vector<double>, kComparedMetrics.size()> percent;
  /// Accel-Sim only: the same hit rates as Accel-Sim's own miss counts have them, a hit on a
  /// sector still being filled (HIT_RESERVED) counted as no hit. Empty for Nsight Compute.
  std::array<std::vector<double>, kComparedMetrics.size()> hit_only_percent;
};

struct NcuMeasurements {
  std::string path;
  NcuCsvLayout layout = NcuCsvLayout::kDetails;
  std::vector<NcuKernel> kernels;   // in order of first appearance
  std::uint32_t skipped_lines = 0;  // ==PROF== lines and application output around the table
};

/// A number as Nsight Compute prints it: "45.67", "1,234.5" (thousands separators), "-3e2";
/// nullopt for "n/a" or an empty field. Throws std::invalid_argument for anything else.
std::optional<double> parse_ncu_number(std::string_view text);

/// Parses Nsight Compute `--csv` output (details or raw page; quoted fields, thousands separators,
/// `n/a`, `==PROF==` lines). `path` only labels messages. Throws CompareInputError naming the line.
NcuMeasurements parse_ncu_csv(std::istream& in, const std::string& path);
NcuMeasurements read_ncu_csv(const std::string& path);

/// Parses the standard output of Accel-Sim (accel-sim.out) as measurements of the compared
/// metrics, one launch per `kernel_name = NAME` statistics block. Its cache statistics
/// (`Total_core_cache_stats_breakdown[TYPE][STATUS] = N` for the L1 data caches,
/// `L2_cache_stats_breakdown[TYPE][STATUS] = N`) add up over the run, so a launch's counts are the
/// difference from the previous block (or the block's own counts when they went down: a simulator
/// that resets them per kernel). With HIT, HIT_RESERVED (a hit on a sector still being filled),
/// MISS (a line's first missing sector) and SECTOR_MISS (its other missing sectors):
///   percent          = 100 (HIT + HIT_RESERVED) / (HIT + HIT_RESERVED + MISS + SECTOR_MISS)
///   hit_only_percent = 100 HIT / (HIT + HIT_RESERVED + MISS + SECTOR_MISS)
/// over GLOBAL_ACC_R and GLOBAL_ACC_W for the L1 sector hit rate, GLOBAL_ACC_R for the L2 read hit
/// rate (Accel-Sim counts global atomics there too) and GLOBAL_ACC_W for the L2 write hit rate;
/// no value where the denominator is 0. Throws CompareInputError naming the line of a malformed
/// statistics line, or when there is no kernel or no statistics. `path` only labels messages.
NcuMeasurements parse_accelsim_stats(std::istream& in, const std::string& path);
/// The measurements in `path`: Accel-Sim's output when the file has Accel-Sim's statistics lines
/// (parse_accelsim_stats), else Nsight Compute's CSV (parse_ncu_csv).
NcuMeasurements read_measurements(const std::string& path);

// ---- memcarlo predictions ---------------------------------------------------------------------

struct PredictedKernel {
  std::string name;                     // as the trace records it
  std::vector<std::uint32_t> launches;  // report launch indices
  /// Per compared metric: the report's distribution, or nullopt where the report has null.
  std::array<std::optional<analysis::Distribution>, kComparedMetrics.size()> metrics;
};

struct ReportPredictions {
  std::string path;
  std::string hierarchy;
  std::uint64_t trials = 0;
  /// True when read from the report's per-kernel `kernels` section; false when the top-level
  /// `overall` of a single-kernel report stands for its kernel.
  bool per_kernel = false;
  std::vector<PredictedKernel> kernels;
};

/// Reads a memcarlo report (schema version 1). Without a `kernels` section, a report whose
/// launches all run one kernel yields that kernel with the top-level `overall`; a multi-kernel
/// report without it is refused. Throws CompareInputError naming the JSON key.
ReportPredictions parse_report_predictions(std::string_view json_text, const std::string& path);
ReportPredictions read_report_predictions(const std::string& path);

// ---- Kernel names -----------------------------------------------------------------------------

/// The function's name with template arguments and qualifiers, without return type and parameter
/// list: "void ns::spmv<float>(int, float const*)" -> "ns::spmv<float>". Itanium-mangled names
/// (`_Z...`, as Accel-Sim traces record them) are demangled first; whitespace is normalized.
std::string kernel_signature_name(std::string_view name);
/// The unqualified name without template arguments: "void ns::spmv<float>(int)" -> "spmv".
std::string kernel_base_name(std::string_view name);

/// How an Nsight Compute kernel name found its report kernel; tried in this order, and the first
/// rule that finds any candidate decides (two or more candidates: ambiguous, left unmatched).
enum class MatchRule {
  kExact,      // identical strings
  kSignature,  // equal kernel_signature_name
  kBaseName,   // equal kernel_base_name
};

// ---- The comparison ---------------------------------------------------------------------------

enum class Verdict {
  kInside,  // measured within the 2σ band spread_2sigma, [E - 2σ, E + 2σ] (paper §5.2)
  kOutside,
  kNoMeasurement,  // Nsight Compute had no number (absent or n/a in every launch)
  kNoPrediction,   // the report's distribution is null (the level saw no such access)
};

struct MetricComparison {
  std::size_t metric = 0;          // index into kComparedMetrics
  std::optional<double> measured;  // ratio: the mean over launches of the percentage / 100
  /// Accel-Sim only: the mean of hit_only_percent / 100 (in-flight hits not counted as hits).
  std::optional<double> measured_hit_only;
  std::uint32_t measured_launches = 0;  // launches that had a number
  std::optional<analysis::Distribution> predicted;
  std::optional<double> absolute_error;  // |measured - predicted mean|, a ratio
  Verdict verdict = Verdict::kNoMeasurement;
};

struct KernelComparison {
  std::string report_kernel;
  std::vector<std::uint32_t> report_launches;
  std::vector<std::string> ncu_kernels;  // every Nsight name matched to this kernel
  MatchRule match = MatchRule::kExact;   // the loosest rule among them
  std::uint32_t ncu_launches = 0;
  std::vector<MetricComparison> metrics;  // one per kComparedMetrics entry, in its order
};

struct UnmatchedNcuKernel {
  std::string name;
  std::uint32_t launches = 0;
  std::vector<std::string> ambiguous_between;  // report kernels it matched equally well, if any
};

struct NcuComparison {
  std::string report_path;
  std::string ncu_path;
  NcuCsvLayout layout = NcuCsvLayout::kDetails;
  std::string hierarchy;
  std::uint64_t trials = 0;
  bool per_kernel_report = false;
  std::vector<KernelComparison> kernels;  // in report order
  std::vector<UnmatchedNcuKernel> unmatched_ncu;
  std::vector<std::string> unmatched_report;
};

/// Matches every Nsight kernel to at most one report kernel (MatchRule), averages the launches
/// matched to each report kernel and judges each metric against the 2σ band.
NcuComparison compare_with_ncu(const ReportPredictions& report, const NcuMeasurements& ncu);

std::string_view to_string(NcuCsvLayout layout);
std::string_view to_string(MatchRule rule);
std::string_view to_string(Verdict verdict);

/// Human-readable table (percentages).
void print_comparison(std::ostream& out, const NcuComparison& comparison);
/// The same as a versioned JSON document (ratios), pretty-printed with `indent` (-1: one line).
std::string comparison_json(const NcuComparison& comparison, int indent = 2);

}  // namespace memcarlo::reports
