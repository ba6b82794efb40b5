// The binary form of TrialResult: every member survives a round trip (each filled with its own
// value, compared member by member and by the trial digest), and damaged bytes are refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "memcarlo/sim/trial_digest.hpp"
#include "memcarlo/sim/trial_result_io.hpp"

namespace memcarlo::sim {
namespace {

/// Every member of a trial, each with a value no other member has (from `next`).
TrialResult distinct_trial(std::uint64_t& next) {
  const auto counters = [&next] {
    AccessCounters c;
    for_each_access_counter([&](auto member) {
      using Value = std::remove_reference_t<decltype(c.*member)>;
      if constexpr (std::is_same_v<Value, double>) {
        c.*member = static_cast<double>(next++) + 0.25;  // a fraction, to see all its bits kept
      } else {
        c.*member = next++;
      }
    });
    return c;
  };
  const auto values = [&next](std::size_t n) {
    std::vector<std::uint64_t> v(n);
    for (auto& value : v) {
      value = next++;
    }
    return v;
  };
  TrialResult r;
  r.loads = {counters(), counters(), counters()};
  r.allocations = {counters(), counters()};
  r.kernels = {counters()};
  r.overall = counters();
  r.transactions = next++;
  r.cycles = next++;
  r.dram_batches = next++;
  r.dram_writes = next++;
  r.back_invalidations = next++;
  for (CounterGroupTotals& group : r.groups) {
    group.width = 2;
    group.loads = values(6);
    group.allocations = values(4);
    group.kernels = values(2);
    group.overall = values(2);
  }
  r.latency_histogram.count = values(7);
  r.latency_histogram.index = {3, 9, 10, 200, 308, 309, 700};
  return r;
}

void expect_same_counters(const AccessCounters& a, const AccessCounters& b) {
  for_each_access_counter([&](auto member) { EXPECT_EQ(a.*member, b.*member); });
}

void expect_same_counters(const std::vector<AccessCounters>& a,
                          const std::vector<AccessCounters>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    expect_same_counters(a[i], b[i]);
  }
}

std::uint64_t digest(const TrialResult& r) {
  TrialDigest d;
  d.add(r);
  return d.value();
}

TEST(TrialResultIo, RoundTripKeepsEveryMember) {
  std::uint64_t next = 1;
  const std::vector<TrialResult> trials = {distinct_trial(next), distinct_trial(next)};
  std::vector<std::uint8_t> bytes;
  append_trial_results(trials, bytes);
  const std::vector<TrialResult> back = decode_trial_results(bytes);
  ASSERT_EQ(back.size(), trials.size());
  for (std::size_t t = 0; t < trials.size(); ++t) {
    const TrialResult& a = trials[t];
    const TrialResult& b = back[t];
    EXPECT_EQ(digest(a), digest(b));
    expect_same_counters(a.loads, b.loads);
    expect_same_counters(a.allocations, b.allocations);
    expect_same_counters(a.kernels, b.kernels);
    expect_same_counters(a.overall, b.overall);
    EXPECT_EQ(a.transactions, b.transactions);
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.dram_batches, b.dram_batches);
    EXPECT_EQ(a.dram_writes, b.dram_writes);
    EXPECT_EQ(a.back_invalidations, b.back_invalidations);
    for (std::size_t g = 0; g < a.groups.size(); ++g) {
      EXPECT_EQ(a.groups[g].width, b.groups[g].width);
      EXPECT_EQ(a.groups[g].loads, b.groups[g].loads);
      EXPECT_EQ(a.groups[g].allocations, b.groups[g].allocations);
      EXPECT_EQ(a.groups[g].kernels, b.groups[g].kernels);
      EXPECT_EQ(a.groups[g].overall, b.groups[g].overall);
    }
    EXPECT_EQ(a.latency_histogram, b.latency_histogram);
  }
  // The digest sees a changed member, so it can stand in for the comparison above elsewhere.
  TrialResult changed = back[0];
  changed.overall.dram_latency_sum += 1;
  EXPECT_NE(digest(changed), digest(trials[0]));
}

TEST(TrialResultIo, IntegersAreLittleEndian) {
  TrialResult r;
  r.transactions = 0x0102030405060708ull;
  std::vector<std::uint8_t> bytes;
  append_trial_results(std::span<const TrialResult>(&r, 1), bytes);
  // count (8 bytes), three empty vectors (3 x 8), overall (21 x 8), then transactions.
  const std::size_t at = 8 + 3 * 8 + kAccessCounterFields.size() * 8;
  ASSERT_GT(bytes.size(), at + 8);
  EXPECT_EQ(bytes[at], 0x08);
  EXPECT_EQ(bytes[at + 7], 0x01);
}

TEST(TrialResultIo, CutOrPaddedBytesAreRefused) {
  std::uint64_t next = 1;
  const std::vector<TrialResult> trials = {distinct_trial(next)};
  std::vector<std::uint8_t> bytes;
  append_trial_results(trials, bytes);
  const std::vector<std::uint8_t> cut(bytes.begin(), bytes.end() - 1);
  EXPECT_THROW(decode_trial_results(cut), TrialResultFormatError);
  std::vector<std::uint8_t> padded = bytes;
  padded.push_back(0);
  EXPECT_THROW(decode_trial_results(padded), TrialResultFormatError);
  std::vector<std::uint8_t> huge = bytes;
  huge[0] = 0xFF;  // a trial count far beyond the data
  EXPECT_THROW(decode_trial_results(huge), TrialResultFormatError);
}

TEST(TrialResultIo, Base64RoundTripsEveryLength) {
  std::vector<std::uint8_t> bytes;
  for (int n = 0; n < 10; ++n) {
    EXPECT_EQ(base64_decode(base64_encode(bytes)), bytes);
    bytes.push_back(static_cast<std::uint8_t>(n * 77 + 200));
  }
  EXPECT_EQ(base64_encode(std::vector<std::uint8_t>{'M', 'a', 'n'}), "TWFu");
  EXPECT_EQ(base64_encode(std::vector<std::uint8_t>{'M'}), "TQ==");
  EXPECT_THROW(base64_decode("TQ="), TrialResultFormatError);
  EXPECT_THROW(base64_decode("T*=="), TrialResultFormatError);
}

}  // namespace
}  // namespace memcarlo::sim
