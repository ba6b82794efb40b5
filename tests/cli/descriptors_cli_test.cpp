// `memcarlo descriptors TRACE` against descriptors worked out by hand from synthetic kernels whose
// index forms are known (memcarlo synth matmul and stencil2d), its notes for data-dependent
// accesses (spmv), and `simulate --descriptors FILE` / `sweep --descriptors FILE` with good and bad
// files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/run_command.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo {
namespace {

using test_support::CommandResult;
using tracebuf::Dim3;
using tracebuf::LocalityDescriptor;

const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";

std::filesystem::path scratch() {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("memcarlo-descriptors-cli-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

/// `memcarlo ARGUMENTS`: standard output only, or with standard error.
CommandResult memcarlo(const std::string& arguments, bool with_stderr = true) {
  return test_support::run_command(kMemcarlo + " " + arguments +
                                   (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

std::string synth(const std::string& name, const std::string& arguments) {
  const std::string path = (scratch() / (name + ".mct")).string();
  const CommandResult r = memcarlo("synth " + arguments + " -o " + path);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return path;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = (scratch() / name).string();
  std::ofstream(path) << text;
  return path;
}

std::uint64_t base_of(const std::string& trace, const std::string& allocation) {
  const auto reader = tracebuf::TraceReader::open(trace);
  for (const tracebuf::Allocation& a : reader.allocations()) {
    if (a.name == allocation)
      return a.base;
  }
  ADD_FAILURE() << "no allocation " << allocation;
  return 0;
}

/// The proposals for `trace`, read back by parse_descriptors (which also checks them).
std::vector<LocalityDescriptor> proposals(const std::string& trace, std::string* text = nullptr) {
  const CommandResult r = memcarlo("descriptors " + trace, false);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  if (text != nullptr)
    *text = r.output;
  return tracebuf::parse_descriptors(r.output);
}

// matmul, N = 64, blocks of 16 x 8 threads: grid (4, 8). A[row*N + k] with row = blockIdx.y*8 +
// threadIdx.y: a block reads rows 8*by .. 8*by + 7 whole (k = 0..63), one contiguous run of
// 8 x 64 = 512 elements, and blockIdx.x does not move it: the 4 blocks of a grid row share it.
// B[k*N + col] with col = blockIdx.x*16 + threadIdx.x: a block reads columns 16*bx .. 16*bx + 15
// of every row (a strip at a pitch of 64), and blockIdx.y does not move it: the 8 blocks of a
// grid column share it -- the paper's histo tile (X_tile, Y_len, 1) with C-Tile (1, GridDim.y, 1).
TEST(DescriptorsCommand, MatmulGivesARowBandOfAAndAColumnStripOfB) {
  const std::string trace =
      synth("matmul", "--pattern matmul --size 64 --threads 128 --block-width 16");
  std::string text;
  const std::vector<LocalityDescriptor> d = proposals(trace, &text);
  ASSERT_EQ(d.size(), 3u) << text;
  const LocalityDescriptor& a = d[0];
  EXPECT_EQ(a.name, "A");
  EXPECT_EQ(a.address, base_of(trace, "A"));
  EXPECT_EQ(a.size, 64u * 64 * 4);
  EXPECT_EQ(a.element_size, 4u);
  EXPECT_EQ(a.shape, (Dim3{4096, 1, 1}));
  EXPECT_EQ(a.data_tile, (Dim3{512, 1, 1}));
  EXPECT_EQ(a.compute_tile, (Dim3{4, 1, 1}));
  EXPECT_EQ(a.compute_data_map, (Dim3{0, 1, 0}));  // D-Tile t is grid row t
  EXPECT_EQ(a.type, tracebuf::LocalityType::kInterThread);
  EXPECT_EQ(a.sharing, tracebuf::SharingType::kCoaccessed);
  EXPECT_EQ(a.stride, 1);  // k walks A's row
  const LocalityDescriptor& b = d[1];
  EXPECT_EQ(b.name, "B");
  EXPECT_EQ(b.address, base_of(trace, "B"));
  EXPECT_EQ(b.shape, (Dim3{64, 64, 1}));
  EXPECT_EQ(b.data_tile, (Dim3{16, 64, 1}));
  EXPECT_EQ(b.compute_tile, (Dim3{1, 8, 1}));
  EXPECT_EQ(b.compute_data_map, (Dim3{1, 0, 0}));
  EXPECT_EQ(b.sharing, tracebuf::SharingType::kCoaccessed);
  EXPECT_EQ(b.stride, 64);  // k walks B's column: one row pitch
  // C[row*N + col]: blockIdx.x moves a block's part 16 elements, blockIdx.y 8 rows of 64: its
  // own 16 x 8 tile, shared with no other block.
  const LocalityDescriptor& c = d[2];
  EXPECT_EQ(c.name, "C");
  EXPECT_EQ(c.shape, (Dim3{64, 64, 1}));
  EXPECT_EQ(c.data_tile, (Dim3{16, 8, 1}));
  EXPECT_EQ(c.compute_tile, (Dim3{1, 1, 1}));
  EXPECT_EQ(c.compute_data_map, (Dim3{1, 2, 0}));
  EXPECT_EQ(c.type, tracebuf::LocalityType::kNoReuse);
  EXPECT_EQ(c.sharing, tracebuf::SharingType::kCoaccessed);
  // Priorities by L2 requests (one trial on fermi-c2050): B's column walk misses the L1 on 22 % of
  // its 8,192 transactions, A's row walk on 3 % of 16,384, C's 256 stores all leave it: B first,
  // C last.
  EXPECT_EQ(b.priority, 3u);
  EXPECT_EQ(a.priority, 2u);
  EXPECT_EQ(c.priority, 1u);
  // Each names the kernel and launch shape it was proposed for.
  for (const tracebuf::ScopedDescriptor& scoped : tracebuf::parse_descriptor_file(text)) {
    EXPECT_EQ(scoped.scope.kernel, tracebuf::TraceReader::open(trace).launches()[0].info.kernel);
    EXPECT_EQ(scoped.scope.grid, (Dim3{4, 8, 1}));
    EXPECT_EQ(scoped.scope.block, (Dim3{16, 8, 1}));
  }
  // What it prints is what descriptor_file_to_json writes for what parse_descriptor_file reads
  // back.
  EXPECT_EQ(tracebuf::descriptor_file_to_json(tracebuf::parse_descriptor_file(text)), text);
  // And simulate takes it as it is.
  const std::string file = write_file("matmul.json", text);
  const CommandResult run = memcarlo("simulate " + trace + " --descriptors " + file +
                                     " --set schedule.cta=ldesc -n 2 -q -o " +
                                     (scratch() / "matmul-report.json").string());
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

// syrk, N = 64, blocks of 16 x 8 threads: grid (4, 8). One array read twice: A[i*N + k] with i =
// blockIdx.y*8 + threadIdx.y, rows 8*by .. 8*by + 7 (a run of 512 elements that blockIdx.x does
// not move: shared by a grid row), and A[j*N + k] with j = blockIdx.x*16 + threadIdx.x, rows
// 16*bx .. 16*bx + 15 (1024 elements that blockIdx.y does not move: shared by a grid column). No
// one tiling fits both; the paper lets a data structure have several descriptors (§3.3.2), so A
// gets one per access, each over the whole array, each with its own C-Tiles. Priorities rank the
// key data structure first (§3.3.5) by the L2 requests of its accesses (one trial on fermi-c2050,
// the default for a synthetic trace): C, each thread's own element, is read and written in each
// of the 64 iterations, and every one of those accesses leaves the L1 (its store invalidates the
// line the next read needs: 16,384 read and 16,384 write transactions); of A's bands, a warp
// reads 32 rows (64 lines) of the column band against one line of the row band, and misses more.
TEST(DescriptorsCommand, AnArrayReadByRowBandAndColumnBandGetsOneDescriptorForEach) {
  const std::string trace =
      synth("syrk", "--pattern syrk --size 64 --threads 128 --block-width 16");
  const CommandResult r = memcarlo("descriptors " + trace + " -o " +
                                   (scratch() / "syrk.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Standard error says which access each descriptor of A is for.
  EXPECT_NE(r.output.find("A load 2 (moved by blockIdx.y): one of 2 descriptors"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("A load 3 (moved by blockIdx.x): one of 2 descriptors"),
            std::string::npos)
      << r.output;
  std::string text;
  const std::vector<LocalityDescriptor> d = proposals(trace, &text);
  ASSERT_EQ(d.size(), 3u) << text;
  EXPECT_EQ(d[0].name, "C");
  EXPECT_EQ(d[0].data_tile, (Dim3{16, 8, 1}));
  EXPECT_EQ(d[0].compute_tile, (Dim3{1, 1, 1}));
  EXPECT_EQ(d[0].type, tracebuf::LocalityType::kNoReuse);
  const std::uint64_t a_base = base_of(trace, "A");
  const LocalityDescriptor& rows = d[1];
  EXPECT_EQ(rows.name, "A");
  EXPECT_EQ(rows.address, a_base);
  EXPECT_EQ(rows.size, 64u * 64 * 4);
  EXPECT_EQ(rows.shape, (Dim3{4096, 1, 1}));
  EXPECT_EQ(rows.data_tile, (Dim3{512, 1, 1}));
  EXPECT_EQ(rows.compute_tile, (Dim3{4, 1, 1}));
  EXPECT_EQ(rows.compute_data_map, (Dim3{0, 1, 0}));
  EXPECT_EQ(rows.type, tracebuf::LocalityType::kInterThread);
  EXPECT_EQ(rows.sharing, tracebuf::SharingType::kCoaccessed);
  const LocalityDescriptor& columns = d[2];
  EXPECT_EQ(columns.name, "A");
  EXPECT_EQ(columns.address, a_base);
  EXPECT_EQ(columns.size, 64u * 64 * 4);
  EXPECT_EQ(columns.shape, (Dim3{4096, 1, 1}));
  EXPECT_EQ(columns.data_tile, (Dim3{1024, 1, 1}));
  EXPECT_EQ(columns.compute_tile, (Dim3{1, 8, 1}));
  EXPECT_EQ(columns.compute_data_map, (Dim3{1, 0, 0}));
  EXPECT_EQ(columns.type, tracebuf::LocalityType::kInterThread);
  EXPECT_EQ(columns.sharing, tracebuf::SharingType::kCoaccessed);
  EXPECT_EQ(d[0].priority, 3u);
  EXPECT_EQ(columns.priority, 2u);
  EXPECT_EQ(rows.priority, 1u);
  // The LDesc scheduler and prefetcher take the two overlapping descriptors as they are.
  const std::string file = write_file("syrk.json", text);
  const CommandResult run = memcarlo("simulate " + trace + " --descriptors " + file +
                                     " --set prefetch.policy=ldesc -n 2 -q -o " +
                                     (scratch() / "syrk-report.json").string());
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

// stencil2d, N = 128, blocks of 32 x 4: grid (4, 32). in[y*N + x] and its four neighbours:
// blockIdx.x moves a block's part 32 elements, blockIdx.y 4 rows (4 x 128): 2-D D-Tiles of
// 32 x 4 over a 128 x 128 array, one CTA each, and the halo (x - 1, x + 1, y - 1, y + 1) reaches
// into the neighbours' tiles: NEARBY.
TEST(DescriptorsCommand, Stencil2dGivesNearbyTilesOfOneBlockEach) {
  const std::string trace =
      synth("stencil2d", "--pattern stencil2d --size 128 --threads 128 --block-width 32");
  const std::vector<LocalityDescriptor> d = proposals(trace);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].name, "in");
  EXPECT_EQ(d[0].shape, (Dim3{128, 128, 1}));
  EXPECT_EQ(d[0].size, 128u * 128 * 4);
  EXPECT_EQ(d[0].data_tile, (Dim3{32, 4, 1}));
  EXPECT_EQ(d[0].compute_tile, (Dim3{1, 1, 1}));
  EXPECT_EQ(d[0].compute_data_map, (Dim3{1, 2, 0}));
  EXPECT_EQ(d[0].type, tracebuf::LocalityType::kInterThread);
  EXPECT_EQ(d[0].sharing, tracebuf::SharingType::kNearby);
  EXPECT_EQ(d[0].stride, 128);
  // out[y*N + x]: the same tiles, each written by its own block only.
  EXPECT_EQ(d[1].name, "out");
  EXPECT_EQ(d[1].data_tile, (Dim3{32, 4, 1}));
  EXPECT_EQ(d[1].compute_tile, (Dim3{1, 1, 1}));
  EXPECT_EQ(d[1].type, tracebuf::LocalityType::kNoReuse);
  EXPECT_EQ(d[1].sharing, tracebuf::SharingType::kCoaccessed);
  // Priorities by L2 requests: in's five reads miss the L1 on about 1,500 of their 3,276
  // transactions, against out's 504 stores.
  EXPECT_EQ(d[0].priority, 2u);
  EXPECT_EQ(d[1].priority, 1u);
}

// rows, N = 64 floats a row, 4 blocks of 64 threads: thread g reads a[g*64 + k], k < 64. No
// block shares its part (64 rows), neighbouring threads are a 256-byte row apart and k steps
// 4 bytes: each thread re-reads each of its lines 31 times, INTRA-THREAD. With N = 16 (64-byte
// rows) two neighbours share each line they re-read: INTER-THREAD.
TEST(DescriptorsCommand, RowsReadByTheirOwnThreadAreIntraThreadAndSharedLinesInterThread) {
  const std::vector<LocalityDescriptor> own =
      proposals(synth("rows", "--pattern rows --size 64 --blocks 4 --threads 64"));
  ASSERT_EQ(own.size(), 2u);
  EXPECT_EQ(own[0].name, "a");
  EXPECT_EQ(own[0].type, tracebuf::LocalityType::kIntraThread);
  EXPECT_EQ(own[0].data_tile, (Dim3{64 * 64, 1, 1}));  // a block's 64 rows
  EXPECT_EQ(own[0].compute_tile, (Dim3{1, 1, 1}));
  EXPECT_EQ(own[0].stride, 1);
  EXPECT_EQ(own[1].name, "out");
  EXPECT_EQ(own[1].type, tracebuf::LocalityType::kNoReuse);  // written once, no loop
  const std::vector<LocalityDescriptor> shared =
      proposals(synth("rows16", "--pattern rows --size 16 --blocks 4 --threads 64"));
  ASSERT_EQ(shared.size(), 2u);
  EXPECT_EQ(shared[0].type, tracebuf::LocalityType::kInterThread);
  EXPECT_EQ(shared[1].type, tracebuf::LocalityType::kNoReuse);
}

TEST(DescriptorsCommand, DataDependentReadsGetNoDescriptorAndANote) {
  // spmv: indices[j], val[j] (j from rowIndices[row] to rowIndices[row + 1]) and y[indices[j]]
  // depend on loaded values; rowIndices[row], rowIndices[row + 1] and the store x[row] are
  // affine.
  const std::string trace = synth("spmv", "--pattern spmv --blocks 8 --threads 128");
  const CommandResult r =
      memcarlo("descriptors " + trace + " -o " + (scratch() / "spmv.json").string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const std::string array : {"indices", "val", "y"}) {
    EXPECT_NE(r.output.find("note: " + array + ": no descriptor: load "), std::string::npos)
        << array << "\n"
        << r.output;
  }
  EXPECT_NE(r.output.find("data_dependent"), std::string::npos) << r.output;
  std::ifstream in(scratch() / "spmv.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto d = tracebuf::parse_descriptors(text);
  ASSERT_EQ(d.size(), 2u) << text;
  EXPECT_EQ(d[0].name, "rowIndices");
  // 128 rows per block (one thread each) read rowIndices[row] and [row + 1]: 128-element tiles,
  // and the one past the last reaches into the next block's: NEARBY.
  EXPECT_EQ(d[0].data_tile, (Dim3{128, 1, 1}));
  EXPECT_EQ(d[0].compute_tile, (Dim3{1, 1, 1}));
  EXPECT_EQ(d[0].sharing, tracebuf::SharingType::kNearby);
  // The result x[row]: each block writes its own 128 elements.
  EXPECT_EQ(d[1].name, "x");
  EXPECT_EQ(d[1].data_tile, (Dim3{128, 1, 1}));
  EXPECT_EQ(d[1].type, tracebuf::LocalityType::kNoReuse);
}

TEST(DescriptorsCommand, ATraceWithoutIndexFormsOrABadLaunchIsRefused) {
  const std::string stream = synth("stream", "--pattern stream --blocks 4");
  CommandResult r = memcarlo("descriptors " + stream);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no index forms"), std::string::npos) << r.output;
  const std::string matmul = synth("matmul-small", "--pattern matmul --size 32 --threads 64");
  r = memcarlo("descriptors " + matmul + " --launch 3");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--launch 3"), std::string::npos) << r.output;
  r = memcarlo("descriptors --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("NEARBY"), std::string::npos) << r.output;
}

/// A one-descriptor file for the matmul-small trace (N = 32, blocks of 32 x 2: grid (1, 16)):
/// B's column strip, with `compute_tile` and an extra member given.
std::string descriptor_file(const std::string& name, const std::string& trace,
                            const std::string& compute_tile, const std::string& extra = "") {
  return write_file(name, R"({"descriptors": [{"name": "B", "address": )" +
                              std::to_string(base_of(trace, "B")) +
                              R"(, "size": 4096, "element_size": 4, "shape": [32, 32],
      "type": "INTER-THREAD", "data_tile": [32, 32, 1], "compute_tile": )" +
                              compute_tile + R"(, "compute_data_map": [1, 0, 0],
      "stride": 32)" + extra + "}]}");
}

TEST(DescriptorsOption, SimulateAndSweepTakeAGoodFileAndRefuseABadOneNamingFileAndField) {
  const std::string trace = synth("matmul-small", "--pattern matmul --size 32 --threads 64");
  const std::string out = (scratch() / "report.json").string();
  const std::string good = descriptor_file("good.json", trace, "[1, 16, 1]");
  CommandResult r = memcarlo("simulate " + trace + " --descriptors " + good +
                             " --set schedule.cta=ldesc -n 2 -q -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream report(out);
  const auto json = nlohmann::json::parse(report);
  EXPECT_EQ(json["inputs"]["hierarchy"]["parameters"]["ldesc.descriptors"], good);
  r = memcarlo("sweep " + trace + " --descriptors " + good +
               " --vary schedule.cta=round-robin,ldesc -n 2 -q -o " +
               (scratch() / "sweep.json").string());
  EXPECT_EQ(r.exit_code, 0) << r.output;

  // A misspelt key: refused before anything runs, naming the file and the field.
  const std::string typo = descriptor_file("typo.json", trace, "[1, 16, 1]", R"(, "priorty": 2)");
  for (const std::string command : {"simulate", "sweep"}) {
    r = memcarlo(command + " " + trace + " --descriptors " + typo + " -n 2 -q -o " + out +
                 (command == "sweep" ? " --vary schedule.cta=round-robin,ldesc" : ""));
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
    EXPECT_NE(r.output.find(typo), std::string::npos) << command << "\n" << r.output;
    EXPECT_NE(r.output.find("descriptors[0].priorty"), std::string::npos) << r.output;
  }
  // The same file through the hierarchy key: the compile refuses it, naming file and field.
  r = memcarlo("simulate " + trace + " --set ldesc.descriptors=" + typo + " -n 2 -q -o " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(typo + ": descriptors[0].priorty"), std::string::npos) << r.output;
  // Valid on its own but not for the launch: 3 CTAs do not divide the grid's 16 rows.
  const std::string tiles = descriptor_file("tiles.json", trace, "[1, 3, 1]");
  for (const std::string command : {"simulate", "sweep"}) {
    r = memcarlo(command + " " + trace + " --descriptors " + tiles + " -n 2 -q -o " + out +
                 (command == "sweep" ? " --vary schedule.cta=round-robin,ldesc" : ""));
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
    EXPECT_NE(r.output.find(tiles + ": descriptors[0].compute_tile.y"), std::string::npos)
        << command << "\n"
        << r.output;
  }
  // A file that is not there.
  r = memcarlo("simulate " + trace + " --descriptors " + (scratch() / "none.json").string() +
               " -n 2 -q -o " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("none.json: cannot be read"), std::string::npos) << r.output;
}

// `--descriptors FILE` alone turns on what the README says it runs with (schedule.cta=ldesc,
// placement.policy=ldesc); a --set of either key wins; the report lists each launch's
// descriptors.
TEST(DescriptorsOption, TurnsOnTheLdescSchedulerAndPlacementUnlessSetAndReportsEachLaunchs) {
  const std::string trace = synth("matmul-small", "--pattern matmul --size 32 --threads 64");
  const std::string out = (scratch() / "mechanisms-report.json").string();
  const std::string good = descriptor_file("mechanisms.json", trace, "[1, 16, 1]");
  CommandResult r = memcarlo("simulate " + trace + " --descriptors " + good + " -n 2 -q -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto report = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(report["inputs"]["hierarchy"]["parameters"]["schedule.cta"], "ldesc");
  EXPECT_EQ(report["inputs"]["hierarchy"]["parameters"]["placement.policy"], "ldesc");
  const auto& descriptors = report["inputs"]["launches"][0]["descriptors"];
  ASSERT_EQ(descriptors.size(), 1u) << report["inputs"]["launches"].dump(2);
  EXPECT_EQ(descriptors[0]["name"], "B");
  EXPECT_EQ(descriptors[0]["address"], base_of(trace, "B"));
  EXPECT_EQ(descriptors[0]["type"], "INTER-THREAD");
  // Your own --set wins, before or after --descriptors.
  r = memcarlo("simulate " + trace + " --set schedule.cta=bcs --descriptors " + good +
               " -n 2 -q -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  report = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(report["inputs"]["hierarchy"]["parameters"]["schedule.cta"], "bcs");
  EXPECT_EQ(report["inputs"]["hierarchy"]["parameters"]["placement.policy"], "ldesc");
  // So does a hierarchy file that names the key.
  const std::string hierarchy = write_file(
      "own-hierarchy.json", R"({"base": "fermi-c2050", "placement": {"policy": "interleaved"}})");
  r = memcarlo("simulate " + trace + " -H " + hierarchy + " --descriptors " + good +
               " -n 2 -q -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  report = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(report["inputs"]["hierarchy"]["parameters"]["schedule.cta"], "ldesc");
  EXPECT_EQ(report["inputs"]["hierarchy"]["parameters"]["placement.policy"], "interleaved");
  // Without descriptors a launch lists none.
  r = memcarlo("simulate " + trace + " -n 2 -q -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  report = nlohmann::json::parse(std::ifstream(out));
  EXPECT_TRUE(report["inputs"]["launches"][0]["descriptors"].empty());
  EXPECT_EQ(report["inputs"]["hierarchy"]["parameters"]["schedule.cta"], "round-robin");
}

}  // namespace
}  // namespace memcarlo
