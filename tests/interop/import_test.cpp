// Import of hand-written traces in the format of Accel-Sim's NVBit tracer: address modes, thread
// blocks and warps, what is dropped, sizes and kinds from opcodes, static ids, barriers, variants.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "interop_test_util.hpp"
#include "memcarlo/accelsim/accelsim.hpp"

namespace memcarlo::accelsim {
namespace {

using testing::active_addresses;
using testing::all_records;
using testing::block_text;
using testing::kernel_text;
using testing::scratch_dir;
using testing::warp_text;
using testing::write_text;
using tracebuf::AccessKind;
using tracebuf::TraceReader;

/// Imports one kernel given as .traceg text; returns the output path.
std::string import_kernel(const std::string& name, const std::string& text,
                          ImportStats* stats = nullptr) {
  const std::string dir = scratch_dir(name);
  write_text(dir + "/kernel-1.traceg", text);
  const std::string output = dir + "/out.mct";
  const ImportStats result = import_trace(dir + "/kernel-1.traceg", output);
  if (stats != nullptr) {
    *stats = result;
  }
  return output;
}

TEST(AccelsimImport, AddressModeZeroListsEveryActiveLane) {
  const auto path = import_kernel(
      "mode0", kernel_text(block_text(
                   "0,0,0", warp_text(0, {"0010 00000005 1 R2 LDG.E 1 R4 4 0 0x1000 0x2000 0"}))));
  const auto records = all_records(TraceReader::open(path));
  ASSERT_EQ(records.size(), 1u);
  const auto& record = records.begin()->second.at(0);
  EXPECT_EQ(record.active_mask, 0x5u);
  EXPECT_EQ(active_addresses(record), (std::vector<std::uint64_t>{0x1000, 0x2000}));
}

TEST(AccelsimImport, AddressModeOneIsBaseAndStridePerActiveLane) {
  const auto path = import_kernel(
      "mode1",
      kernel_text(block_text(
          "0,0,0", warp_text(0, {"0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x00007f0a2c000000 4 0",
                                 "0020 000000f0 1 R2 LDG.E 1 R4 4 1 0x00007f0a2c000100 -8 0"}))));
  const auto records = all_records(TraceReader::open(path)).begin()->second;
  ASSERT_EQ(records.size(), 2u);
  for (unsigned lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(records[0].addresses[lane], 0x7f0a2c000000u + 4 * lane);
  }
  EXPECT_EQ(records[1].active_mask, 0xF0u);
  EXPECT_EQ(
      active_addresses(records[1]),
      (std::vector<std::uint64_t>{0x7f0a2c000100, 0x7f0a2c0000f8, 0x7f0a2c0000f0, 0x7f0a2c0000e8}));
}

TEST(AccelsimImport, AddressModeTwoHasOneDeltaFewerThanActiveLanesEachFromThePreviousLane) {
  // Four active lanes: base plus three deltas, then the immediate "0" that must not be read as a
  // fourth delta; the same line from a tracer without immediates (version 3) is accepted too.
  const std::string with_immediate = "0030 0000000f 0 STG.E 2 R2 R6 4 2 0x5000 8 -16 4096 0";
  const std::string without_immediate = "0040 0000000f 0 STG.E 2 R2 R6 4 2 0x5000 8 -16 4096";
  const auto path = import_kernel(
      "mode2", kernel_text(block_text("0,0,0", warp_text(0, {with_immediate, without_immediate}))));
  const auto records = all_records(TraceReader::open(path)).begin()->second;
  ASSERT_EQ(records.size(), 2u);
  const std::vector<std::uint64_t> expected = {0x5000, 0x5008, 0x4ff8, 0x5ff8};
  EXPECT_EQ(active_addresses(records[0]), expected);
  EXPECT_EQ(active_addresses(records[1]), expected);
  EXPECT_EQ(records[0].kind, AccessKind::kWrite);
}

TEST(AccelsimImport, BlocksAndWarpsBecomeWarpStreamsInFileOrder) {
  const std::string load = "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 0";
  const std::string exit = "0090 ffffffff 0 EXIT 0 0 0";
  // Two blocks of 80 threads (3 warps, the last with 16 lanes), listed out of grid order and with
  // warps out of order; one warp has no memory instruction at all.
  const std::string body =
      block_text("1,0,0", warp_text(2, {"0010 0000ffff 1 R2 LDG.E 1 R4 4 1 0x30000 4 0", exit}) +
                              warp_text(0, {load, exit})) +
      block_text("0,0,0", warp_text(0, {exit}) + warp_text(1, {load, load, exit}));
  ImportStats stats;
  const auto path = import_kernel(
      "blocks", kernel_text(body, "(2,1,1)", "(80,1,1)", "-memory extra = kept verbatim\n"),
      &stats);
  const auto reader = TraceReader::open(path);
  ASSERT_EQ(reader.launches().size(), 1u);
  const auto& info = reader.launches()[0].info;
  EXPECT_EQ(info.kernel, "_Z6kernelPf");
  EXPECT_EQ(info.grid, (tracebuf::Dim3{2, 1, 1}));
  EXPECT_EQ(info.block, (tracebuf::Dim3{80, 1, 1}));
  EXPECT_EQ(info.registers_per_thread, 16u);
  EXPECT_EQ(info.snapshot_first_block, 0u);
  EXPECT_EQ(info.snapshot_block_count, 2u);
  EXPECT_EQ(info.sequence_in_program, 0u);  // "-kernel id = 1"
  const auto records = all_records(reader);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records.at({0, 0, 2}).at(0).addresses[15], 0x30000u + 60);
  EXPECT_EQ(records.at({0, 0, 0}).size(), 1u);
  EXPECT_EQ(records.at({0, 1, 1}).size(), 2u);
  EXPECT_EQ(stats.blocks, 2u);
  EXPECT_EQ(stats.warps, 4u);
  EXPECT_EQ(stats.instructions, 8u);
  EXPECT_EQ(stats.records, 4u);
  EXPECT_NO_THROW(tracebuf::check_invariants(reader));
  const auto properties = nlohmann::json::parse(reader.meta().properties_json);
  EXPECT_EQ(properties["accelsim"]["kernels"][0]["header"]["memory extra"], "kept verbatim");
  EXPECT_EQ(reader.meta().backend, "accelsim");
}

TEST(AccelsimImport, SharedLocalConstantAndTextureAccessesAreDropped) {
  const std::string body = block_text(
      "0,0,0", warp_text(0, {"0010 ffffffff 1 R2 LDS 1 R4 4 1 0x00007f0a30000000 4 0",
                             "0020 ffffffff 0 STS 2 R4 R5 4 1 0x00007f0a30000080 4 0",
                             "0030 ffffffff 1 R2 LDL 1 R1 4 1 0x00007f0a2e000000 4 0",
                             "0040 ffffffff 0 STL.64 2 R1 R6 8 1 0x00007f0a2e000000 8 0",
                             "0050 ffffffff 1 R2 LDC 1 R1 4 1 0x0 0 0",
                             "0060 ffffffff 1 R2 ATOMS.ADD 2 R4 R5 4 1 0x00007f0a30000000 4 0",
                             "0070 ffffffff 1 R2 TEX.SCR.B.LL 2 R4 R5 4 1 0x9000 4 0",
                             "0080 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 0",
                             // Generic accesses: all lanes in the shared window, then in the local
                             // window, then half global and half shared.
                             "0090 ffffffff 1 R2 LD.E 1 R4 4 1 0x00007f0a30000000 4 0",
                             "00a0 ffffffff 0 ST.E 2 R4 R5 4 1 0x00007f0a2e000000 4 0",
                             "00b0 0000000f 1 R2 LD.E 1 R4 4 0 0x20000 0x20004 0x00007f0a30000000 "
                             "0x00007f0a30000004 0",
                             "00c0 ffffffff 0 EXIT 0 0 0"}));
  ImportStats stats;
  const auto path = import_kernel("dropped", kernel_text(body), &stats);
  const auto reader = TraceReader::open(path);
  const auto records = all_records(reader).begin()->second;
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].addresses[0], 0x10000u);
  EXPECT_EQ(records[1].active_mask, 0x3u);
  EXPECT_EQ(active_addresses(records[1]), (std::vector<std::uint64_t>{0x20000, 0x20004}));
  EXPECT_EQ(stats.dropped_shared, 4u);  // LDS, STS, ATOMS, generic LD in the shared window
  EXPECT_EQ(stats.dropped_local, 3u);   // LDL, STL, generic ST in the local window
  EXPECT_EQ(stats.dropped_constant, 1u);
  EXPECT_EQ(stats.dropped_texture, 1u);
  EXPECT_EQ(stats.generic_lanes_dropped, 64u + 2u);
  EXPECT_EQ(reader.loads().size(), 2u);
}

TEST(AccelsimImport, ElementSizeAndKindComeFromTheOpcode) {
  struct Case {
    const char* opcode;
    std::uint32_t size;
    AccessKind kind;
  };
  const Case cases[] = {
      {"LDG.E", 4, AccessKind::kRead},
      {"LDG.E.U8", 1, AccessKind::kRead},
      {"LDG.E.S16", 2, AccessKind::kRead},
      {"LDG.E.64", 8, AccessKind::kRead},
      {"LDG.E.128.CONSTANT", 16, AccessKind::kRead},
      {"LDG.E.LTC128B.128", 16, AccessKind::kRead},  // LTC128B is a cache hint, not a size
      {"LDG.E.EL.SYS", 4, AccessKind::kRead},
      {"STG.E.U16", 2, AccessKind::kWrite},
      {"STG.E.128", 16, AccessKind::kWrite},
      {"ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU", 4, AccessKind::kAtomic},
      {"ATOMG.E.ADD.F64.RN.STRONG.GPU", 8, AccessKind::kAtomic},
      {"ATOMG.E.CAS.64.STRONG.GPU", 8, AccessKind::kAtomic},
      {"ATOM.E.ADD.STRONG.GPU", 4, AccessKind::kAtomic},
      {"RED.E.ADD.STRONG.GPU", 4, AccessKind::kAtomic},
      {"ATOMG.E.ADD.F16x2.RN.STRONG.GPU", 4, AccessKind::kAtomic},
  };
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    char line[160];
    std::snprintf(line, sizeof line, "%04zx ffffffff 1 R2 %s 1 R4 4 1 0x%zx 4 0", 0x10 * (i + 1),
                  cases[i].opcode, 0x100000 * (i + 1));
    lines.emplace_back(line);
  }
  const auto reader = TraceReader::open(
      import_kernel("sizes", kernel_text(block_text("0,0,0", warp_text(0, lines)))));
  const auto records = all_records(reader).begin()->second;
  ASSERT_EQ(records.size(), std::size(cases));
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    SCOPED_TRACE(cases[i].opcode);
    EXPECT_EQ(records[i].element_size, cases[i].size);
    EXPECT_EQ(records[i].kind, cases[i].kind);
    EXPECT_EQ(reader.loads()[records[i].static_id].element_size, cases[i].size);
  }
}

TEST(AccelsimImport, EachDistinctPcOfAKernelIsOneStaticAccess) {
  const std::string a = "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 0";
  const std::string b = "0020 ffffffff 0 STG.E 2 R4 R5 4 1 0x20000 4 0";
  const std::string dir = scratch_dir("static-ids");
  const std::string body = block_text("0,0,0", warp_text(0, {a, b, a, b}) + warp_text(1, {b, a}));
  write_text(dir + "/kernel-1.traceg", kernel_text(body, "(1,1,1)", "(64,1,1)", "", "first"));
  write_text(dir + "/kernel-2.traceg", kernel_text(body, "(1,1,1)", "(64,1,1)", "", "second"));
  write_text(dir + "/kernel-3.traceg", kernel_text(body, "(1,1,1)", "(64,1,1)", "", "first"));
  write_text(dir + "/kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\nkernel-3.traceg\n");
  import_trace(dir + "/kernelslist.g", dir + "/out.mct");
  const auto reader = TraceReader::open(dir + "/out.mct");
  ASSERT_EQ(reader.loads().size(), 4u);  // two PCs in each of two kernels
  EXPECT_EQ(reader.loads()[0].function, "first");
  EXPECT_EQ(reader.loads()[0].kernels, std::vector<std::string>{"first"});
  EXPECT_EQ(reader.loads()[0].expression, "LDG.E @ 0x0010");
  EXPECT_EQ(reader.loads()[1].expression, "STG.E @ 0x0020");
  EXPECT_EQ(reader.loads()[1].kind, AccessKind::kWrite);
  EXPECT_EQ(nlohmann::json::parse(reader.loads()[1].extra_json)["accelsim_pc"], 0x20);
  EXPECT_EQ(reader.loads()[2].function, "second");
  const auto records = all_records(reader);
  EXPECT_EQ(records.at({2, 0, 0})[2].static_id, 0u);  // third launch: kernel "first" again
  EXPECT_EQ(records.at({1, 0, 1})[0].static_id, 3u);
  EXPECT_NO_THROW(tracebuf::check_invariants(reader));
}

TEST(AccelsimImport, BarriersCountTowardsTheNextRecordOfTheWarp) {
  const std::string load = "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 0";
  const std::string bar = "0020 ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 0";
  const std::string arrive = "0030 ffffffff 0 BAR.ARV 0 0 0";
  const auto records = all_records(TraceReader::open(import_kernel(
      "barriers", kernel_text(block_text(
                      "0,0,0", warp_text(0, {bar, load, load, bar, arrive, bar, load, bar}))))));
  const auto& warp = records.begin()->second;
  ASSERT_EQ(warp.size(), 3u);
  EXPECT_EQ(warp[0].barriers, 1u);
  EXPECT_EQ(warp[1].barriers, 0u);
  EXPECT_EQ(warp[2].barriers, 2u);
}

TEST(AccelsimImport, LineInfoGivesTheSourceLine) {
  const auto reader = TraceReader::open(import_kernel(
      "lineinfo",
      kernel_text(block_text("0,0,0", warp_text(0, {"42 0010 ffffffff 1 R2 LDG.E 1 R4 4 1 "
                                                    "0x10000 4 0"})),
                  "(1,1,1)", "(64,1,1)", "-enable lineinfo = 1\n")));
  ASSERT_EQ(reader.loads().size(), 1u);
  EXPECT_EQ(reader.loads()[0].line, 42u);
}

TEST(AccelsimImport, OldTracerLinesLeadWithBlockAndWarpIds) {
  // Tracer version 2 wrote "tb_x tb_y tb_z warp" before each instruction; without a version line
  // the layout is recognised from the first instruction line.
  const std::string old_line = "0 0 0 0 0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4";
  for (const char* version : {"-accelsim tracer version = 2\n", ""}) {
    std::string text =
        kernel_text(block_text("0,0,0", warp_text(0, {old_line})), "(1,1,1)", "(64,1,1)", version);
    const std::string marker = "-accelsim tracer version = 4\n";
    text.erase(text.find(marker), marker.size());
    const auto records = all_records(TraceReader::open(import_kernel("v2", text)));
    ASSERT_EQ(records.size(), 1u) << version;
    EXPECT_EQ(records.begin()->second.at(0).addresses[31], 0x10000u + 124);
  }
}

TEST(AccelsimImport, KernelslistMemcpyLinesAreIgnoredWithANote) {
  const std::string dir = scratch_dir("memcpy");
  write_text(dir + "/kernel-1.traceg",
             kernel_text(block_text("0,0,0", warp_text(0, {"0010 ffffffff 0 EXIT 0 0 0"}))));
  write_text(dir + "/kernelslist.g",
             "MemcpyHtoD,0x00007f0a2c000000,4096\n\nkernel-1.traceg\nMemcpyDtoH,0x1000,16\n");
  // A directory holding a kernelslist.g is accepted too.
  const ImportStats stats = import_trace(dir, dir + "/out.mct");
  EXPECT_EQ(stats.memcpy_lines, 2u);
  ASSERT_EQ(stats.notes.size(), 1u);
  EXPECT_NE(stats.notes[0].find("memcpy"), std::string::npos);
  EXPECT_EQ(TraceReader::open(dir + "/out.mct").launches().at(0).info.snapshot_block_count, 1u);
}

TEST(AccelsimImport, ProgressIsReported) {
  std::vector<std::string> lines(5000, "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 0");
  const std::string dir = scratch_dir("progress");
  write_text(dir + "/kernel-1.traceg", kernel_text(block_text("0,0,0", warp_text(0, lines))));
  std::vector<std::string> phases;
  std::uint64_t last_done = 0, total = 0;
  ImportOptions options;
  options.progress_interval = 1;
  options.progress = [&](const Progress& p) {
    if (phases.empty() || phases.back() != p.phase) {
      phases.emplace_back(p.phase);
    }
    last_done = p.done;
    total = p.total;
  };
  const auto stats = import_trace(dir + "/kernel-1.traceg", dir + "/out.mct", options);
  EXPECT_EQ(phases, (std::vector<std::string>{"scan", "import"}));
  EXPECT_EQ(total, stats.input_bytes);
  EXPECT_GT(last_done, 0u);
  EXPECT_EQ(stats.records, 5000u);
}

}  // namespace
}  // namespace memcarlo::accelsim
