// Known answers of the Locality Descriptors in the L1 (hierarchy key ldesc.cache, paper §4.4):
// hard pinning keeps a pinned working set under a thrashing stream and, when the pinned set is
// larger than a cache set, way 0 alone churns; soft pinning keeps a fitting set but not a larger
// one; the timer unpins; NO-REUSE data bypasses the L1; and with the key off, or without
// descriptors, the trial is bit-identical to the plain replay. One SM of the C2050: 16 KiB of
// 128-byte lines in 2 sets of 64 ways, LRU; one warp, one line per instruction.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ldesc/l1_roles.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/trial_digest.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::run_one;
using testing::TraceBuilder;
using tracebuf::AccessKind;

constexpr std::uint64_t kPinned = 0x100000;  // the working set to keep
constexpr std::uint64_t kStream = 0x800000;  // a stream of lines used once
constexpr std::uint64_t kLine = 128;
constexpr std::uint64_t kL2LinesPerLine = 4;  // the C2050's L2 lines are 32 bytes

/// Writes `json` to a file of its own; returns its path.
std::string descriptor_file(const std::string& name, const std::string& json) {
  const auto dir = std::filesystem::temp_directory_path() / "memcarlo-tests";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / (name + "-" + std::to_string(::getpid()) + ".json")).string();
  std::ofstream(path) << json;
  return path;
}

/// One descriptor over `lines` lines from `address` (one CTA, one tile).
std::string one_descriptor(std::uint64_t address, std::uint64_t lines, const std::string& type,
                           const std::string& extra = "") {
  return R"({"descriptors": [{"address": )" + std::to_string(address) + R"(, "size": )" +
         std::to_string(lines * kLine) + R"(, "element_size": 4, "type": ")" + type +
         R"(", "compute_tile": [1, 1, 1])" + extra + "}]}";
}

HierarchyConfig one_sm(std::vector<std::string> settings) {
  settings.push_back("sm.count=1");
  return load_hierarchy("fermi-c2050", settings);
}

/// `rounds` rounds of: the `pinned` lines at kPinned (load 0), then `stream` new lines at
/// kStream (load 1), each line once per round (the stream's lines never again).
std::string rounds_trace(const std::string& name, std::uint64_t pinned, std::uint64_t stream,
                         std::uint64_t rounds) {
  TraceBuilder trace(1, 32);
  const std::uint32_t reused = trace.add_load(AccessKind::kRead, "pinned[i]");
  const std::uint32_t streamed = trace.add_load(AccessKind::kRead, "stream[i]");
  for (std::uint64_t round = 0; round < rounds; ++round) {
    for (std::uint64_t line = 0; line < pinned; ++line) {
      trace.coalesced(0, 0, reused, kPinned + line * kLine);
    }
    for (std::uint64_t line = 0; line < stream; ++line) {
      trace.coalesced(0, 0, streamed, kStream + (round * stream + line) * kLine);
    }
  }
  return trace.write(name);
}

constexpr std::uint64_t kRounds = 4;

TEST(LdescHardPinning, KeepsAPinnedWorkingSetThatFitsUnderAThrashingStream) {
  // 32 lines (16 per set) reused every round; 256 stream lines (128 per set) in between: with
  // LRU each set sees 144 other lines between two uses of a line, more than its 64 ways.
  const std::string path = rounds_trace("ldesc-hard-fits", 32, 256, kRounds);
  const std::string pin = descriptor_file("hard-fits", one_descriptor(kPinned, 32, "INTRA-THREAD"));
  const TrialResult plain = run_one(path, one_sm({"ldesc.descriptors=" + pin}));
  EXPECT_EQ(plain.loads[0].l1_accesses, 32 * kRounds);
  EXPECT_EQ(plain.loads[0].l1_hits, 0u);
  const TrialResult pinned = run_one(
      path, one_sm({"ldesc.descriptors=" + pin, "ldesc.cache=true", "ldesc.unpin_cycles=0"}));
  // Pinned at their first (cold) miss, never replaced: every later use hits.
  EXPECT_EQ(pinned.loads[0].l1_hits, 32 * (kRounds - 1));
  EXPECT_EQ(pinned.loads[1].l1_hits, 0u);  // the stream is not reused
}

TEST(LdescHardPinning, EvictsOnlyWayZeroWhenTheWholeSetIsPinned) {
  // 160 pinned lines, 80 per set of 64 ways, read cyclically: LRU misses every time. Pinned:
  // the first 64 of a set take ways 0..63, the other 16 each replace way 0; from then on a
  // round finds the 63 lines in ways 1..63 and misses the other 17 (all through way 0).
  const std::string path = rounds_trace("ldesc-hard-over", 160, 0, kRounds);
  const std::string pin =
      descriptor_file("hard-over", one_descriptor(kPinned, 160, "INTRA-THREAD"));
  const TrialResult plain = run_one(path, one_sm({"ldesc.descriptors=" + pin}));
  EXPECT_EQ(plain.loads[0].l1_hits, 0u);
  const TrialResult pinned = run_one(
      path, one_sm({"ldesc.descriptors=" + pin, "ldesc.cache=true", "ldesc.unpin_cycles=0"}));
  EXPECT_EQ(pinned.loads[0].l1_hits, 2 * 63 * (kRounds - 1));
}

TEST(LdescHardPinning, TheTimerUnpins) {
  const std::string path = rounds_trace("ldesc-timer", 32, 256, kRounds);
  const std::string pin = descriptor_file("timer", one_descriptor(kPinned, 32, "INTRA-THREAD"));
  // A timer longer than the run: as never unpinning.
  const TrialResult late = run_one(path, one_sm({"ldesc.descriptors=" + pin, "ldesc.cache=true",
                                                 "ldesc.unpin_cycles=1000000000"}));
  EXPECT_EQ(late.loads[0].l1_hits, 32 * (kRounds - 1));
  // A timer of one cycle resets every pin before each fill: plain LRU, nothing kept.
  const TrialResult every_cycle = run_one(
      path, one_sm({"ldesc.descriptors=" + pin, "ldesc.cache=true", "ldesc.unpin_cycles=1"}));
  EXPECT_EQ(every_cycle.loads[0].l1_hits, 0u);
}

TEST(LdescSoftPinning, KeepsAFittingSetButLetsALargerOneThrash) {
  const std::string soft = R"(, "sharing": "COACCESSED", "pattern": "IRREGULAR")";
  const std::string fits_path = rounds_trace("ldesc-soft-fits", 32, 256, kRounds);
  const std::string fits =
      descriptor_file("soft-fits", one_descriptor(kPinned, 32, "INTER-THREAD", soft));
  const TrialResult kept = run_one(
      fits_path, one_sm({"ldesc.descriptors=" + fits, "ldesc.cache=true", "ldesc.unpin_cycles=0"}));
  EXPECT_EQ(kept.loads[0].l1_hits, 32 * (kRounds - 1));
  // 80 soft lines per set of 64 ways replace each other by LRU (no way-0 rule): no hit.
  const std::string over_path = rounds_trace("ldesc-soft-over", 160, 0, kRounds);
  const std::string over =
      descriptor_file("soft-over", one_descriptor(kPinned, 160, "INTER-THREAD", soft));
  const TrialResult thrashed = run_one(
      over_path, one_sm({"ldesc.descriptors=" + over, "ldesc.cache=true", "ldesc.unpin_cycles=0"}));
  EXPECT_EQ(thrashed.loads[0].l1_hits, 0u);
  // COACCESSED REGULAR data is the prefetcher's, not pinned: as plain LRU.
  const std::string regular = descriptor_file(
      "soft-regular",
      one_descriptor(kPinned, 32, "INTER-THREAD", R"(, "sharing": "COACCESSED", "stride": 32)"));
  const TrialResult normal =
      run_one(fits_path, one_sm({"ldesc.descriptors=" + regular, "ldesc.cache=true"}));
  EXPECT_EQ(normal.loads[0].l1_hits, 0u);
}

TEST(LdescBypass, NoReuseDataLeavesTheL1AsIfItWereNotThere) {
  // 32 reused lines and a 256-line stream marked NO-REUSE: the reused lines hit as in the run
  // without the stream; the stream never takes a way, so never hits, and reaches the L2 for
  // every access.
  const std::string with_stream = rounds_trace("ldesc-bypass", 32, 256, kRounds);
  const std::string alone = rounds_trace("ldesc-bypass-alone", 32, 0, kRounds);
  const std::string no_reuse =
      descriptor_file("bypass", one_descriptor(kStream, 256 * kRounds, "NO-REUSE"));
  const TrialResult without = run_one(alone, one_sm({}));
  EXPECT_EQ(without.loads[0].l1_hits, 32 * (kRounds - 1));
  const TrialResult thrashed = run_one(with_stream, one_sm({"ldesc.descriptors=" + no_reuse}));
  EXPECT_EQ(thrashed.loads[0].l1_hits, 0u);
  const TrialResult bypassed =
      run_one(with_stream, one_sm({"ldesc.descriptors=" + no_reuse, "ldesc.cache=true"}));
  EXPECT_EQ(bypassed.loads[0].l1_hits, without.loads[0].l1_hits);
  EXPECT_EQ(bypassed.loads[0].l1_accesses, without.loads[0].l1_accesses);
  EXPECT_EQ(bypassed.loads[1].l1_accesses, 256 * kRounds);
  EXPECT_EQ(bypassed.loads[1].l1_hits, 0u);
  EXPECT_EQ(bypassed.loads[1].l2_reads, 256 * kRounds * kL2LinesPerLine);
}

TEST(LdescBypass, ABypassedLineReadTwiceGoesToTheL2Twice) {
  // The same NO-REUSE line read 8 times by one warp: never allocated, so never a hit (nor an
  // in-flight hit); without ldesc.cache the 7 later reads hit.
  TraceBuilder trace(1, 32);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "a[0]");
  for (int i = 0; i < 8; ++i) {
    trace.coalesced(0, 0, id, kStream);
  }
  const std::string path = trace.write("ldesc-bypass-twice");
  const std::string no_reuse =
      descriptor_file("bypass-twice", one_descriptor(kStream, 1, "NO-REUSE"));
  const TrialResult cached = run_one(path, one_sm({"ldesc.descriptors=" + no_reuse}));
  EXPECT_EQ(cached.loads[0].l1_hits, 7u);
  const TrialResult bypassed =
      run_one(path, one_sm({"ldesc.descriptors=" + no_reuse, "ldesc.cache=true"}));
  EXPECT_EQ(bypassed.loads[0].l1_hits, 0u);
  EXPECT_EQ(bypassed.loads[0].l1_inflight_hits, 0u);
  EXPECT_EQ(bypassed.loads[0].l2_reads, 8 * kL2LinesPerLine);
}

TEST(LdescBypass, PrefetchesOfNoReuseLinesAreDropped) {
  // next-line over 8 NO-REUSE lines: every read misses and asks for the next line; lines 1..7
  // are NO-REUSE (dropped), line 8 lies past the descriptor (an untraced line, normal: issued).
  TraceBuilder trace(1, 32);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "a[i]");
  for (std::uint64_t line = 0; line < 8; ++line) {
    trace.coalesced(0, 0, id, kStream + line * kLine);
  }
  const std::string path = trace.write("ldesc-bypass-prefetch");
  const std::string no_reuse =
      descriptor_file("bypass-prefetch", one_descriptor(kStream, 8, "NO-REUSE"));
  const TrialResult r = run_one(path, one_sm({"ldesc.descriptors=" + no_reuse, "ldesc.cache=true",
                                              "prefetch.policy=next-line"}));
  const auto total = [&](std::string_view name) {
    for (std::uint32_t c = 0; c < kPrefetchCounters.size(); ++c) {
      if (kPrefetchCounters[c].name == name) {
        return r.group_total(kPrefetchGroup, c);
      }
    }
    ADD_FAILURE() << "no prefetch counter " << name;
    return std::uint64_t{0};
  };
  EXPECT_EQ(total("dropped"), 7u);
  EXPECT_EQ(total("issued"), 1u);
  EXPECT_EQ(total("untraced_lines"), 1u);
  EXPECT_EQ(r.loads[id].l1_hits, 0u);
}

TEST(LdescBypass, AKernelsNoReuseDescriptorLeavesTheNextKernelAlone) {
  // 2MM's case (issue 26): kernel `stream_x` reads its 32 lines of X twice and X is NO-REUSE
  // for it; kernel `reread` then reads the same 32 lines of X, and 32 lines of Y, in 4 rounds.
  // The L1 starts each launch empty and the 64 lines fit in its 128 ways: by hand, `reread`
  // hits 32 x 3 times on X and on Y, with or without `stream_x`'s descriptor; `stream_x` hits
  // 32 times on its second pass, 0 when X bypasses the L1.
  TraceBuilder trace(1, 32);
  trace.add_allocation(kPinned, 32 * kLine, "x");
  trace.add_allocation(kStream, 32 * kLine, "y");
  const std::uint32_t streamed = trace.add_load(AccessKind::kRead, "x[i]");
  for (int pass = 0; pass < 2; ++pass) {
    for (std::uint64_t line = 0; line < 32; ++line) {
      trace.coalesced(0, 0, streamed, kPinned + line * kLine);
    }
  }
  trace.next_launch("reread");
  const std::uint32_t reread_x = trace.add_load(AccessKind::kRead, "x[i] again");
  const std::uint32_t reread_y = trace.add_load(AccessKind::kRead, "y[i]");
  for (std::uint64_t round = 0; round < kRounds; ++round) {
    for (std::uint64_t line = 0; line < 32; ++line) {
      trace.coalesced(0, 0, reread_x, kPinned + line * kLine);
      trace.coalesced(0, 0, reread_y, kStream + line * kLine);
    }
  }
  const std::string path = trace.write("ldesc-two-kernels");
  const std::string x_no_reuse =
      descriptor_file("two-kernels", R"({"descriptors": [{"kernel": "test_kernel", )" +
                                         one_descriptor(kPinned, 32, "NO-REUSE").substr(18));
  const TrialResult without = run_one(path, one_sm({"ldesc.cache=true"}));
  const TrialResult with =
      run_one(path, one_sm({"ldesc.descriptors=" + x_no_reuse, "ldesc.cache=true"}));
  EXPECT_EQ(without.loads[streamed].l1_hits, 32u);
  EXPECT_EQ(with.loads[streamed].l1_hits, 0u);  // bypassed in its own kernel
  for (const std::uint32_t id : {reread_x, reread_y}) {
    EXPECT_EQ(without.loads[id].l1_hits, 32 * (kRounds - 1)) << id;
    EXPECT_EQ(with.loads[id].l1_hits, without.loads[id].l1_hits) << id;
    EXPECT_EQ(with.loads[id].l1_accesses, without.loads[id].l1_accesses) << id;
  }
}

/// A digest of the whole trial (every load's counters and the trial's totals).
std::uint64_t digest_of(const TrialResult& result) {
  TrialDigest digest;
  digest.add(result);
  return digest.value();
}

TEST(LdescCacheOff, WithoutTheKeyOrWithoutDescriptorsTheTrialIsUnchanged) {
  const std::string path = rounds_trace("ldesc-off", 32, 256, 2);
  const std::string pin = descriptor_file("off", one_descriptor(kPinned, 32, "INTRA-THREAD"));
  // Several SMs and warps orderings: trial 3 of 4 SMs.
  const auto config = [](std::vector<std::string> settings) {
    settings.push_back("sm.count=4");
    return load_hierarchy("fermi-c2050", settings);
  };
  const std::uint64_t plain = digest_of(run_one(path, config({}), 3));
  EXPECT_EQ(digest_of(run_one(path, config({"ldesc.cache=true"}), 3)), plain);  // no descriptors
  EXPECT_EQ(digest_of(run_one(path, config({"ldesc.descriptors=" + pin}), 3)), plain);  // key off
  // On, with descriptors whose data the L1 treats as normal (NEARBY: the prefetcher's), the
  // trial takes the priorities' path and finds the same victims: bit-identical.
  const std::string nearby = descriptor_file(
      "off-nearby", one_descriptor(kPinned, 32, "INTER-THREAD", R"(, "sharing": "NEARBY")"));
  EXPECT_EQ(
      digest_of(run_one(path, config({"ldesc.descriptors=" + nearby, "ldesc.cache=true"}), 3)),
      plain);
  // On, the pinned lines hit in the second round.
  const TrialResult on = run_one(
      path, config({"ldesc.descriptors=" + pin, "ldesc.cache=true", "ldesc.unpin_cycles=0"}), 3);
  EXPECT_EQ(on.loads[0].l1_hits, 32u);
  EXPECT_NE(digest_of(on), plain);
}

TEST(LdescCacheKeys, BadValuesNameTheKey) {
  EXPECT_THROW(one_sm({"ldesc.cache=3"}), ConfigError);
  EXPECT_THROW(one_sm({"ldesc.unpin_cycles=-1"}), ConfigError);
  try {
    (void)one_sm({"ldesc.cache=\"yes\""});
    FAIL() << "accepted a string";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("ldesc.cache"), std::string::npos) << error.what();
  }
}

TEST(LdescRoles, FollowThePapersFlowchart) {
  tracebuf::LocalityDescriptor d;
  d.type = tracebuf::LocalityType::kNoReuse;
  EXPECT_EQ(ldesc::l1_role(d), ldesc::L1Role::kBypass);
  d.type = tracebuf::LocalityType::kIntraThread;
  EXPECT_EQ(ldesc::l1_role(d), ldesc::L1Role::kHardPinned);
  d.type = tracebuf::LocalityType::kInterThread;
  d.sharing = tracebuf::SharingType::kCoaccessed;
  d.pattern = tracebuf::AccessPattern::kIrregular;
  EXPECT_EQ(ldesc::l1_role(d), ldesc::L1Role::kSoftPinned);
  d.pattern = tracebuf::AccessPattern::kRegular;
  EXPECT_EQ(ldesc::l1_role(d), ldesc::L1Role::kNormal);  // the stride prefetcher's
  d.sharing = tracebuf::SharingType::kNearby;
  EXPECT_EQ(ldesc::l1_role(d), ldesc::L1Role::kNormal);  // the next-line prefetcher's
}

TEST(LdescRangeTable, GivesEachAddressItsHighestPriorityDescriptor) {
  std::vector<tracebuf::LocalityDescriptor> list(3);
  list[0].address = 1000;  // highest priority, inside the second
  list[0].size = 100;
  list[1].address = 900;
  list[1].size = 400;
  list[2].address = 5000;
  list[2].size = 10;
  ldesc::RangeTable table;
  table.build(list);
  EXPECT_EQ(table.find(899), ldesc::RangeTable::kNone);
  EXPECT_EQ(table.find(900), 1u);
  EXPECT_EQ(table.find(999), 1u);
  EXPECT_EQ(table.find(1000), 0u);
  EXPECT_EQ(table.find(1099), 0u);
  EXPECT_EQ(table.find(1100), 1u);
  EXPECT_EQ(table.find(1299), 1u);
  EXPECT_EQ(table.find(1300), ldesc::RangeTable::kNone);
  EXPECT_EQ(table.find(5009), 2u);
  EXPECT_EQ(table.find(5010), ldesc::RangeTable::kNone);
  table.build({});
  EXPECT_TRUE(table.empty());
  EXPECT_EQ(table.find(1000), ldesc::RangeTable::kNone);
}

}  // namespace
}  // namespace memcarlo::sim
