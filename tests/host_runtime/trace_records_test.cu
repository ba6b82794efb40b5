// Warp records from hand-written probes (as the instrumenter will emit them): merged active masks
// for divergent code, k-th-execution semantics, barrier counts, device-only addresses, loads
// tables of several translation units, allocation names and the Launch chunk.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <vector>

#include "allocation_registry.hpp"
#include "host_test_util.h"
#include "memcarlo/tracebuf/reader.hpp"

using host_test::DeviceArray;
using memcarlo::tracebuf::AccessKind;
using memcarlo::tracebuf::RecordView;
using memcarlo::tracebuf::TraceReader;

namespace {

static constexpr unsigned memcarlo_tu = 0x1001u;
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "copy", "file": "trace_records_test.cu", "line": 40, "expression": "in[i]",
   "kind": "read", "element_type": "float", "element_size": 4, "base": "in"},
  {"id": 1, "function": "copy", "file": "trace_records_test.cu", "line": 40, "expression": "out[i]",
   "kind": "write", "element_type": "float", "element_size": 4, "base": "out"},
  {"id": 2, "function": "divergent", "expression": "a[i]", "kind": "read", "element_size": 4},
  {"id": 3, "function": "divergent", "expression": "a[i + 1]", "kind": "read", "element_size": 4},
  {"id": 4, "function": "triangular", "expression": "a[k * 32 + lane]", "kind": "read",
   "element_size": 4, "loop_depth": 1},
  {"id": 5, "function": "barriers", "expression": "a[i]", "kind": "read", "element_size": 4},
  {"id": 6, "function": "barriers", "expression": "a[i + 1]", "kind": "read", "element_size": 4,
   "depends_on": [5]},
  {"id": 7, "function": "spaces", "expression": "*p", "kind": "read", "element_size": 4},
  {"id": 8, "function": "spaces", "expression": "counter", "kind": "atomic", "element_size": 4},
  {"id": 9, "function": "long_phase", "expression": "a[i]", "kind": "read", "element_size": 4},
  {"id": 10, "function": "long_phase", "expression": "a[k]", "kind": "read", "element_size": 4},
  {"id": 11, "function": "two_loops", "expression": "a[k]", "kind": "read", "element_size": 4},
  {"id": 12, "function": "two_loops", "expression": "b[k]", "kind": "read", "element_size": 4}
])json";
MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)
#define PROBE(id, expression) (*memcarlo_probe(memcarlo_tu, id, &(expression)))

__global__ void copy(const float* in, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  PROBE(1, out[i]) = PROBE(0, in[i]);
}

__global__ void divergent(const float* a, float* out) {
  const unsigned i = threadIdx.x;
  float x;
  if (i % 2 == 0) {
    x = PROBE(2, a[i]);
  } else {
    x = PROBE(3, a[i + 1]);
  }
  out[i] = x;
}

// Lane l executes the load l times: the k-th warp instruction has the lanes above k.
__global__ void triangular(const float* a, float* out) {
  const unsigned lane = threadIdx.x % 32;
  float sum = 0;
  for (unsigned k = 0; k < lane; ++k) {
    sum += PROBE(4, a[k * 32 + lane]);
  }
  out[threadIdx.x] = sum;
}

__global__ void barriers(const float* a, float* out) {
  const unsigned i = threadIdx.x;
  __syncthreads();
  const float v = PROBE(5, a[i]);
  __syncthreads();
  __syncthreads();
  out[i] = v + PROBE(6, a[i + 1]);
}

// Lanes 0-15 read device memory, lanes 16-31 shared memory, all through one static access;
// then every lane reads a stack variable and host heap memory through it: only the device
// addresses remain.
__global__ void spaces(const float* device, float* out, const float* host, unsigned* counter) {
  __shared__ float staged[32];
  const unsigned lane = threadIdx.x;
  staged[lane] = static_cast<float>(lane);
  __syncthreads();
  const float* p = lane < 16 ? &device[lane] : &staged[lane];
  float sum = PROBE(7, *p);
  const float local = 2.0f;
  p = &local;
  sum += PROBE(7, *p);
  p = &host[lane];
  sum += PROBE(7, *p);
  atomicAdd(&PROBE(8, *counter), 1u);
  out[lane] = sum;
}

// A short phase, a barrier, then a phase too long for a small event budget.
__global__ void long_phase(const float* a, float* out) {
  const unsigned i = threadIdx.x;
  float sum = PROBE(9, a[i]);
  __syncthreads();
  for (unsigned k = 0; k < 100; ++k) {
    sum += PROBE(10, a[k]);
  }
  out[blockIdx.x * blockDim.x + i] = sum;  // one element per thread: blocks run in parallel
}

// Two loops in a row whose trip counts depend on the lane, as in a CSR row split into a vector
// loop and a remainder loop: lane 0 runs the first loop once and the second twice, lane 1 the
// first twice, lane 2 each twice and once; the other lanes neither.
__global__ void two_loops(const float* a, const float* b, float* out) {
  constexpr unsigned kFirst[3] = {1, 2, 2};
  constexpr unsigned kSecond[3] = {2, 0, 1};
  const unsigned lane = threadIdx.x;
  float sum = 0;
  for (unsigned k = 0; lane < 3 && k < kFirst[lane]; ++k) {
    sum += PROBE(11, a[4 * k + lane]);
  }
  for (unsigned k = 0; lane < 3 && k < kSecond[lane]; ++k) {
    sum += PROBE(12, b[4 * k + lane]);
  }
  out[lane] = sum;
}

/// Records of one warp of launch `launch`, in program order.
std::vector<memcarlo::tracebuf::WarpRecord> warp_records(const TraceReader& reader,
                                                         std::size_t launch, std::uint32_t block,
                                                         std::uint32_t warp) {
  std::vector<memcarlo::tracebuf::WarpRecord> records;
  for (const auto& stream : reader.launches().at(launch).warps) {
    if (stream.block == block && stream.warp == warp) {
      stream.for_each([&](const RecordView& view) { records.push_back(view.to_record()); });
    }
  }
  return records;
}

/// The trace-wide id of this unit's load with the given function and expression.
std::uint32_t load_id(const TraceReader& reader, const std::string& function,
                      const std::string& expression) {
  for (const auto& load : reader.loads()) {
    if (load.function == function && load.expression == expression) {
      return load.id;
    }
  }
  ADD_FAILURE() << "no load " << function << ": " << expression;
  return 0xffffffffu;
}

class HostTraceRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = host_test::temporary_trace_path(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    memcarlo::host::set_runtime_options(host_test::trace_options(path_));
  }
  void TearDown() override { std::remove(path_.c_str()); }
  /// Finishes the trace and opens it; every trace must pass `memcarlo trace check`'s invariants
  /// with all lane addresses inside listed allocations.
  TraceReader finish() {
    memcarlo::host::finish_trace();
    TraceReader reader = TraceReader::open(path_);
    const memcarlo::tracebuf::CheckReport report = memcarlo::tracebuf::check_invariants(reader);
    EXPECT_EQ(report.addresses_outside_allocations, 0u);
    EXPECT_TRUE(report.warnings.empty()) << report.warnings.front();
    return reader;
  }

  std::string path_;
  host_test::TracingOff tracing_off_;
};

}  // namespace

void launch_second_unit(float* data, unsigned n);  // trace_second_unit.cu

TEST_F(HostTraceRecords, ConvergedAccessesFormFullWarpRecordsInProgramOrder) {
  DeviceArray<float> in(std::vector<float>(64, 1.0f));
  DeviceArray<float> out(64);
  memcarlo_launch("copy", copy, 1, 64, 0, 0, in.get(), out.get());
  const TraceReader reader = finish();
  ASSERT_TRUE(reader.complete());
  ASSERT_EQ(reader.launches().size(), 1u);
  EXPECT_EQ(reader.launches()[0].warps.size(), 2u);
  const std::uint32_t read = load_id(reader, "copy", "in[i]");
  const std::uint32_t write = load_id(reader, "copy", "out[i]");
  for (std::uint32_t warp = 0; warp < 2; ++warp) {
    const auto records = warp_records(reader, 0, 0, warp);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].static_id, read);
    EXPECT_EQ(records[0].kind, AccessKind::kRead);
    EXPECT_EQ(records[1].static_id, write);
    EXPECT_EQ(records[1].kind, AccessKind::kWrite);
    for (const auto& record : records) {
      EXPECT_EQ(record.active_mask, 0xffffffffu);
      EXPECT_EQ(record.element_size, 4);
      EXPECT_EQ(record.barriers, 0);
    }
    for (unsigned lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(records[0].addresses[lane],
                reinterpret_cast<std::uint64_t>(in.get() + warp * 32 + lane));
      EXPECT_EQ(records[1].addresses[lane],
                reinterpret_cast<std::uint64_t>(out.get() + warp * 32 + lane));
    }
  }
  EXPECT_EQ(out.to_host()[63], 1.0f);
}

TEST_F(HostTraceRecords, DivergentBranchesGetComplementaryMasks) {
  DeviceArray<float> a(std::vector<float>(40, 3.0f));
  DeviceArray<float> out(32);
  memcarlo_launch("divergent", divergent, 1, 32, 0, 0, a.get(), out.get());
  const TraceReader reader = finish();
  const auto records = warp_records(reader, 0, 0, 0);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].static_id, load_id(reader, "divergent", "a[i]"));
  EXPECT_EQ(records[0].active_mask, 0x55555555u);
  EXPECT_EQ(records[1].static_id, load_id(reader, "divergent", "a[i + 1]"));
  EXPECT_EQ(records[1].active_mask, 0xaaaaaaaau);
  EXPECT_EQ(records[1].addresses[1], reinterpret_cast<std::uint64_t>(a.get() + 2));
}

TEST_F(HostTraceRecords, KthExecutionOfEachLaneFormsTheKthWarpInstruction) {
  DeviceArray<float> a(std::vector<float>(32 * 32, 1.0f));
  DeviceArray<float> out(64);
  memcarlo_launch("triangular", triangular, 1, 64, 0, 0, a.get(), out.get());
  const TraceReader reader = finish();
  for (std::uint32_t warp = 0; warp < 2; ++warp) {
    const auto records = warp_records(reader, 0, 0, warp);
    ASSERT_EQ(records.size(), 31u);
    for (unsigned k = 0; k < 31; ++k) {
      // Lanes k+1 .. 31 take part in the k-th execution.
      EXPECT_EQ(records[k].active_mask, 0xffffffffu << (k + 1)) << "k = " << k;
      EXPECT_EQ(records[k].addresses[31], reinterpret_cast<std::uint64_t>(a.get() + k * 32 + 31));
    }
  }
  EXPECT_EQ(out.to_host()[31], 31.0f);
}

// A warp reconverges after each loop (a SIMT stack): every iteration of the first loop comes
// before the second loop, and each lane's own accesses keep their order. Placing each record only
// by the lowest lanes put lane 2's second first-loop access after its second-loop one.
TEST_F(HostTraceRecords, EachLaneKeepsItsOrderWhenLanesLoopDifferentCountsInTwoLoops) {
  DeviceArray<float> a(std::vector<float>(8, 1.0f));
  DeviceArray<float> b(std::vector<float>(8, 2.0f));
  DeviceArray<float> out(32);
  memcarlo_launch("two_loops", two_loops, 1, 32, 0, 0, a.get(), b.get(), out.get());
  const TraceReader reader = finish();
  const auto records = warp_records(reader, 0, 0, 0);
  const std::uint32_t first = load_id(reader, "two_loops", "a[k]");
  const std::uint32_t second = load_id(reader, "two_loops", "b[k]");
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].static_id, first);
  EXPECT_EQ(records[0].active_mask, 0b111u);
  EXPECT_EQ(records[1].static_id, first);
  EXPECT_EQ(records[1].active_mask, 0b110u);
  EXPECT_EQ(records[1].addresses[2], reinterpret_cast<std::uint64_t>(a.get() + 6));
  EXPECT_EQ(records[2].static_id, second);
  EXPECT_EQ(records[2].active_mask, 0b101u);
  EXPECT_EQ(records[3].static_id, second);
  EXPECT_EQ(records[3].active_mask, 0b001u);
  EXPECT_EQ(records[3].addresses[0], reinterpret_cast<std::uint64_t>(b.get() + 4));
  EXPECT_EQ(out.to_host()[2], 4.0f);
}

TEST_F(HostTraceRecords, BarriersAreCountedOnTheNextRecordOfEachWarp) {
  DeviceArray<float> a(std::vector<float>(100, 1.0f));
  DeviceArray<float> out(96);
  memcarlo_launch("barriers", barriers, 1, 96, 0, 0, a.get(), out.get());
  const TraceReader reader = finish();
  for (std::uint32_t warp = 0; warp < 3; ++warp) {
    const auto records = warp_records(reader, 0, 0, warp);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].barriers, 1);
    EXPECT_EQ(records[1].barriers, 2);
  }
  const auto& loads = reader.loads();
  const std::uint32_t second = load_id(reader, "barriers", "a[i + 1]");
  ASSERT_EQ(loads[second].depends_on.size(), 1u);
  EXPECT_EQ(loads[second].depends_on[0], load_id(reader, "barriers", "a[i]"))
      << "dependences are remapped to trace-wide ids";
}

TEST_F(HostTraceRecords, OnlyAddressesInsideDeviceAllocationsAreKept) {
  DeviceArray<float> device(std::vector<float>(32, 1.0f));
  DeviceArray<float> out(32);
  DeviceArray<unsigned> counter(1);
  counter.fill(0);
  std::vector<float> host(32, 5.0f);
  memcarlo_launch("spaces", spaces, 1, 32, 0, 0, device.get(), out.get(), host.data(),
                  counter.get());
  const TraceReader reader = finish();
  const auto records = warp_records(reader, 0, 0, 0);
  ASSERT_EQ(records.size(), 2u) << "the stack and host-heap executions leave no record";
  EXPECT_EQ(records[0].static_id, load_id(reader, "spaces", "*p"));
  EXPECT_EQ(records[0].active_mask, 0x0000ffffu) << "lanes reading shared memory are dropped";
  EXPECT_EQ(records[0].barriers, 1);
  EXPECT_EQ(records[1].static_id, load_id(reader, "spaces", "counter"));
  EXPECT_EQ(records[1].kind, AccessKind::kAtomic);
  EXPECT_EQ(records[1].active_mask, 0xffffffffu);
  EXPECT_EQ(out.to_host()[3], 8.0f);
  EXPECT_GE(memcarlo::host::runtime_stats().dropped_non_device, 16u + 64u);
}

TEST_F(HostTraceRecords, LoadsTablesOfSeveralUnitsAreConcatenated) {
  DeviceArray<float> data(std::vector<float>(64, 2.0f));
  launch_second_unit(data.get(), 64);
  const TraceReader reader = finish();
  // This unit's 9 loads, the second unit's 2, and those of the other test files.
  ASSERT_GE(reader.loads().size(), 11u);
  for (std::uint32_t i = 0; i < reader.loads().size(); ++i) {
    EXPECT_EQ(reader.loads()[i].id, i);
  }
  const std::uint32_t first = load_id(reader, "scale", "data[i]");
  const std::uint32_t second = load_id(reader, "scale", "data[i] (store)");
  EXPECT_EQ(reader.loads()[second].depends_on, std::vector<std::uint32_t>{first});
  EXPECT_NE(reader.loads()[second].extra_json.find("\"value_depends_on\":[" +
                                                   std::to_string(first) + "]"),
            std::string::npos)
      << reader.loads()[second].extra_json;
  const auto records = warp_records(reader, 0, 0, 1);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].static_id, first);
  EXPECT_EQ(records[1].static_id, second);
  EXPECT_EQ(data.to_host()[5], 6.0f);
}

TEST_F(HostTraceRecords, AllocationsAreListedWithTheirVariableNames) {
  float* d_values = nullptr;
  ASSERT_CUDA(cudaMalloc((void**)&d_values, 64 * sizeof(float)));
  float* d_result = nullptr;
  ASSERT_CUDA(cudaMalloc(&d_result, 64 * sizeof(float)));
  memcarlo_launch("copy", copy, 2, 32, 0, 0, d_values, d_result);
  const TraceReader reader = finish();
  std::map<std::uint64_t, std::string> names;
  for (const auto& allocation : reader.allocations()) {
    names[allocation.base] = allocation.name;
  }
  EXPECT_EQ(names[reinterpret_cast<std::uint64_t>(d_values)], "d_values");
  EXPECT_EQ(names[reinterpret_cast<std::uint64_t>(d_result)], "d_result");
  const auto& info = reader.launches()[0].info;
  EXPECT_EQ(info.kernel, "copy");
  EXPECT_EQ(info.grid.x, 2u);
  EXPECT_EQ(info.block.x, 32u);
  EXPECT_EQ(reader.meta().backend, "host");
  ASSERT_CUDA(cudaFree(d_values));
  ASSERT_CUDA(cudaFree(d_result));
}

TEST_F(HostTraceRecords, PartialLastWarpHasOnlyItsExistingLanes) {
  DeviceArray<float> in(std::vector<float>(48, 1.0f));
  DeviceArray<float> out(48);
  memcarlo_launch("copy", copy, 1, 48, 0, 0, in.get(), out.get());
  const TraceReader reader = finish();
  const auto records = warp_records(reader, 0, 0, 1);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].active_mask, 0x0000ffffu);
  EXPECT_EQ(records[1].active_mask, 0x0000ffffu);
}

TEST_F(HostTraceRecords, BlockOverItsEventBudgetEndsItsTraceAtTheLastBarrier) {
  memcarlo::host::RuntimeOptions options = host_test::trace_options(path_);
  options.max_block_events = 1000;  // phase 2 buffers 64 * 100 events
  memcarlo::host::set_runtime_options(options);
  DeviceArray<float> a(std::vector<float>(100, 1.0f));
  DeviceArray<float> out(128);
  memcarlo_launch("long_phase", long_phase, 2, 64, 0, 0, a.get(), out.get());
  const TraceReader reader = finish();
  EXPECT_EQ(reader.total_records(), 2u * 2) << "two blocks of two warps, phase 1 only";
  for (const auto& stream : reader.launches()[0].warps) {
    stream.for_each([&](const RecordView& record) {
      EXPECT_EQ(record.static_id(), load_id(reader, "long_phase", "a[i]"));
    });
  }
  EXPECT_EQ(out.to_host()[63], 101.0f) << "the blocks still ran to completion";
  EXPECT_EQ(out.to_host()[127], 101.0f) << "the blocks still ran to completion";
}

TEST(HostAllocationNames, VariableNamedByTheFirstArgument) {
  using memcarlo::host::detail::allocation_name_from_call;
  EXPECT_EQ(allocation_name_from_call("(void**)&d_val, bytes"), "d_val");
  EXPECT_EQ(allocation_name_from_call("&device_x, n * sizeof(float)"), "device_x");
  EXPECT_EQ(allocation_name_from_call("reinterpret_cast<void**>(&state.rows), size"), "state.rows");
  EXPECT_EQ(allocation_name_from_call("(void **) &(buffers[i]), size"), "buffers[i]");
  EXPECT_EQ(allocation_name_from_call("&p"), "p");
  EXPECT_EQ(allocation_name_from_call(""), "");
}
