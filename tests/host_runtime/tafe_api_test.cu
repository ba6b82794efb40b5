// TAFE's API (memcarlo/tafe.h) in the host backend: the paper's Listing 1 calls are recorded as
// annotations of the trace, in call order, with the arrays' device addresses, and the footprint
// library reads them back as registrations.
#include <cuda_runtime.h>

#include <nlohmann/json.hpp>

#include "host_test_util.h"
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

__global__ void visit(const int* nodes, int* sink) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sink[i] = *memcarlo_probe(memcarlo_tu, 0u, &(nodes[i]));
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

}  // namespace
