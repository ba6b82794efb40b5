// Confidence interval of a mean from independent trials.
//
// Method: Student's t interval, mean ± t_{1-α/2, n-1} · s / √n, where s is the sample standard
// deviation (RunningStats::stddev). Exact for normally distributed trial results and, by the
// central limit theorem, approximately right for means of bounded quantities such as hit ratios
// (Student 1908; e.g. NIST/SEMATECH e-Handbook of Statistical Methods, §7.2.2.1). The quantile
// comes from Boost.Math's students_t distribution. Not defined for n < 2.
//
// The paper's "2σ" band (§5.2, [E − 2σ, E + 2σ]) describes the spread of single-trial predictions,
// not the uncertainty of their mean; reports give both.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "memcarlo/analysis/running_stats.hpp"

namespace memcarlo::analysis {

/// The two-sided quantile t_{1-(1-level)/2, dof}; e.g. level 0.95, dof 9 gives 2.2622.
double student_t_quantile(double level, std::uint64_t degrees_of_freedom);

/// Student-t interval of the mean at `level` (e.g. 0.95); nullopt with fewer than two values.
std::optional<std::array<double, 2>> mean_confidence_interval(const RunningStats& stats,
                                                              double level = 0.95);

}  // namespace memcarlo::analysis
