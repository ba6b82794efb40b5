// The paired Student-t interval of a sweep's differences, against values computed by hand.
#include "memcarlo/analysis/paired_difference.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

namespace {

using memcarlo::analysis::paired_difference;
using Values = std::vector<std::optional<double>>;

TEST(PairedDifference, MeanAndStudentIntervalOfThePerTrialDifferences) {
  // d = 0.5, 0.4, 0.7, 0.3: mean 0.475, s = sqrt(0.0875 / 3) = 0.170783,
  // half-width t_{0.975, 3} s / 2 = 3.182446 x 0.0853913 = 0.271753.
  const Values a = {1.0, 2.0, 3.0, 4.0};
  const Values b = {1.5, 2.4, 3.7, 4.3};
  const auto d = paired_difference(a, b);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->pairs, 4u);
  EXPECT_NEAR(d->mean, 0.475, 1e-12);
  EXPECT_NEAR(d->stddev, 0.170783, 1e-6);
  ASSERT_TRUE(d->ci95);
  EXPECT_NEAR((*d->ci95)[0], 0.475 - 0.271753, 1e-6);
  EXPECT_NEAR((*d->ci95)[1], 0.475 + 0.271753, 1e-6);
}

TEST(PairedDifference, PairsOnlyTrialsBothDefineAndBothRan) {
  // Trial 1 is undefined on one side, trial 3 ran on one side only (--until-ci stopped earlier).
  const Values a = {1.0, std::nullopt, 3.0};
  const Values b = {2.0, 5.0, 4.0, 100.0};
  const auto d = paired_difference(a, b);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->pairs, 2u);
  EXPECT_EQ(d->mean, 1.0);
  EXPECT_EQ(d->stddev, 0.0);
  EXPECT_EQ(*d->ci95, (std::array<double, 2>{1.0, 1.0}));
}

TEST(PairedDifference, OnePairHasNoIntervalAndNoPairsNoDifference) {
  const auto one = paired_difference(Values{1.0}, Values{2.0});
  ASSERT_TRUE(one);
  EXPECT_FALSE(one->ci95);
  EXPECT_FALSE(paired_difference(Values{std::nullopt}, Values{2.0}));
}

}  // namespace
