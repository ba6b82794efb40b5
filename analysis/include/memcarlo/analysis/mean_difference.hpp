// Is the difference between two Monte Carlo estimates real? Welch's unequal-variances t-test on
// two independent samples, each summarised by its mean, sample standard deviation and size (what
// a report's distributions hold), and the interval of the difference of the means.
//
// Method (B. L. Welch, "The generalization of 'Student's' problem when several different
// population variances are involved", Biometrika 34 (1947) 28-35; NIST/SEMATECH e-Handbook of
// Statistical Methods, §1.3.5.3 "Two-Sample t-Test for Equal Means", unequal variances):
//
//   d  = mean_b - mean_a,      v_a = s_a^2 / n_a,   v_b = s_b^2 / n_b,   se = sqrt(v_a + v_b)
//   t  = d / se
//   nu = (v_a + v_b)^2 / (v_a^2 / (n_a - 1) + v_b^2 / (n_b - 1))   (Welch-Satterthwaite)
//   p  = 2 (1 - F_nu(|t|)),  F_nu the Student-t CDF with real nu (Boost.Math students_t)
//   interval of d at level L:  d ± t_{1-(1-L)/2, nu} · se
//
// The difference is called significant when p < 1 - L (0.05 at the default level), which is the
// same as the interval of d excluding zero. Cases the formulas leave open:
//   - fewer than two values on either side: no standard deviation, no test (every optional empty);
//   - se = 0 (every trial of A gave one value and every trial of B another): p = 1 and the interval
//     [0, 0] when the means are equal, otherwise p = 0 and the interval [d, d]; t and nu stay
//     empty.
// The test assumes the two samples independent. Two memcarlo reports with the same seed replay
// trial t with the same random stream (common random numbers), so their trials are positively
// correlated; the unpaired test then overstates the variance of the difference and errs towards
// "not significant".
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace memcarlo::analysis {

/// A sample as a report summarises it.
struct SampleMoments {
  double mean = 0;
  double stddev = 0;  // sample standard deviation (n - 1 in the denominator)
  std::uint64_t count = 0;
};

struct MeanDifference {
  double difference = 0;  // mean_b - mean_a
  std::optional<double> standard_error;
  std::optional<double> t;
  std::optional<double> degrees_of_freedom;       // Welch-Satterthwaite, not an integer in general
  std::optional<double> p_value;                  // two-sided
  std::optional<std::array<double, 2>> interval;  // of the difference, at `level`
  bool significant = false;                       // p_value < 1 - level
};

/// Welch's two-sided t-test of mean_a = mean_b, and the interval of mean_b - mean_a at `level`.
MeanDifference welch_test(const SampleMoments& a, const SampleMoments& b, double level = 0.95);

}  // namespace memcarlo::analysis
