// Register fields of exported Accel-Sim instructions: a store that writes what a load of the same
// thread read, and a load whose address a load produced, read that load's destination register,
// so that Accel-Sim's scoreboard holds them as the program's SASS does. Expected lines by hand.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "interop_test_util.hpp"
#include "memcarlo/accelsim/accelsim.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::accelsim {
namespace {

using testing::read_text;
using testing::scratch_dir;
using tracebuf::AccessKind;
using tracebuf::WarpRecord;

tracebuf::LoadInfo entry(std::uint32_t id, AccessKind kind,
                         std::vector<std::uint32_t> depends_on = {},
                         std::string extra_json = "{}") {
  tracebuf::LoadInfo load;
  load.id = id;
  load.kind = kind;
  load.element_size = 4;
  load.depends_on = std::move(depends_on);
  load.extra_json = std::move(extra_json);
  return load;
}

/// A record of static id `id` whose lane l (of `mask`) accesses base + stride * l.
WarpRecord access(std::uint32_t id, AccessKind kind, std::uint64_t base, std::int64_t stride,
                  std::uint32_t mask = 0xFFFFFFFF) {
  WarpRecord record;
  record.static_id = id;
  record.kind = kind;
  record.element_size = 4;
  record.active_mask = mask;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if ((mask >> lane) & 1u) {
      record.addresses[lane] = base + static_cast<std::uint64_t>(stride * lane);
    }
  }
  return record;
}

/// Exports one block whose warp w has `warps[w]`, and returns the instruction lines of each warp
/// (without its EXIT).
std::vector<std::vector<std::string>> export_warps(
    const std::string& name, const std::vector<tracebuf::LoadInfo>& loads,
    const std::vector<std::vector<WarpRecord>>& warps) {
  const std::string dir = scratch_dir(name);
  {
    tracebuf::TraceWriter writer(dir + "/in.mct", {});
    writer.write_loads(loads);
    tracebuf::LaunchInfo info;
    info.kernel = name;
    info.block = {static_cast<std::uint32_t>(32 * warps.size()), 1, 1};
    info.snapshot_block_count = 1;
    const auto launch = writer.begin_launch(info);
    for (std::uint32_t w = 0; w < warps.size(); ++w) {
      writer.write_warp_records(launch, 0, w, warps[w]);
    }
    writer.finish();
  }
  export_trace(dir + "/in.mct", dir + "/out");
  std::istringstream text(read_text(dir + "/out/kernel-1.traceg"));
  std::vector<std::vector<std::string>> lines;
  bool in_warp = false;
  for (std::string line; std::getline(text, line);) {
    if (line.starts_with("insts = ")) {
      lines.emplace_back();
      in_warp = true;
    } else if (line.empty() || line.find(" EXIT ") != std::string::npos) {
      in_warp = false;
    } else if (in_warp) {
      lines.back().push_back(line);
    }
  }
  return lines;
}

std::string hex(std::uint64_t address) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(address));
  return text;
}

constexpr std::uint64_t kS = 0x100000;    // struct S { float x, y, z; } s[]
constexpr std::uint64_t kY = 0x200000;    // float y[]
constexpr std::uint64_t kOut = 0x300000;  // float out[]
constexpr std::uint64_t kCol = 0x400000;  // int col[]

// s[i].x += y[i]: the instrumenter records y[i] (read) and s[i].x (rmw); the rmw's store half
// stores what its load half loaded.
TEST(AccelsimDependences, ArrayOfStructsReadModifyWriteStoresWhatItLoaded) {
  const auto warps = export_warps(
      "aos-rmw", {entry(0, AccessKind::kReadModifyWrite), entry(1, AccessKind::kRead)},
      {{access(1, AccessKind::kRead, kY, 4), access(0, AccessKind::kReadModifyWrite, kS, 12)}});
  ASSERT_EQ(warps.size(), 1u);
  EXPECT_EQ(warps[0], (std::vector<std::string>{
                          "0020 ffffffff 1 R8 LDG.E 1 R2 4 1 " + hex(kY) + " 4 0",
                          "0000 ffffffff 1 R12 LDG.E 1 R2 4 1 " + hex(kS) + " 12 0",
                          "0010 ffffffff 0 STG.E 2 R2 R12 4 1 " + hex(kS) + " 12 0",
                      }));
}

// out[i] = out[i] * k in a template: a read and a write of their own. The trace cannot say that
// the write's value came from the read, so the conservative rule applies: a store reads the most
// recent load in which the same thread (lane) read the address it writes.
TEST(AccelsimDependences, TemplatedStoreAfterALoadOfTheSameAddressReadsIt) {
  const auto warps =
      export_warps("templated", {entry(0, AccessKind::kRead), entry(1, AccessKind::kWrite)},
                   {{access(0, AccessKind::kRead, kOut, 4), access(1, AccessKind::kWrite, kOut, 4)},
                    // another warp stores to what warp 0 loaded: no dependence across warps
                    {access(1, AccessKind::kWrite, kOut, 4)}});
  ASSERT_EQ(warps.size(), 2u);
  EXPECT_EQ(warps[0], (std::vector<std::string>{
                          "0000 ffffffff 1 R8 LDG.E 1 R2 4 1 " + hex(kOut) + " 4 0",
                          "0020 ffffffff 0 STG.E 2 R2 R8 4 1 " + hex(kOut) + " 4 0",
                      }));
  EXPECT_EQ(warps[1], (std::vector<std::string>{
                          "0020 ffffffff 0 STG.E 2 R2 R4 4 1 " + hex(kOut) + " 4 0",
                      }));
}

TEST(AccelsimDependences, OnlyTheSameThreadsAddressMakesTheConservativeDependence) {
  const auto warps = export_warps(
      "same-thread",
      {entry(0, AccessKind::kRead), entry(1, AccessKind::kWrite), entry(2, AccessKind::kWrite),
       entry(3, AccessKind::kRead)},
      {{access(0, AccessKind::kRead, kOut, 4),
        // lane l writes what lane l + 1 loaded: another thread's address
        access(1, AccessKind::kWrite, kOut + 4, 4), access(3, AccessKind::kRead, kY, 4),
        // lane 5 alone writes what lane 5 loaded four instructions back
        access(2, AccessKind::kWrite, kOut + 20, 0, 1u << 5)}});
  ASSERT_EQ(warps.size(), 1u);
  ASSERT_EQ(warps[0].size(), 4u);
  EXPECT_EQ(warps[0][1], "0020 ffffffff 0 STG.E 2 R2 R4 4 1 " + hex(kOut + 4) + " 4 0");
  EXPECT_EQ(warps[0][2], "0060 ffffffff 1 R12 LDG.E 1 R2 4 1 " + hex(kY) + " 4 0");
  EXPECT_EQ(warps[0][3], "0040 00000020 0 STG.E 2 R2 R8 4 1 " + hex(kOut + 20) + " 0 0");
}

// y[col[j]] over two iterations, then out[row] = sum: each gather reads the register of the most
// recent col[j] (depends_on in the loads table), the store's address needs no load.
TEST(AccelsimDependences, GatherAddressReadsTheIndexLoadsRegister) {
  const auto warps = export_warps(
      "gather",
      {entry(0, AccessKind::kRead), entry(1, AccessKind::kRead, {0}), entry(2, AccessKind::kWrite)},
      {{access(0, AccessKind::kRead, kCol, 4), access(1, AccessKind::kRead, kY + 0x40, 8),
        access(0, AccessKind::kRead, kCol + 128, 4), access(1, AccessKind::kRead, kY + 0x80, 8),
        access(2, AccessKind::kWrite, kOut, 4)}});
  ASSERT_EQ(warps.size(), 1u);
  EXPECT_EQ(warps[0], (std::vector<std::string>{
                          "0000 ffffffff 1 R8 LDG.E 1 R2 4 1 " + hex(kCol) + " 4 0",
                          "0020 ffffffff 1 R12 LDG.E 1 R8 4 1 " + hex(kY + 0x40) + " 8 0",
                          "0000 ffffffff 1 R16 LDG.E 1 R2 4 1 " + hex(kCol + 128) + " 4 0",
                          "0020 ffffffff 1 R20 LDG.E 1 R16 4 1 " + hex(kY + 0x80) + " 8 0",
                          "0040 ffffffff 0 STG.E 2 R2 R4 4 1 " + hex(kOut) + " 4 0",
                      }));
}

// atomicAdd(&hist[data[i]], 1): the atomic's address comes from data[i]; it writes a register of
// its own and adds a value computed without loads.
TEST(AccelsimDependences, AtomicAddressFromALoad) {
  const auto warps = export_warps(
      "histogram", {entry(0, AccessKind::kRead), entry(1, AccessKind::kAtomic, {0})},
      {{access(0, AccessKind::kRead, kY, 4), access(1, AccessKind::kAtomic, kOut, 0)}});
  ASSERT_EQ(warps.size(), 1u);
  ASSERT_EQ(warps[0].size(), 2u);
  EXPECT_EQ(warps[0][1],
            "0020 ffffffff 1 R12 ATOMG.E.ADD.STRONG.GPU 2 R8 R4 4 1 " + hex(kOut) + " 0 0");
}

// c[i] = a[i] + b[i]; a[i] = 0: with `value_depends_on` in the loads table the stores read exactly
// the loads it names, and no conservative same-address dependence is added.
TEST(AccelsimDependences, ValueDependencesFromTheLoadsTableReplaceTheConservativeRule) {
  const auto warps = export_warps(
      "table-values",
      {entry(0, AccessKind::kRead), entry(1, AccessKind::kRead),
       entry(2, AccessKind::kWrite, {}, R"({"value_depends_on": [0, 1]})"),
       entry(3, AccessKind::kWrite, {}, R"({"value_depends_on": []})")},
      {{access(0, AccessKind::kRead, kS, 4), access(1, AccessKind::kRead, kY, 4),
        access(2, AccessKind::kWrite, kOut, 4), access(3, AccessKind::kWrite, kS, 4)}});
  ASSERT_EQ(warps.size(), 1u);
  ASSERT_EQ(warps[0].size(), 4u);
  EXPECT_EQ(warps[0][2], "0040 ffffffff 0 STG.E 3 R2 R8 R12 4 1 " + hex(kOut) + " 4 0");
  EXPECT_EQ(warps[0][3], "0060 ffffffff 0 STG.E 2 R2 R4 4 1 " + hex(kS) + " 4 0");
}

// Destinations rotate over 16 registers: the 17th load reuses R8, and a store after it finds only
// the loads still held (the first load's register now belongs to the 17th).
TEST(AccelsimDependences, DestinationsRotateOverSixteenRegisters) {
  std::vector<WarpRecord> records;
  for (std::uint64_t k = 0; k < 17; ++k) {
    records.push_back(access(0, AccessKind::kRead, kY + 0x1000 * k, 4));
  }
  records.push_back(access(1, AccessKind::kWrite, kY, 4));                // loaded 17 loads back
  records.push_back(access(1, AccessKind::kWrite, kY + 0x1000 * 16, 4));  // the 17th load
  const auto warps = export_warps(
      "rotation", {entry(0, AccessKind::kRead), entry(1, AccessKind::kWrite)}, {records});
  ASSERT_EQ(warps.size(), 1u);
  ASSERT_EQ(warps[0].size(), 19u);
  EXPECT_NE(warps[0][15].find(" 1 R68 LDG.E "), std::string::npos) << warps[0][15];
  EXPECT_NE(warps[0][16].find(" 1 R8 LDG.E "), std::string::npos) << warps[0][16];
  EXPECT_NE(warps[0][17].find(" 0 STG.E 2 R2 R4 "), std::string::npos) << warps[0][17];
  EXPECT_NE(warps[0][18].find(" 0 STG.E 2 R2 R8 "), std::string::npos) << warps[0][18];
}

}  // namespace
}  // namespace memcarlo::accelsim
