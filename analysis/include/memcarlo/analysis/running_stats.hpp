// Mean and variance in one pass, mergeable: Welford's update and the pairwise combination of
// Chan, Golub & LeVeque (1979), so partial results reduce deterministically in a fixed order.
//
//   add(x):     n' = n + 1,  d = x - mean,  mean' = mean + d / n',  M2' = M2 + d (x - mean')
//   a += b:     n = na + nb, d = mean_b - mean_a, mean = mean_a + d nb / n,
//               M2 = M2_a + M2_b + d^2 na nb / n
//   variance = M2 / (n - 1)   (unbiased; never a difference of large sums, so never negative)
#pragma once

#include <cmath>
#include <cstdint>

namespace memcarlo::analysis {

class RunningStats {
 public:
  void add(double x) {
    ++count_;
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(count_);
    m2_ += delta * (x - mean_);
  }

  RunningStats& operator+=(const RunningStats& other) {
    if (other.count_ == 0) {
      return *this;
    }
    if (count_ == 0) {
      *this = other;
      return *this;
    }
    const auto na = static_cast<double>(count_);
    const auto nb = static_cast<double>(other.count_);
    const double n = na + nb;
    const double delta = other.mean_ - mean_;
    mean_ += delta * nb / n;
    m2_ += other.m2_ + delta * delta * na * nb / n;
    count_ += other.count_;
    return *this;
  }

  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] double mean() const { return mean_; }
  /// Sample variance (n - 1 in the denominator); 0 with fewer than two values.
  [[nodiscard]] double variance() const {
    return count_ < 2 ? 0.0 : m2_ / static_cast<double>(count_ - 1);
  }
  [[nodiscard]] double stddev() const { return std::sqrt(variance()); }

 private:
  std::uint64_t count_ = 0;
  double mean_ = 0;
  double m2_ = 0;
};

}  // namespace memcarlo::analysis
