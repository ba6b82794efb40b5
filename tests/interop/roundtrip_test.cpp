// Export to Accel-Sim text and import back: records must come back exactly (static ids mapped
// through the PC the exporter assigns), and the text must follow the tracer-version-5 layout.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "interop_test_util.hpp"
#include "memcarlo/accelsim/accelsim.hpp"
#include "memcarlo/tracebuf/writer.hpp"
#include "roundtrip_check.hpp"

namespace memcarlo::accelsim {
namespace {

using testing::read_text;
using testing::scratch_dir;
using tracebuf::AccessKind;
using tracebuf::TraceReader;
using tracebuf::WarpRecord;

struct Access {
  AccessKind kind;
  std::uint8_t size;
};
// The static accesses of the built trace, by id: every kind, sizes 1 to 16 and an odd one.
const Access kAccesses[] = {
    {AccessKind::kRead, 4},             // 0 coalesced
    {AccessKind::kRead, 4},             // 1 strided, 128 bytes between lanes
    {AccessKind::kRead, 8},             // 2 gather, some lanes more than 4 GiB apart
    {AccessKind::kWrite, 4},            // 3 partial, non-contiguous mask
    {AccessKind::kAtomic, 4},           // 4 every lane on one address
    {AccessKind::kRead, 16},            // 5 coalesced 16-byte vectors
    {AccessKind::kWrite, 8},            // 6 a single lane
    {AccessKind::kReadModifyWrite, 4},  // 7 coalesced
    {AccessKind::kRead, 1},             // 8
    {AccessKind::kWrite, 2},            // 9
    {AccessKind::kRead, 12},            // 10 odd size
    {AccessKind::kAtomic, 8},           // 11 gather
    {AccessKind::kRead, 4},             // 12 negative stride
};

WarpRecord make_record(std::uint32_t id, std::uint32_t mask, std::uint8_t barriers,
                       const std::function<std::uint64_t(unsigned)>& address) {
  WarpRecord record;
  record.static_id = id;
  record.kind = kAccesses[id].kind;
  record.element_size = kAccesses[id].size;
  record.barriers = barriers;
  record.active_mask = mask;
  for (unsigned lane = 0; lane < 32; ++lane) {
    record.addresses[lane] = (mask >> lane) & 1u ? address(lane) : 0;
  }
  return record;
}

/// The records of one warp: every access pattern once, a few barriers, masks cut to the warp.
std::vector<WarpRecord> warp_records(std::uint64_t seed, std::uint32_t warp_mask) {
  std::mt19937_64 random(seed);
  const std::uint64_t base = 0x7f0000000000 + (seed % 64) * 0x10000;
  auto cut = [&](std::uint32_t mask) { return mask & warp_mask ? mask & warp_mask : warp_mask; };
  std::vector<WarpRecord> records;
  records.push_back(make_record(0, warp_mask, 0, [&](unsigned l) { return base + 4 * l; }));
  records.push_back(make_record(1, warp_mask, 1, [&](unsigned l) { return base + 128 * l; }));
  records.push_back(make_record(2, warp_mask, 0, [&](unsigned l) {
    return (l % 3 == 0 ? 0x10000000000 : base) + (random() % (1 << 20)) * 8;
  }));
  records.push_back(
      make_record(3, cut(0x0F0F00F1), 0, [&](unsigned l) { return base + 0x2000 + 4 * l; }));
  records.push_back(make_record(4, warp_mask, 2, [&](unsigned) { return base + 0x3000; }));
  records.push_back(make_record(5, warp_mask, 0, [&](unsigned l) { return base + 16 * l; }));
  records.push_back(make_record(6, cut(1u << 5), 0, [&](unsigned) { return base + 0x4000; }));
  records.push_back(
      make_record(7, warp_mask, 0, [&](unsigned l) { return base + 0x5000 + 4 * l; }));
  records.push_back(make_record(8, cut(0xFFFF0000), 0, [&](unsigned l) { return base + l; }));
  records.push_back(make_record(9, warp_mask, 0, [&](unsigned l) { return base + 2 * l; }));
  records.push_back(make_record(10, warp_mask, 0, [&](unsigned l) { return base + 12 * l; }));
  records.push_back(
      make_record(11, cut(0xAAAAAAAA), 1, [&](unsigned) { return base + (random() % 4096) * 8; }));
  records.push_back(make_record(12, warp_mask, 0, [&](unsigned l) { return base - 4 * l; }));
  WarpRecord wide = make_record(0, warp_mask, 0, [&](unsigned l) { return base + 8 * l; });
  wide.element_size = 8;  // one static id, two sizes: exported as LDG.E and LDG.E.64 at one PC
  records.push_back(wide);
  return records;
}

/// Two launches: "patterns" (80-thread blocks, so the last warp has 16 lanes; snapshot blocks
/// [4, 10) of a 8x2 grid, block 7 without records) and "second" (three 32-thread blocks).
std::string build_trace(const std::string& dir) {
  const std::string path = dir + "/built.mct";
  tracebuf::TraceMeta meta;
  meta.backend = "synthetic";
  tracebuf::TraceWriter writer(path, meta);
  std::vector<tracebuf::LoadInfo> loads;
  for (std::uint32_t id = 0; id < std::size(kAccesses); ++id) {
    tracebuf::LoadInfo load;
    load.id = id;
    load.kind = kAccesses[id].kind;
    load.element_size = kAccesses[id].size;
    loads.push_back(load);
  }
  writer.write_loads(loads);

  tracebuf::LaunchInfo first;
  first.kernel = "patterns";
  first.grid = {8, 2, 1};
  first.block = {80, 1, 1};
  first.dynamic_shared_bytes = 1024;
  first.registers_per_thread = 40;
  first.snapshot_first_block = 4;
  first.snapshot_block_count = 6;
  first.sequence_in_program = 3;
  const auto l0 = writer.begin_launch(first);
  for (std::uint32_t block = 4; block < 10; ++block) {
    for (std::uint32_t warp = 0; block != 7 && warp < 3; ++warp) {
      writer.write_warp_records(l0, block, warp,
                                warp_records(block * 3 + warp, warp == 2 ? 0xFFFF : 0xFFFFFFFF));
    }
  }
  tracebuf::LaunchInfo second;
  second.kernel = "second";
  second.grid = {3, 1, 1};
  second.block = {32, 1, 1};
  second.snapshot_block_count = 3;
  second.sequence_in_program = 4;
  second.registers_per_thread = 32;
  const auto l1 = writer.begin_launch(second);
  for (std::uint32_t block = 0; block < 3; ++block) {
    writer.write_warp_records(l1, block, 0, warp_records(100 + block, 0xFFFFFFFF));
  }
  writer.finish();
  return path;
}

TEST(AccelsimRoundTrip, CompactAddressesComeBackExactly) {
  const std::string dir = scratch_dir("roundtrip-compact");
  const std::string original = build_trace(dir);
  const ExportStats exported = export_trace(original, dir + "/accelsim");
  EXPECT_EQ(exported.launches, 2u);
  EXPECT_EQ(exported.files.size(), 3u);
  import_trace(dir + "/accelsim/kernelslist.g", dir + "/back.mct");
  testing::expect_same_records(original, dir + "/back.mct");
}

TEST(AccelsimRoundTrip, AddressListsComeBackExactly) {
  const std::string dir = scratch_dir("roundtrip-list");
  const std::string original = build_trace(dir);
  ExportOptions options;
  options.compress_addresses = false;
  export_trace(original, dir + "/accelsim", options);
  import_trace(dir + "/accelsim", dir + "/back.mct");
  testing::expect_same_records(original, dir + "/back.mct");
}

TEST(AccelsimRoundTrip, LaunchesKeepTheirShape) {
  const std::string dir = scratch_dir("roundtrip-launch");
  const std::string original = build_trace(dir);
  export_trace(original, dir + "/accelsim");
  import_trace(dir + "/accelsim/kernelslist.g", dir + "/back.mct");
  const auto reader = TraceReader::open(dir + "/back.mct");
  ASSERT_EQ(reader.launches().size(), 2u);
  const auto& info = reader.launches()[0].info;
  EXPECT_EQ(info.kernel, "patterns");
  EXPECT_EQ(info.grid, (tracebuf::Dim3{8, 2, 1}));
  EXPECT_EQ(info.block, (tracebuf::Dim3{80, 1, 1}));
  EXPECT_EQ(info.dynamic_shared_bytes + info.static_shared_bytes, 1024u);
  EXPECT_EQ(info.registers_per_thread, 40u);
  EXPECT_EQ(info.sequence_in_program, 3u);
  EXPECT_EQ(info.snapshot_first_block, 0u);  // imported snapshots start at 0 ...
  EXPECT_EQ(info.snapshot_block_count, 6u);  // ... and keep their size, empty block included
  EXPECT_EQ(reader.launches()[1].info.sequence_in_program, 4u);
  EXPECT_NO_THROW(tracebuf::check_invariants(reader));
}

/// The lines of `text`, without their terminators.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

TEST(AccelsimExport, WritesTheTracerVersion5Layout) {
  const std::string dir = scratch_dir("export-layout");
  const std::string original = build_trace(dir);
  ExportOptions options;
  options.binary_version = 86;
  export_trace(original, dir + "/out", options);
  EXPECT_EQ(read_text(dir + "/out/kernelslist.g"), "kernel-1.traceg\nkernel-2.traceg\n");
  const std::string text = read_text(dir + "/out/kernel-1.traceg");
  for (const char* header :
       {"-kernel name = patterns\n", "-kernel id = 4\n", "-grid dim = (8,2,1)\n",
        "-block dim = (80,1,1)\n", "-shmem = 1024\n", "-nregs = 40\n", "-binary version = 86\n",
        "-accelsim tracer version = 5\n", "-enable lineinfo = 0\n", "-memcarlo rmw pcs = 0xe0\n",
        "\n#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
        "[adrrescompress?] [mem_addresses] immediate\n",
        // block 4 of the 8x2 grid, then block 8 = (0,1,0)
        "\n#BEGIN_TB\n\nthread block = 4,0,0\n\nwarp = 0\ninsts = 20\n", "\nthread block = 0,1,0\n",
        // coalesced: mode 1; strided by 128; 16-byte vectors; partial non-contiguous: mode 2
        "0000 ffffffff 1 R8 LDG.E 1 R2 4 1 0x00007f00000c0000 4 0\n",
        " LDG.E 1 R2 4 1 0x00007f00000c0000 128 0\n",
        "00a0 ffffffff 1 R24 LDG.E.128 1 R2 16 1 0x00007f00000c0000 16 0\n",
        "0060 0f0f00f1 0 STG.E 2 R2 R4 4 2 0x00007f00000c2000 16 4 4 4 36 4 4 4 20 4 4 4 0\n",
        "1 R20 ATOMG.E.ADD.STRONG.GPU 2 R2 R4 4 1 0x00007f00000c3000 0 0\n",
        // a read-modify-write is a load and a store at the next PC that stores what it loaded
        "00e0 ffffffff 1 R28 LDG.E 1 R2 4 1 0x00007f00000c5000 4 0\n"
        "00f0 ffffffff 0 STG.E 2 R2 R28 4 1 0x00007f00000c5000 4 0\n",
        // lane 0 stores to the address it loaded with the 16-byte load (R24): conservatively,
        // the store waits for that load
        " LDG.E.U8 1 R2 1 1 ", " STG.E.U16 2 R2 R24 2 1 ", " LDG.E.96 1 R2 12 1 ",
        " ATOMG.E.ADD.64.STRONG.GPU 2 R2 R4 8 2 ", "0000ffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 0\n",
        "\n#END_TB\n"}) {
    EXPECT_NE(text.find(header), std::string::npos) << "missing: " << header;
  }
  // Every warp, the empty block's included, has as many lines as it declares and ends in EXIT.
  const auto lines = lines_of(text);
  std::size_t warps = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("insts = ")) {
      const std::size_t count = std::stoul(lines[i].substr(8));
      ASSERT_LT(i + count, lines.size());
      EXPECT_NE(lines[i + count].find(" EXIT 0 0 0"), std::string::npos) << "line " << i + count;
      for (std::size_t k = 1; k < count; ++k) {
        EXPECT_EQ(lines[i + k].find("EXIT"), std::string::npos);
      }
      EXPECT_TRUE(lines[i + count + 1].empty()) << "line " << i + count + 1;
      ++warps;
    }
  }
  EXPECT_EQ(warps, 6u * 3u);
}

TEST(AccelsimExport, SnapshotGridRunsOnlyTheTracedBlocks) {
  const std::string dir = scratch_dir("export-grid");
  ExportOptions options;
  options.snapshot_grid = true;
  export_trace(build_trace(dir), dir + "/out", options);
  EXPECT_NE(read_text(dir + "/out/kernel-1.traceg").find("-grid dim = (6,1,1)\n"),
            std::string::npos);
}

TEST(AccelsimExport, RefusesATruncatedTrace) {
  const std::string dir = scratch_dir("export-truncated");
  const std::string path = dir + "/cut.mct";
  {
    tracebuf::TraceWriter writer(path, {});
    writer.write_loads(std::vector<tracebuf::LoadInfo>{});
  }
  EXPECT_THROW(export_trace(path, dir + "/out"), tracebuf::TraceError);
}

}  // namespace
}  // namespace memcarlo::accelsim
