// The access counter table: every member of AccessCounters is listed once (the static_asserts in
// counters.hpp), and what walks the table (the sum, the trial digest) sees every one of them, so
// that a new counter is one member and one table line.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <variant>

#include "memcarlo/sim/counters.hpp"
#include "memcarlo/sim/trial_digest.hpp"

namespace memcarlo::sim {
namespace {

/// Counters with only the field at `index` of the table set to `value`.
AccessCounters only(std::size_t index, std::uint64_t value) {
  AccessCounters c;
  std::visit(
      [&](auto member) {
        c.*member = static_cast<std::remove_reference_t<decltype(c.*member)>>(value);
      },
      kAccessCounterFields[index].member);
  return c;
}

double value_of(const AccessCounters& c, std::size_t index) {
  return std::visit([&](auto member) { return static_cast<double>(c.*member); },
                    kAccessCounterFields[index].member);
}

TEST(AccessCounterTable, PlusEqualsAddsEveryFieldAndOnlyThatField) {
  for (std::size_t i = 0; i < kAccessCounterFields.size(); ++i) {
    AccessCounters sum = only(i, 3);
    sum += only(i, 40);
    for (std::size_t j = 0; j < kAccessCounterFields.size(); ++j) {
      EXPECT_EQ(value_of(sum, j), i == j ? 43.0 : 0.0)
          << kAccessCounterFields[i].name << " added into " << kAccessCounterFields[j].name;
    }
  }
}

TEST(AccessCounterTable, TheTrialDigestSeesEveryField) {
  std::set<std::uint64_t> digests;
  TrialDigest zero;
  zero.add(TrialResult{});
  digests.insert(zero.value());
  for (std::size_t i = 0; i < kAccessCounterFields.size(); ++i) {
    TrialResult result;
    result.overall = only(i, 1);
    TrialDigest digest;
    digest.add(result);
    EXPECT_TRUE(digests.insert(digest.value()).second)
        << kAccessCounterFields[i].name << " does not change the digest";
  }
}

TEST(AccessCounterTable, NamesAreTheMembersSpelledOut) {
  // The table's names are what tests, the digest's readers and the docs call the counters; a
  // spot check that they were not shuffled against the members they describe.
  const auto name_of = [](auto member) {
    for (const AccessCounterField& field : kAccessCounterFields) {
      if (field.member == decltype(field.member)(member)) {
        return std::string(field.name);
      }
    }
    return std::string("?");
  };
  EXPECT_EQ(name_of(&AccessCounters::l1_accesses), "l1_accesses");
  EXPECT_EQ(name_of(&AccessCounters::l1_store_sector_hits), "l1_store_sector_hits");
  EXPECT_EQ(name_of(&AccessCounters::l2_atomic_hits), "l2_atomic_hits");
  EXPECT_EQ(name_of(&AccessCounters::dram_latency_sum), "dram_latency_sum");
}

}  // namespace
}  // namespace memcarlo::sim
