// Student-t quantiles and intervals (see confidence.hpp for the method and its sources).
#include "memcarlo/analysis/confidence.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace memcarlo::analysis {

double student_t_quantile(double level, std::uint64_t degrees_of_freedom) {
  const boost::math::students_t distribution(static_cast<double>(degrees_of_freedom));
  return boost::math::quantile(distribution, 1.0 - (1.0 - level) / 2.0);
}

std::optional<std::array<double, 2>> mean_confidence_interval(const RunningStats& stats,
                                                              double level) {
  if (stats.count() < 2) {
    return std::nullopt;
  }
  const double half = student_t_quantile(level, stats.count() - 1) * stats.stddev() /
                      std::sqrt(static_cast<double>(stats.count()));
  return std::array<double, 2>{stats.mean() - half, stats.mean() + half};
}

}  // namespace memcarlo::analysis
