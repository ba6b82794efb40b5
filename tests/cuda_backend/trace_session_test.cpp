// The cuda runtime's trace session end to end without a GPU: loads tables registered by two
// translation units, launch selection, rings filled by host producers and drained into the
// writer, and a trace that the reader and the invariant checker accept.
#include "cuda_trace_session.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "host_producer.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/probe_api.h"
#include "memcarlo/tracebuf/reader.hpp"

namespace {

using cuda_backend_test::HostRings;
using cuda_backend_test::make_line;
using memcarlo::cuda::detail::BufferGeometry;
using memcarlo::cuda::detail::CudaRuntimeOptions;
using memcarlo::cuda::detail::CudaTraceSession;
using memcarlo::cuda::detail::LaunchRecords;
using memcarlo::cuda::detail::LaunchRequest;
using memcarlo::cuda::detail::LineDecoder;
using memcarlo::cuda::detail::RingDrainer;
using memcarlo::cuda::detail::RingLine;
using memcarlo::cuda::detail::size_buffers;
using memcarlo::cuda::detail::TracedLaunch;
using memcarlo::tracebuf::AccessKind;
using memcarlo::tracebuf::TraceReader;

constexpr unsigned kUnitA = 0xaaaa0001u;
constexpr unsigned kUnitB = 0x0000bbbbu;

namespace unit_a {
static const char loads[] = R"([
  {"id": 0, "function": "k", "kernels": ["k"], "expression": "in[i]", "kind": "read", "element_size": 4},
  {"id": 1, "function": "k", "kernels": ["k"], "expression": "out[i]", "kind": "write", "element_size": 4}
])";
MEMCARLO_REGISTER_LOADS(kUnitA, loads)
}  // namespace unit_a

namespace unit_b {
static const char loads[] = R"([
  {"id": 0, "function": "helper", "expression": "idx[i]", "kind": "read", "element_size": 4},
  {"id": 1, "function": "helper", "expression": "x[idx[i]]", "kind": "read", "element_size": 8,
   "depends_on": [0]}
])";
MEMCARLO_REGISTER_LOADS(kUnitB, loads)
}  // namespace unit_b

std::string temp_trace(const std::string& name) {
  return ::testing::TempDir() + "cuda_backend_" + name + "_" + std::to_string(::getpid()) + ".mct";
}

LaunchRequest request(const std::string& kernel, std::uint32_t grid, std::uint32_t block) {
  LaunchRequest r;
  r.kernel = kernel;
  r.grid = {grid, 1, 1};
  r.block = {block, 1, 1};
  return r;
}

TEST(CudaTraceSession, WritesATraceWithBothUnitsLoadsTheSnapshotAndPerWarpRecords) {
  const std::string path = temp_trace("session");
  CudaRuntimeOptions options;
  options.common.trace_path = path;
  options.common.snapshot_first_block = 2;
  options.common.snapshot_blocks = 3;
  CudaTraceSession session(options);
  const auto plan = session.select(request("k", 8, 64));
  ASSERT_TRUE(plan.has_value());
  EXPECT_FALSE(session.select(request("k", 8, 64)).has_value());  // only the first launch
  const std::optional<TracedLaunch> traced = session.begin_launch(*plan, R"({"name": "Test GPU"})");
  ASSERT_TRUE(traced.has_value());
  ASSERT_GE(traced->traced_load_count, 4u);

  // Blocks 2..4 of 2 warps in 2 shared block buffers; warp 1 of block 3 diverges.
  const BufferGeometry geometry = size_buffers(3, 2, 2, 1 << 20);
  ASSERT_EQ(geometry.slot_count, 2u);
  HostRings rings(geometry);
  RingDrainer drainer(rings.view());
  LaunchRecords records(LineDecoder(traced->loads, traced->traced_load_count, 2, 3), geometry, 2,
                        [&](std::uint32_t block, std::uint32_t warp,
                            std::span<const memcarlo::tracebuf::WarpRecord> piece) {
                          ASSERT_TRUE(session.write(traced->trace_launch, block, warp, piece));
                        });
  auto sink = [&](std::uint64_t ring, const RingLine& line) { records.add(ring, line); };
  for (std::uint64_t block = 2; block < 5; ++block) {
    for (std::uint32_t warp = 0; warp < 2; ++warp) {
      const std::uint64_t base = 0x10000 * block + 128 * warp;
      const bool diverges = block == 3 && warp == 1;
      ASSERT_TRUE(rings.produce(block, 2, warp, make_line(kUnitA, 0, ~0u, base)));
      ASSERT_TRUE(rings.produce(block, 2, warp,
                                make_line(kUnitB, 0, diverges ? 0x0000ffffu : ~0u, base + 4096)));
      if (diverges) {
        ASSERT_TRUE(rings.produce(block, 2, warp, make_line(kUnitB, 1, 0xffff0000u, 0x900000)));
      }
      ASSERT_TRUE(rings.produce(block, 2, warp, make_line(kUnitA, 1, ~0u, base + 8192)));
      drainer.drain(sink);
    }
  }
  records.finish();
  session.finish();

  const TraceReader reader = TraceReader::open(path);
  const auto report = memcarlo::tracebuf::check_invariants(reader);
  EXPECT_EQ(report.records, 3u * 2 * 3 + 1);
  EXPECT_EQ(reader.meta().backend, "cuda");
  EXPECT_EQ(nlohmann::json::parse(reader.meta().properties_json)["gpu"]["name"], "Test GPU");
  EXPECT_EQ(nlohmann::json::parse(reader.meta().device_json)["sm_count"], 14);
  // Unit A's table, then unit B's, with B's ids and dependences moved past A's.
  ASSERT_EQ(reader.loads().size(), 4u);
  EXPECT_EQ(reader.loads()[1].expression, "out[i]");
  EXPECT_EQ(reader.loads()[3].expression, "x[idx[i]]");
  EXPECT_EQ(reader.loads()[3].depends_on, (std::vector<std::uint32_t>{2}));
  ASSERT_EQ(reader.launches().size(), 1u);
  const auto& launch = reader.launches()[0];
  EXPECT_EQ(launch.info.kernel, "k");
  EXPECT_EQ(launch.info.snapshot_first_block, 2u);
  EXPECT_EQ(launch.info.snapshot_block_count, 3u);
  ASSERT_EQ(launch.warps.size(), 6u);
  const auto& divergent = launch.warps[3];
  EXPECT_EQ(divergent.block, 3u);
  EXPECT_EQ(divergent.warp, 1u);
  std::vector<std::uint32_t> ids;
  std::vector<std::uint32_t> masks;
  divergent.for_each([&](const memcarlo::tracebuf::RecordView& record) {
    ids.push_back(record.static_id());
    masks.push_back(record.active_mask());
  });
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 2, 3, 1}));
  EXPECT_EQ(masks, (std::vector<std::uint32_t>{~0u, 0x0000ffffu, 0xffff0000u, ~0u}));
  launch.warps[0].for_each([&](const memcarlo::tracebuf::RecordView& record) {
    if (record.static_id() == 1) {
      EXPECT_EQ(record.kind(), AccessKind::kWrite);
      EXPECT_EQ(record.active_address(31), 0x20000u + 8192 + 4 * 31);
    }
  });
  std::filesystem::remove(path);
}

TEST(CudaTraceSession, AProgramThatTracesNothingStillLeavesACompleteTrace) {
  const std::string path = temp_trace("empty");
  CudaRuntimeOptions options;
  options.common.trace_path = path;
  options.common.kernels = {"never_launched"};
  {
    CudaTraceSession session(options);
    EXPECT_FALSE(session.select(request("k", 8, 64)).has_value());
  }  // finished on destruction, as at exit
  const TraceReader reader = TraceReader::open(path);
  EXPECT_TRUE(reader.complete());
  EXPECT_GE(reader.loads().size(), 4u);
  EXPECT_TRUE(reader.launches().empty());
  std::filesystem::remove(path);
}

TEST(CudaTraceSession, WithoutATracePathNothingIsTraced) {
  CudaTraceSession session(CudaRuntimeOptions{});
  EXPECT_FALSE(session.select(request("k", 8, 64)).has_value());
}

TEST(CudaTraceSession, AnUnwritableTraceIsReportedOnceAndTracingStops) {
  CudaRuntimeOptions options;
  options.common.trace_path = "/nonexistent-directory/trace.mct";
  options.common.launch.reset();
  CudaTraceSession session(options);
  const auto plan = session.select(request("k", 8, 64));
  ASSERT_TRUE(plan.has_value());
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(session.begin_launch(*plan, "{}").has_value());
  EXPECT_TRUE(session.failed());
  EXPECT_FALSE(session.select(request("k", 8, 64)).has_value());
  const std::string messages = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(messages.find("memcarlo cuda runtime: warning: tracing stopped"), std::string::npos);
}

TEST(CudaTraceSession, AnnotationsAreWrittenBeforeEachLaunchTaggedWithTheLaunchesBefore) {
  const std::string path = temp_trace("annotations");
  CudaRuntimeOptions options;
  options.common.trace_path = path;
  options.common.launch.reset();  // every launch
  CudaTraceSession session(options);
  session.record_annotation("taf_register", R"({"base": 1})");
  const auto first = session.select(request("k", 2, 32));
  ASSERT_TRUE(first.has_value());
  ASSERT_TRUE(session.begin_launch(*first, "{}").has_value());
  // Written with launch 0's Launch chunk already: a killed program keeps it.
  {
    const TraceReader partial =
        TraceReader::open(path, memcarlo::tracebuf::ReadOptions{.allow_truncated = true});
    EXPECT_EQ(nlohmann::json::parse(partial.annotations_json()).size(), 1u);
  }
  session.record_annotation("taf_reset", R"({"base": 1})");
  const auto second = session.select(request("k", 2, 32));
  ASSERT_TRUE(second.has_value());
  ASSERT_TRUE(session.begin_launch(*second, "{}").has_value());
  session.record_annotation("taf_setRdy", R"({"base": 2})");
  session.finish();

  const TraceReader reader = TraceReader::open(path);
  EXPECT_EQ(reader.format_version(), 2);
  const nlohmann::json annotations = nlohmann::json::parse(reader.annotations_json());
  ASSERT_EQ(annotations.size(), 3u);
  EXPECT_EQ(annotations[0]["kind"], "taf_register");
  EXPECT_EQ(annotations[0]["since_launch"], 0);
  EXPECT_EQ(annotations[1]["kind"], "taf_reset");
  EXPECT_EQ(annotations[1]["since_launch"], 1);
  EXPECT_EQ(annotations[2]["since_launch"], 2);
  EXPECT_EQ(annotations[2]["payload"]["base"], 2);
  std::filesystem::remove(path);
}

// The cuda backend records a traced launch's integer and pointer arguments by parameter name, as
// the host backend does (issue 26): the names come from the instrumented unit's registration,
// the values from the launch hook (memcarlo_launch_arguments); a float is left out, and a
// kernel whose names nobody registered gets no record.
TEST(CudaTraceSession, KernelArgumentsAreRecordedByParameterNameAfterTheLaunch) {
  memcarlo_register_kernel_parameters(
      R"([{"kernel": "scale", "parameters": ["out", "in", "factor", "n"]}])");
  const std::string path = temp_trace("arguments");
  CudaRuntimeOptions options;
  options.common.trace_path = path;
  options.common.launch.reset();  // every launch
  CudaTraceSession session(options);
  const auto first = session.select(request("scale", 2, 32));
  ASSERT_TRUE(first.has_value());
  const std::optional<TracedLaunch> traced = session.begin_launch(*first, "{}");
  ASSERT_TRUE(traced.has_value());
  const long long values[] = {0x7f0000001000LL, 0x7f0000002000LL, 0, 4096};
  const bool recorded[] = {true, true, false, true};  // factor is a float
  session.record_arguments(traced->trace_launch, "scale", values, recorded);
  const auto second = session.select(request("unregistered", 2, 32));
  ASSERT_TRUE(second.has_value());
  const std::optional<TracedLaunch> other = session.begin_launch(*second, "{}");
  ASSERT_TRUE(other.has_value());
  session.record_arguments(other->trace_launch, "unregistered", values, recorded);
  session.finish();

  const TraceReader reader = TraceReader::open(path);
  const std::map<std::string, std::int64_t> arguments =
      memcarlo::footprint::recorded_arguments(reader, 0);
  EXPECT_EQ(arguments, (std::map<std::string, std::int64_t>{
                           {"out", 0x7f0000001000LL}, {"in", 0x7f0000002000LL}, {"n", 4096}}));
  EXPECT_TRUE(memcarlo::footprint::recorded_arguments(reader, 1).empty());
  std::filesystem::remove(path);
}

}  // namespace
