// Welch's t-test and the interval of a difference of means (see mean_difference.hpp for the
// formulas and their sources).
#include "memcarlo/analysis/mean_difference.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace memcarlo::analysis {

MeanDifference welch_test(const SampleMoments& a, const SampleMoments& b, double level) {
  MeanDifference out;
  out.difference = b.mean - a.mean;
  if (a.count < 2 || b.count < 2) {
    return out;
  }
  const double va = a.stddev * a.stddev / static_cast<double>(a.count);
  const double vb = b.stddev * b.stddev / static_cast<double>(b.count);
  const double se = std::sqrt(va + vb);
  out.standard_error = se;
  if (se == 0) {
    const bool equal = out.difference == 0;
    out.p_value = equal ? 1.0 : 0.0;
    out.interval = std::array<double, 2>{out.difference, out.difference};
    out.significant = !equal;
    return out;
  }
  const double t = out.difference / se;
  const double nu =
      (va + vb) * (va + vb) /
      (va * va / static_cast<double>(a.count - 1) + vb * vb / static_cast<double>(b.count - 1));
  out.t = t;
  out.degrees_of_freedom = nu;
  const boost::math::students_t distribution(nu);
  out.p_value = 2 * boost::math::cdf(boost::math::complement(distribution, std::abs(t)));
  const double half = boost::math::quantile(distribution, 1.0 - (1.0 - level) / 2.0) * se;
  out.interval = std::array<double, 2>{out.difference - half, out.difference + half};
  out.significant = *out.p_value < 1.0 - level;
  return out;
}

}  // namespace memcarlo::analysis
