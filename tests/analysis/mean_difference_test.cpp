// Welch's t-test against answers worked out by hand: degrees of freedom 1 and 2, where the
// Student-t distribution has closed forms (nu = 1: F(t) = 1/2 + atan(t)/pi; nu = 2:
// F(t) = 1/2 + t / (2 sqrt(t^2 + 2))), and unequal variances and sizes, where t and the
// Welch-Satterthwaite degrees of freedom are arithmetic and p comes from integrating the t
// density numerically (Simpson, 200000 steps).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "memcarlo/analysis/mean_difference.hpp"

namespace memcarlo::analysis {
namespace {

TEST(WelchTest, EqualVariancesOfTwoValuesEachHaveTwoDegreesOfFreedom) {
  // A = {1, 3}, B = {4, 6}: means 2 and 5, s = sqrt(2) each.
  const MeanDifference d = welch_test({2, std::sqrt(2.0), 2}, {5, std::sqrt(2.0), 2});
  EXPECT_DOUBLE_EQ(d.difference, 3);
  ASSERT_TRUE(d.t && d.degrees_of_freedom && d.p_value && d.interval);
  EXPECT_NEAR(*d.standard_error, std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(*d.t, 3 / std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(*d.degrees_of_freedom, 2, 1e-12);
  const double t = 3 / std::sqrt(2.0);
  EXPECT_NEAR(*d.p_value, 1 - t / std::sqrt(t * t + 2), 1e-9);  // 0.1679497
  // t_{0.975, 2} = 4.3026527 (tables).
  EXPECT_NEAR((*d.interval)[0], 3 - 4.3026527 * std::sqrt(2.0), 1e-6);
  EXPECT_NEAR((*d.interval)[1], 3 + 4.3026527 * std::sqrt(2.0), 1e-6);
  EXPECT_FALSE(d.significant);
}

TEST(WelchTest, OneSideWithoutSpreadLeavesTheOthersDegreesOfFreedom) {
  // A = {1, 3}, B = {5, 5}: se = 1, t = 3, nu = n_a - 1 = 1 (the Cauchy distribution).
  const MeanDifference d = welch_test({2, std::sqrt(2.0), 2}, {5, 0, 2});
  ASSERT_TRUE(d.t && d.degrees_of_freedom && d.p_value && d.interval);
  EXPECT_NEAR(*d.t, 3, 1e-12);
  EXPECT_NEAR(*d.degrees_of_freedom, 1, 1e-12);
  EXPECT_NEAR(*d.p_value, 1 - 2 / std::numbers::pi * std::atan(3.0), 1e-9);  // 0.2048328
  EXPECT_NEAR((*d.interval)[1] - 3, 12.7062047, 1e-6);                       // t_{0.975, 1}
}

TEST(WelchTest, UnequalVariancesAndSizesUseTheWelchSatterthwaiteDegreesOfFreedom) {
  // A: mean 10, s 2, n 10; B: mean 12, s 3, n 12. v_a = 0.4, v_b = 0.75, se = sqrt(1.15),
  // t = 2 / sqrt(1.15) = 1.8650096, nu = 1.15^2 / (0.4^2 / 9 + 0.75^2 / 11) = 19.190546.
  const MeanDifference d = welch_test({10, 2, 10}, {12, 3, 12});
  ASSERT_TRUE(d.t && d.degrees_of_freedom && d.p_value);
  EXPECT_NEAR(*d.t, 1.8650096, 1e-7);
  EXPECT_NEAR(*d.degrees_of_freedom, 19.190546, 1e-6);
  EXPECT_NEAR(*d.p_value, 0.0775464, 1e-6);
  EXPECT_FALSE(d.significant);
  // The same with the sides swapped: the change flips sign, p stays.
  const MeanDifference back = welch_test({12, 3, 12}, {10, 2, 10});
  EXPECT_DOUBLE_EQ(back.difference, -2);
  EXPECT_NEAR(*back.p_value, *d.p_value, 1e-12);
}

TEST(WelchTest, ADifferenceOfFourStandardErrorsIsSignificantAndItsIntervalExcludesZero) {
  // 32 trials each, s = 0.01: se = 0.0025, t = 4, nu = 62.
  const MeanDifference d = welch_test({0.50, 0.01, 32}, {0.51, 0.01, 32});
  ASSERT_TRUE(d.p_value && d.interval);
  EXPECT_NEAR(*d.t, 4, 1e-9);
  EXPECT_NEAR(*d.degrees_of_freedom, 62, 1e-9);
  EXPECT_LT(*d.p_value, 0.001);
  EXPECT_TRUE(d.significant);
  EXPECT_GT((*d.interval)[0], 0);
}

TEST(WelchTest, NoSpreadOnEitherSideIsDecidedByTheMeansAlone) {
  const MeanDifference same = welch_test({0.25, 0, 8}, {0.25, 0, 8});
  ASSERT_TRUE(same.p_value);
  EXPECT_EQ(*same.p_value, 1);
  EXPECT_FALSE(same.significant);
  EXPECT_FALSE(same.t);
  const MeanDifference other = welch_test({0.25, 0, 8}, {0.5, 0, 8});
  ASSERT_TRUE(other.p_value && other.interval);
  EXPECT_EQ(*other.p_value, 0);
  EXPECT_TRUE(other.significant);
  EXPECT_DOUBLE_EQ((*other.interval)[0], 0.25);
}

TEST(WelchTest, OneTrialOnASideGivesNoTest) {
  const MeanDifference d = welch_test({0.2, 0, 1}, {0.4, 0.1, 32});
  EXPECT_DOUBLE_EQ(d.difference, 0.2);
  EXPECT_FALSE(d.p_value);
  EXPECT_FALSE(d.interval);
  EXPECT_FALSE(d.significant);
}

}  // namespace
}  // namespace memcarlo::analysis
