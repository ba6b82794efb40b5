// The access counter table: every member of AccessCounters is listed once (the static_asserts in
// counters.hpp), and what walks the table (the sum, the trial digest) sees every one of them, so
// that a new counter is one member and one table line.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <variant>
#include <vector>

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

/// Sets `member` of a zero result to something that is not zero.
void make_nonzero(std::uint64_t& value) {
  value = 1;
}
void make_nonzero(AccessCounters& counters) {
  counters.l1_accesses = 1;
}
void make_nonzero(std::uint32_t& value) {
  value = 1;
}
void make_nonzero(CounterGroupTotals& group) {
  group.width = 1;
  group.loads = {1};
}
template <class T>
void make_nonzero(std::vector<T>& values) {
  values.resize(1);
  make_nonzero(values[0]);
}
template <class T, std::size_t N>
void make_nonzero(std::array<T, N>& values) {
  make_nonzero(values[0]);
}

// The trial-wide totals and every other member of TrialResult reach the digest through one list
// (for_each_trial_member, whose static_assert fails on a member it lacks); here each member that
// the list calls digested changes the digest when it alone is set, and the others do not.
TEST(AccessCounterTable, TheTrialDigestTakesEveryMemberTheMemberListMarks) {
  TrialDigest zero;
  zero.add(TrialResult{});
  std::size_t members = 0;
  std::size_t digested = 0;
  for (std::size_t m = 0;; ++m) {
    TrialResult result;
    std::size_t index = 0;
    bool marked = false;
    for_each_trial_member(result, [&](auto& member, Digested d) {
      if (index++ == m) {
        make_nonzero(member);
        marked = d == Digested::kYes;
      }
    });
    if (m >= index) {
      members = index;
      break;
    }
    TrialDigest digest;
    digest.add(result);
    EXPECT_EQ(digest.value() != zero.value(), marked) << "member " << m << " of TrialResult";
    digested += marked ? 1 : 0;
  }
  // loads, allocations, overall, transactions, cycles, dram_batches, dram_writes,
  // back_invalidations, groups; not kernels or the two halves of the latency histogram.
  EXPECT_EQ(members, 12u);
  EXPECT_EQ(digested, 9u);
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
