// A trace that claims huge sizes is refused when it is opened, before anything is allocated for
// what it claims (README, "Bounds"): more threads per block or a larger grid than CUDA allows,
// more than 2^24 traced blocks, or a snapshot whose end overflows 64 bits.
#include <gtest/gtest.h>

#include <string>

#include "memcarlo/tracebuf/format.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/writer.hpp"
#include "trace_test_util.hpp"

namespace memcarlo::tracebuf {
namespace {

using testing::temp_path;

/// The message of opening a trace whose one launch is `launch`, or "(opened)".
std::string open_message(const std::string& name, const LaunchInfo& launch) {
  const auto path = temp_path(name);
  {
    TraceWriter writer(path, TraceMeta{});
    writer.write_loads(std::vector<LoadInfo>{testing::make_load(0, AccessKind::kRead, "a[i]")});
    writer.begin_launch(launch);
    writer.finish();
  }
  try {
    (void)TraceReader::open(path);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "(opened)";
}

LaunchInfo launch_of(Dim3 grid, Dim3 block, std::uint64_t first, std::uint64_t count) {
  LaunchInfo launch;
  launch.grid = grid;
  launch.block = block;
  launch.snapshot_first_block = first;
  launch.snapshot_block_count = count;
  return launch;
}

TEST(TraceBounds, HugeClaimsAreRefusedWhenOpened) {
  EXPECT_EQ(open_message("bounds-ok", launch_of({1u << 24, 1, 1}, {1024, 1, 1}, 0, 1u << 24)),
            "(opened)");
  EXPECT_NE(open_message("bounds-threads", launch_of({1, 1, 1}, {64, 32, 1}, 0, 1))
                .find("2048 threads per block; CUDA allows 1 to 1024"),
            std::string::npos);
  EXPECT_NE(open_message("bounds-grid", launch_of({1, 70000, 1}, {32, 1, 1}, 0, 1))
                .find("CUDA allows x up to 2147483647, y and z up to 65535"),
            std::string::npos);
  EXPECT_NE(
      open_message("bounds-snapshot", launch_of({1u << 26, 1, 1}, {32, 1, 1}, 0, (1u << 24) + 1))
          .find("16777217 traced blocks; memcarlo reads at most 16777216"),
      std::string::npos);
  // first + count wraps around 2^64 to a small number: still refused.
  EXPECT_NE(open_message("bounds-wrap", launch_of({8, 1, 1}, {32, 1, 1}, ~std::uint64_t{0}, 2))
                .find("exceed the grid of 8 blocks"),
            std::string::npos);
}

}  // namespace
}  // namespace memcarlo::tracebuf
