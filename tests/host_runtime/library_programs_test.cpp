// Whole programs that use CUB and Thrust, which the host backend provides (CUB as its own
// implementation of CUB's API, its block and warp primitives traced in kernels and its
// device-wide algorithms on the CPU; Thrust from the toolkit's headers on its C++ device
// system), built with memcarlo-cc and run under `memcarlo run` (programs_fixture.h). The
// instrumenter parses <cub/...> and <thrust/...> with the toolkit's headers: without a CUDA
// toolkit every test here is skipped.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "memcarlo/tracebuf/reader.hpp"
#include "programs_fixture.h"

class HostLibraryPrograms : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!toolkit_with_thrust()) {
      GTEST_SKIP() << "no CUDA toolkit: the instrumenter parses <cub/...> and <thrust/...> with "
                      "the toolkit's headers, and Thrust is the toolkit's";
    }
  }

  /// Runs `exe` under `memcarlo run`: it must end with status 0 and print `Result = PASS` and no
  /// `FAILED`.
  static CommandResult run_and_pass(const std::string& exe) {
    const CommandResult result = memcarlo_run(exe);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
    EXPECT_FALSE(contains(result, "FAILED")) << result.output;
    return result;
  }
};

TEST_F(HostLibraryPrograms, CubBlockWarpAndDeviceAlgorithmsComputeAndTraceTheirAccesses) {
  // Without nvcc's register counts, which would compile the toolkit's CUB for the GPU.
  const std::string exe = build("programs", "cub_primitives", "--memcarlo-no-resources");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  EXPECT_TRUE(contains(result,
                       "runs on the CPU in the host backend; its memory accesses are not "
                       "traced"))
      << result.output;
  // Two blocks of 64 threads with 4 items each: BlockLoad (TRANSPOSE) reads, and BlockStore
  // (WARP_TRANSPOSE) writes, 512 consecutive ints, each warp instruction 32 consecutive ones
  // (striped and warp-striped accesses are coalesced; a blocked one would step by 16 bytes).
  const auto addresses = traced_addresses(exe + ".mct");
  for (const char* access :
       {"cub::BlockLoad::Load(block_itr, items)", "cub::BlockStore::Store(block_itr, items)"}) {
    ASSERT_TRUE(addresses.count(access)) << access << " is not in the trace";
    const auto& records = addresses.at(access);
    EXPECT_EQ(records.size(), 16u) << access;
    std::set<std::uint64_t> words;
    for (const auto& lanes : records) {
      ASSERT_EQ(lanes.size(), 32u) << access;
      for (std::size_t k = 0; k < lanes.size(); ++k) {
        EXPECT_EQ(lanes[k], lanes[0] + 4 * k) << access;
        words.insert(lanes[k]);
      }
    }
    ASSERT_EQ(words.size(), 512u) << access;
    EXPECT_EQ(*words.rbegin() - *words.begin(), 511u * 4) << access;
  }
  EXPECT_TRUE(addresses.count("sums[blockIdx.x]"));  // the kernel's own access, probed
  const CommandResult info = run(kMemcarlo + " trace info " + exe + ".mct");
  EXPECT_TRUE(contains(info, "not traced:   CUB's device-wide algorithms ran on the CPU"))
      << info.output;
}

// CUB's DevicePartition, DeviceRunLengthEncode, DeviceMergeSort and DeviceSegmentedRadixSort on
// the CPU, against the answers of CUB's documented examples, and WarpLoad, WarpExchange and
// WarpStore over logical warps of 16 lanes in a kernel (cub_more.cu checks every result and prints
// PASS). WarpLoad's reads are traced as CUB makes them: TRANSPOSE reads striped, each hardware
// warp's record two runs of 16 consecutive ints, one per logical warp's 64-int tile; DIRECT reads
// blocked, a lane's item 4 ints (16 bytes) from its neighbour's, and only the first 40 of a tile.
TEST_F(HostLibraryPrograms, CubWarpLoadStoreExchangeAndMoreDeviceAlgorithmsGiveCubsAnswers) {
  const std::string exe = build("programs", "cub_more", "--memcarlo-no-resources");
  run_and_pass(exe);
  const auto addresses = traced_addresses(exe + ".mct");
  const char* load = "cub::WarpLoad::Load(block_itr, items)";
  ASSERT_TRUE(addresses.count(load)) << load << " is not in the trace";
  std::size_t striped = 0;
  std::size_t blocked = 0;
  std::set<std::uint64_t> words;
  for (const auto& lanes : addresses.at(load)) {
    words.insert(lanes.begin(), lanes.end());
    bool two_runs = lanes.size() == 32;
    for (std::size_t k = 0; two_runs && k < 16; ++k) {
      two_runs = lanes[k] == lanes[0] + 4 * k && lanes[16 + k] == lanes[0] + 256 + 4 * k;
    }
    bool sixteen_bytes = lanes.size() == 20;  // lanes 0-9 of each logical warp: items < 40
    for (std::size_t k = 1; sixteen_bytes && k < 10; ++k) {
      sixteen_bytes = lanes[k] == lanes[0] + 16 * k && lanes[10 + k] == lanes[10] + 16 * k;
    }
    striped += two_runs ? 1 : 0;
    blocked += sixteen_bytes ? 1 : 0;
  }
  EXPECT_EQ(striped, 8u);  // 2 warps x 4 items
  EXPECT_EQ(blocked, 8u);
  EXPECT_EQ(addresses.at(load).size(), 16u);
  ASSERT_EQ(words.size(), 256u);  // the 4 tiles of 64 ints
  EXPECT_EQ(*words.rbegin() - *words.begin(), 255u * 4);
  EXPECT_TRUE(addresses.count("items[i]"));  // the kernel's own access, probed
}

// A program whose device work is all library code the host backend runs on the CPU launches no
// kernel: `memcarlo run` says so and names what it ran instead (its exit status is the
// program's; `memcarlo profile` stops there).
TEST_F(HostLibraryPrograms, AProgramWithOnlyDeviceWideLibraryCallsIsToldWhyNothingIsTraced) {
  const std::string exe = build("programs", "cub_device_only", "--memcarlo-no-resources");
  const CommandResult result = memcarlo_run(exe);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "sum = 4950")) << result.output;
  EXPECT_TRUE(contains(result, "launched no kernel: the trace has no launches. What it ran on the "
                               "device was library code the host backend runs on the CPU, "
                               "untraced (CUB's device-wide algorithms ran on the CPU"))
      << result.output;
  EXPECT_TRUE(contains(result, "memcarlo traces the kernels a program defines")) << result.output;
}

// The rest of CUB's device-wide algorithms (DeviceSegmentedSort, DeviceMerge,
// DeviceAdjacentDifference, DeviceFor, DeviceTransform, DeviceCopy and DeviceMemcpy::Batched,
// DeviceHistogram's multi-channel forms) on the CPU: cub_device_rest.cu checks each against
// answers worked by hand or given by CUB's documented examples and prints PASS.
TEST_F(HostLibraryPrograms, CubRemainingDeviceAlgorithmsGiveCubsAnswers) {
  const std::string exe = build("programs", "cub_device_rest", "--memcarlo-no-resources");
  const CommandResult result = run_and_pass(exe);
  EXPECT_TRUE(contains(result,
                       "runs on the CPU in the host backend; its memory accesses are not "
                       "traced"))
      << result.output;
}

// CUB's thread-level functions (ThreadReduce, internal::ThreadScanInclusive/Exclusive,
// LowerBound, UpperBound, MergePathSearch, StableOddEvenSort) in a kernel (cub_thread.cu checks
// every result against answers worked by hand and prints PASS).
TEST_F(HostLibraryPrograms, CubThreadFunctionsGiveCubsAnswers) {
  const std::string exe = build("programs", "cub_thread", "--memcarlo-no-resources");
  run_and_pass(exe);
}

// cub::WarpMergeSort over logical warps of 8 lanes in a kernel (cub_warp_merge_sort.cu checks
// each sorted tile against a stable sort on the host, and the member masks, and prints PASS). It
// makes no global accesses of its own: the trace holds the kernel's loads of the keys and stores of
// the sorted tiles, blocked (2 ints, 8 bytes, a lane), each hardware warp's record 32 lanes over
// four logical warps' tiles, and nothing recorded by CUB's headers.
TEST_F(HostLibraryPrograms, CubWarpMergeSortSortsEachLogicalWarpsTile) {
  const std::string exe = build("programs", "cub_warp_merge_sort", "--memcarlo-no-resources");
  run_and_pass(exe);
  const auto addresses = traced_addresses(exe + ".mct");
  for (const auto& [expression, records] : addresses) {
    EXPECT_EQ(expression.rfind("cub::", 0), std::string::npos)
        << expression << ": WarpMergeSort recorded an access";
  }
  for (const char* access :
       {"keys[tile + lane * kItems + i]", "sorted_keys[tile + lane * kItems + i]",
        "partial[tile + lane * kItems + i]"}) {
    ASSERT_TRUE(addresses.count(access)) << access << " is not in the trace";
    std::set<std::uint64_t> words;
    for (const auto& lanes : addresses.at(access)) {
      ASSERT_EQ(lanes.size(), 32u) << access;
      for (std::size_t k = 0; k < lanes.size(); ++k) {
        EXPECT_EQ(lanes[k], lanes[0] + 8 * k) << access;
      }
      words.insert(lanes.begin(), lanes.end());
    }
    EXPECT_EQ(words.size(), 64u) << access;  // the four tiles of 16 ints
  }
}

// cub::BlockRunLengthDecode in a kernel on CUB's documented example (cub_run_length_decode.cu
// checks the decoded windows, the offsets in the runs and the total, from lengths and from
// offsets, and prints PASS).
TEST_F(HostLibraryPrograms, CubBlockRunLengthDecodeGivesCubsExample) {
  const std::string exe = build("programs", "cub_run_length_decode", "--memcarlo-no-resources");
  run_and_pass(exe);
}

// cub::BlockRadixRank (blocked keys, ascending and descending, CUB's example) and
// BlockRadixRankMatch (warp-striped keys, the counts callback) in kernels (cub_radix_rank.cu
// checks the ranks and the digits' first ranks and counts and prints PASS).
TEST_F(HostLibraryPrograms, CubBlockRadixRankRanksBlockedAndWarpStripedKeys) {
  const std::string exe = build("programs", "cub_radix_rank", "--memcarlo-no-resources");
  run_and_pass(exe);
}

TEST_F(HostLibraryPrograms, ThrustRunsOnTheCpuAndKernelsOnItsVectorsAreTraced) {
  const std::string exe = build("programs", "thrust_vectors", "--memcarlo-no-resources");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  EXPECT_TRUE(contains(result, "Thrust runs on the CPU")) << result.output;
  void* storage = nullptr;
  const std::size_t at = result.output.find("storage ");
  ASSERT_NE(at, std::string::npos) << result.output;
  ASSERT_EQ(std::sscanf(result.output.c_str() + at, "storage %p", &storage), 1);
  // The kernel reads and writes all 100 ints of the device_vector, in its storage.
  const auto begin = reinterpret_cast<std::uintptr_t>(storage);
  const auto addresses = traced_addresses(exe + ".mct");
  ASSERT_TRUE(addresses.count("data[i]")) << "the kernel's accesses are not in the trace";
  std::set<std::uint64_t> words;
  for (const auto& lanes : addresses.at("data[i]")) {
    for (const std::uint64_t address : lanes) {
      EXPECT_GE(address, begin);
      EXPECT_LT(address, begin + 100 * sizeof(int));
      words.insert(address);
    }
  }
  EXPECT_EQ(words.size(), 100u);
  // The kernel given the device_ptr: its device_references read and write the same 100 ints.
  for (const char* access :
       {"ptr[i] (a thrust::device_ptr read)", "ptr[i] = value (a thrust::device_ptr write)"}) {
    ASSERT_TRUE(addresses.count(access)) << access << " is not in the trace";
    std::set<std::uint64_t> touched;
    for (const auto& lanes : addresses.at(access)) {
      for (std::size_t k = 0; k < lanes.size(); ++k) {
        EXPECT_EQ(lanes[k], lanes[0] + 4 * k) << access;
        touched.insert(lanes[k]);
      }
    }
    EXPECT_EQ(touched, words) << access;
  }
  const CommandResult info = run(kMemcarlo + " trace info " + exe + ".mct");
  EXPECT_TRUE(contains(info, "not traced:   Thrust's algorithms ran on the CPU")) << info.output;
}

TEST_F(HostLibraryPrograms, CubSortExchangeFlagsAndIteratorsComputeAndTraceTheirAccesses) {
  const std::string exe = build("programs", "cub_sort_exchange", "--memcarlo-no-resources");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  const auto addresses = traced_addresses(exe + ".mct");
  // BlockLoad (DIRECT) through a CacheModifiedInputIterator: the 256 ints of the tile, recorded
  // once each as BlockLoad's, blocked (lanes 4 items = 16 bytes apart).
  const char* load = "cub::BlockLoad::Load(block_itr, items)";
  ASSERT_TRUE(addresses.count(load)) << load << " is not in the trace";
  std::set<std::uint64_t> tile;
  for (const auto& lanes : addresses.at(load)) {
    ASSERT_EQ(lanes.size(), 32u);
    for (std::size_t k = 0; k < lanes.size(); ++k) {
      EXPECT_EQ(lanes[k], lanes[0] + 16 * k);
      tile.insert(lanes[k]);
    }
  }
  EXPECT_EQ(addresses.at(load).size(), 8u);
  ASSERT_EQ(tile.size(), 256u);
  EXPECT_EQ(*tile.rbegin() - *tile.begin(), 255u * 4);
  // One item per thread of 64: ArgIndexInputIterator's reads, ThreadLoad, ThreadStore and the
  // CacheModifiedOutputIterator's writes, each two coalesced warp records.
  for (const char* access :
       {"itr[i] (a CUB iterator reading ptr)", "cub::ThreadLoad<modifier>(ptr)",
        "cub::ThreadStore<modifier>(ptr, val)", "itr[i] = value (a CUB iterator writing ptr)"}) {
    ASSERT_TRUE(addresses.count(access)) << access << " is not in the trace";
    const auto& records = addresses.at(access);
    EXPECT_EQ(records.size(), 2u) << access;
    for (const auto& lanes : records) {
      ASSERT_EQ(lanes.size(), 32u) << access;
      for (std::size_t k = 0; k < lanes.size(); ++k) {
        EXPECT_EQ(lanes[k], lanes[0] + 4 * k) << access;
      }
    }
  }
}
