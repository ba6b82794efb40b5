// TAFE's API (memcarlo/tafe.h) in the host backend: the paper's Listing 1 calls are recorded as
// annotations of the trace, in call order, with the arrays' device addresses, and the footprint
// library reads them back as registrations.
#include <cuda_runtime.h>

#include <nlohmann/json.hpp>

#include <map>

#include "host_test_util.h"
#include "loads_registry.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/tafe.h"
#include "memcarlo/tracebuf/reader.hpp"

using host_test::DeviceArray;
using memcarlo::tracebuf::TraceReader;

namespace {

static constexpr unsigned memcarlo_tu = 0x8008u;
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "visit", "expression": "nodes[i]", "kind": "read", "element_size": 4}
])json";
MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)
// What memcarlo-instrument registers for the kernels below; `visit` and `unregistered` are left
// out (their launches record no kernel_arguments).
static const char memcarlo_kernel_parameters_json[] = R"json([
  {"kernel": "strided", "parameters": ["data", "n", "stride", "scale", "mode"]}
])json";
MEMCARLO_REGISTER_KERNEL_PARAMETERS(memcarlo_kernel_parameters_json)

__global__ void visit(const int* nodes, int* sink) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sink[i] = *memcarlo_probe(memcarlo_tu, 0u, &(nodes[i]));
}

enum class Mode : short { kPlain = 3 };

__global__ void strided(int* data, int n, unsigned long long stride, float scale, Mode mode) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (static_cast<int>(i) < n && mode == Mode::kPlain) {
    data[i * stride] = static_cast<int>(scale);
  }
}

__global__ void unregistered(int* data, int n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (static_cast<int>(i) < n) data[i] = 0;
}

/// The kernel_arguments records of a trace, by launch.
std::map<std::uint64_t, nlohmann::json> argument_records(const TraceReader& reader) {
  std::map<std::uint64_t, nlohmann::json> out;
  for (const nlohmann::json& record : nlohmann::json::parse(reader.annotations_json())) {
    if (record["kind"] == "kernel_arguments") {
      EXPECT_EQ(out.count(record["launch"].get<std::uint64_t>()), 0u) << record;
      out[record["launch"].get<std::uint64_t>()] = record["payload"];
    }
  }
  return out;
}

TEST(KernelArguments, EachTracedLaunchRecordsItsIntegerAndPointerArgumentsByName) {
  const std::string path = host_test::temporary_trace_path("kernel_arguments");
  host_test::TracingOff tracing_off;
  memcarlo::host::RuntimeOptions options = host_test::trace_options(path);
  options.launch.reset();  // every launch
  memcarlo::host::set_runtime_options(options);
  DeviceArray<int> data(64);
  memcarlo_launch("strided", strided, 2, 4, 0, 0, data.get(), 8, 2ull, 2.5f, Mode::kPlain);
  memcarlo_launch("unregistered", unregistered, 1, 4, 0, 0, data.get(), 4);
  memcarlo_launch("strided", strided, 1, 4, 0, 0, data.get() + 1, 3, 5ull, 1.0f, Mode::kPlain);
  memcarlo::host::finish_trace();

  const TraceReader reader = TraceReader::open(path);
  ASSERT_EQ(reader.launches().size(), 3u);
  const auto records = argument_records(reader);
  ASSERT_EQ(records.size(), 2u) << reader.annotations_json();
  const nlohmann::json& first = records.at(0);
  EXPECT_EQ(first["data"].get<std::uint64_t>(), reinterpret_cast<std::uintptr_t>(data.get()));
  EXPECT_EQ(first["n"], 8);
  EXPECT_EQ(first["stride"], 2);
  EXPECT_EQ(first["mode"], 3);
  EXPECT_FALSE(first.contains("scale")) << first;  // a float is not an integer
  EXPECT_EQ(records.count(1), 0u);                  // no names registered for `unregistered`
  const nlohmann::json& third = records.at(2);
  EXPECT_EQ(third["data"].get<std::uint64_t>(),
            reinterpret_cast<std::uintptr_t>(data.get()) + sizeof(int));
  EXPECT_EQ(third["n"], 3);
  EXPECT_EQ(third["stride"], 5);
  // The footprint library reads them back for their launch only.
  EXPECT_EQ(memcarlo::footprint::recorded_arguments(reader, 2).at("n"), 3);
  EXPECT_EQ(memcarlo::footprint::recorded_arguments(reader, 0).at("n"), 8);
  EXPECT_TRUE(memcarlo::footprint::recorded_arguments(reader, 1).empty());
  std::remove(path.c_str());
}

TEST(KernelArguments, LaunchNamesWithTemplateArgumentsAndScopesFindTheKernel) {
  using memcarlo::host::detail::kernel_base_name;
  EXPECT_EQ(kernel_base_name("axpy<float, 4>"), "axpy");
  EXPECT_EQ(kernel_base_name("ns::inner::axpy<float>"), "axpy");
  EXPECT_EQ(kernel_base_name("axpy"), "axpy");
}

TEST(TafeApi, Listing1CallsAreRecordedAsAnnotations) {
  const std::string path = host_test::temporary_trace_path("tafe_api");
  host_test::TracingOff tracing_off;
  memcarlo::host::set_runtime_options(host_test::trace_options(path));
  DeviceArray<int> nodes(std::vector<int>{0, 2, 4, 6, 8});
  DeviceArray<int> edges(std::vector<int>{2, 3, 0, 1, 4, 8, 5, 9});
  DeviceArray<int> cost(10);
  DeviceArray<int> sink(4);
  taf_paramSetup(dim3(2), dim3(2));
  const long long nodes_m[6] = {1, 0, 0, 2, 0, 0};
  taf_register(nodes.get(), 5, TID_DEP, sizeof(int), nodes_m, 0, 0, 0, true);
  taf_setRdy(nodes.get());
  taf_register(edges.get(), 8, INDIR_RANGE, sizeof(int), nodes.get(), 0, nodes.get(), 0, true);
  taf_register(cost.get(), 10, INDIR, sizeof(int), edges.get(), 1, 0, false);
  taf_setRdy(cost.get());
  memcarlo_launch("visit", visit, 2, 2, 0, 0, static_cast<const int*>(nodes.get()), sink.get());
  memcarlo::host::finish_trace();

  const TraceReader reader = TraceReader::open(path);
  const nlohmann::json annotations = nlohmann::json::parse(reader.annotations_json());
  ASSERT_EQ(annotations.size(), 6u);
  EXPECT_EQ(annotations[0]["kind"], "taf_paramSetup");
  EXPECT_EQ(annotations[0]["payload"]["block"], (std::vector<int>{2, 1, 1}));
  EXPECT_EQ(annotations[1]["kind"], "taf_register");
  EXPECT_EQ(annotations[1]["payload"]["type"], "TID_DEP");
  EXPECT_EQ(annotations[1]["payload"]["base"].get<std::uint64_t>(),
            reinterpret_cast<std::uintptr_t>(nodes.get()));
  EXPECT_EQ(annotations[1]["payload"]["m"], (std::vector<int>{1, 0, 0, 2, 0, 0}));
  EXPECT_EQ(annotations[2]["kind"], "taf_setRdy");
  EXPECT_EQ(annotations[3]["payload"]["type"], "INDIR_RANGE");
  EXPECT_EQ(annotations[3]["payload"]["pbase_s"].get<std::uint64_t>(),
            reinterpret_cast<std::uintptr_t>(nodes.get()));
  EXPECT_EQ(annotations[4]["payload"]["type"], "INDIR");
  EXPECT_EQ(annotations[4]["payload"]["primary"], false);
  const auto registrations = memcarlo::footprint::recorded_registrations(reader, 0);
  ASSERT_EQ(registrations.size(), 3u);
  EXPECT_EQ(registrations[2].pbase, reinterpret_cast<std::uintptr_t>(edges.get()));
  std::remove(path.c_str());
}

TEST(TafeApi, ARegistrationBetweenTwoLaunchesAppliesFromTheNextLaunchOn) {
  const std::string path = host_test::temporary_trace_path("tafe_api_scope");
  host_test::TracingOff tracing_off;
  memcarlo::host::RuntimeOptions options = host_test::trace_options(path);
  options.launch.reset();  // every launch
  memcarlo::host::set_runtime_options(options);
  DeviceArray<int> nodes(std::vector<int>{0, 2, 4, 6, 8});
  DeviceArray<int> edges(std::vector<int>{2, 3, 0, 1, 4, 8, 5, 9});
  DeviceArray<int> sink(4);
  const long long nodes_m[6] = {1, 0, 0, 2, 0, 0};
  taf_register(nodes.get(), 5, TID_DEP, sizeof(int), nodes_m, 0, 0, 0, true);
  memcarlo_launch("visit", visit, 2, 2, 0, 0, static_cast<const int*>(nodes.get()), sink.get());
  // Before the second launch the trace on disk already holds the first call (a killed program
  // keeps it): its Annotations chunk was written before launch 0's Launch chunk.
  {
    const TraceReader partial =
        TraceReader::open(path, memcarlo::tracebuf::ReadOptions{.allow_truncated = true});
    EXPECT_FALSE(partial.complete());
    const nlohmann::json written = nlohmann::json::parse(partial.annotations_json());
    ASSERT_EQ(written.size(), 1u);
    EXPECT_EQ(written[0]["since_launch"], 0);
  }
  taf_register(edges.get(), 8, INDIR_RANGE, sizeof(int), nodes.get(), 0, nodes.get(), 1, true);
  memcarlo_launch("visit", visit, 2, 2, 0, 0, static_cast<const int*>(nodes.get()), sink.get());
  taf_reset(nodes.get());
  memcarlo_launch("visit", visit, 2, 2, 0, 0, static_cast<const int*>(nodes.get()), sink.get());
  memcarlo::host::finish_trace();

  const TraceReader reader = TraceReader::open(path);
  EXPECT_EQ(reader.format_version(), 2);
  ASSERT_EQ(reader.launches().size(), 3u);
  const nlohmann::json annotations = nlohmann::json::parse(reader.annotations_json());
  ASSERT_EQ(annotations.size(), 3u);
  EXPECT_EQ(annotations[0]["since_launch"], 0);
  EXPECT_EQ(annotations[1]["since_launch"], 1);
  EXPECT_EQ(annotations[2]["kind"], "taf_reset");
  EXPECT_EQ(annotations[2]["since_launch"], 2);
  const auto at0 = memcarlo::footprint::recorded_registrations(reader, 0);
  ASSERT_EQ(at0.size(), 1u);
  EXPECT_EQ(at0[0].base, reinterpret_cast<std::uintptr_t>(nodes.get()));
  const auto at1 = memcarlo::footprint::recorded_registrations(reader, 1);
  ASSERT_EQ(at1.size(), 2u);
  EXPECT_EQ(at1[1].base, reinterpret_cast<std::uintptr_t>(edges.get()));
  EXPECT_EQ(at1[1].type, "INDIR_RANGE");
  EXPECT_EQ(at1[1].c_end, 1);
  const auto at2 = memcarlo::footprint::recorded_registrations(reader, 2);
  ASSERT_EQ(at2.size(), 1u);
  EXPECT_EQ(at2[0].base, reinterpret_cast<std::uintptr_t>(edges.get()));
  std::remove(path.c_str());
}

}  // namespace
