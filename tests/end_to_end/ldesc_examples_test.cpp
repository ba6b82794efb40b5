// The Locality Descriptors written in the bundled examples (memcarlo/locality_descriptor.h),
// through memcarlo-cc (host backend) and `memcarlo run`: recorded with the device addresses of the
// data structures, valid for their launches (tracebuf::check_descriptors), with the tiles worked
// out by hand from each kernel; stencil2d's ping-pong buffers swap their descriptors from one
// launch to the next (records apply from the next launch on).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/run_command.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::tracebuf::Dim3;
using memcarlo::tracebuf::LocalityDescriptor;
using memcarlo::tracebuf::LocalityType;
using memcarlo::tracebuf::TraceReader;

const std::string kBinaryDir = MEMCARLO_BINARY_DIR;
const std::string kMemcarlo = kBinaryDir + "/cli/memcarlo";
const std::string kCc = kBinaryDir + "/cli/memcarlo-cc";
const std::string kExamples = std::string(MEMCARLO_SOURCE_DIR) + "/examples";

memcarlo::test_support::CommandResult run(const std::string& command) {
  return memcarlo::test_support::run_command(command + " 2>&1");
}

/// Builds and traces examples/<source> (`run_args` to memcarlo run, `args` to the program);
/// returns the trace's path.
std::string traced(const std::string& source, const std::string& run_args,
                   const std::string& args) {
  const fs::path dir = fs::temp_directory_path() / ("memcarlo-ldesc-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string exe = (dir / fs::path(source).stem()).string();
  const auto built = run(kCc + " --backend host -std=c++17 -O2 " + kExamples + "/" + source +
                         " -o " + exe);
  EXPECT_EQ(built.exit_code, 0) << built.output;
  const auto ran = run(kMemcarlo + " run -H ldesc-gtx480 " + run_args + " --trace " + exe +
                       ".mct -- " + exe + " " + args);
  EXPECT_EQ(ran.exit_code, 0) << ran.output;
  return exe + ".mct";
}

/// Launch `launch`'s descriptors, checked against it, in the order recorded.
std::vector<LocalityDescriptor> descriptors(const TraceReader& reader, std::uint32_t launch) {
  auto out = memcarlo::tracebuf::recorded_descriptors(reader.annotations_json(), launch);
  EXPECT_NO_THROW(memcarlo::tracebuf::check_descriptors(out, reader.launches()[launch].info.grid,
                                                        reader.allocations()));
  return out;
}

const memcarlo::tracebuf::Allocation* allocation_at(const TraceReader& reader,
                                                    std::uint64_t address) {
  for (const auto& allocation : reader.allocations()) {
    if (allocation.base == address) return &allocation;
  }
  return nullptr;
}

TEST(LdescExamples, TransposeNaiveDescribesItsTilesWithTheSwappedMap) {
  const auto reader = TraceReader::open(
      traced("transpose/transpose_naive.cu", "", "--rows 256 --cols 128"));
  const auto list = descriptors(reader, 0);
  ASSERT_EQ(list.size(), 2u);
  const LocalityDescriptor& in = list[0];
  const LocalityDescriptor& out = list[1];
  EXPECT_EQ(in.type, LocalityType::kNoReuse);
  EXPECT_EQ(in.shape, (Dim3{128, 256, 1}));     // cols x rows
  EXPECT_EQ(in.data_tiles(), (Dim3{4, 8, 1}));  // = the grid, block (bx, by) its tile
  EXPECT_EQ(reader.launches()[0].info.grid, (Dim3{4, 8, 1}));
  EXPECT_EQ(out.type, LocalityType::kInterThread);
  EXPECT_EQ(out.shape, (Dim3{256, 128, 1}));  // rows x cols
  EXPECT_EQ(out.data_tiles(), (Dim3{8, 4, 1}));
  EXPECT_EQ(out.compute_data_map, (Dim3{2, 1, 3}));
  ASSERT_NE(allocation_at(reader, out.address), nullptr);
  EXPECT_EQ(allocation_at(reader, out.address)->size, out.size);
}

TEST(LdescExamples, StencilBuffersSwapDescriptorsEveryStep) {
  const auto reader = TraceReader::open(
      traced("stencil/stencil2d.cu", "--launch all", "--width 64 --height 32 --steps 3"));
  ASSERT_EQ(reader.launches().size(), 3u);
  std::vector<std::uint64_t> in_address;
  for (std::uint32_t launch = 0; launch < 3; ++launch) {
    const auto list = descriptors(reader, launch);
    ASSERT_EQ(list.size(), 2u) << "launch " << launch;
    EXPECT_EQ(list[0].type, LocalityType::kInterThread);
    EXPECT_EQ(list[0].sharing, memcarlo::tracebuf::SharingType::kNearby);
    EXPECT_EQ(list[0].data_tile, (Dim3{32, 8, 1}));  // one block's cells
    EXPECT_EQ(list[1].type, LocalityType::kNoReuse);
    EXPECT_NE(list[0].address, list[1].address);
    in_address.push_back(list[0].address);
    if (launch > 0) {
      EXPECT_EQ(list[0].address, descriptors(reader, launch - 1)[1].address);
    }
  }
  EXPECT_NE(in_address[0], in_address[1]);
  EXPECT_EQ(in_address[0], in_address[2]);
}

TEST(LdescExamples, HistogramAndSpmvDescribeWholeStructuresPerGrid) {
  const auto histogram = TraceReader::open(traced("histogram/histogram.cu", "", "--values 65536"));
  const auto hist = descriptors(histogram, 0);
  ASSERT_EQ(hist.size(), 2u);
  EXPECT_EQ(hist[0].type, LocalityType::kNoReuse);  // values
  EXPECT_EQ(hist[1].name, "bins");
  EXPECT_EQ(hist[1].compute_tile, histogram.launches()[0].info.grid);

  const auto spmv = TraceReader::open(traced("spmv/spmv_scalar.cu", "", ""));
  const auto list = descriptors(spmv, 0);
  ASSERT_EQ(list.size(), 5u);
  EXPECT_EQ(list[0].name, "y");
  EXPECT_EQ(list[0].pattern, memcarlo::tracebuf::AccessPattern::kIrregular);
  EXPECT_EQ(list[1].type, LocalityType::kIntraThread);  // the scalar kernel walks its row
  EXPECT_EQ(list[3].sharing, memcarlo::tracebuf::SharingType::kNearby);  // rowIndices
}

}  // namespace
