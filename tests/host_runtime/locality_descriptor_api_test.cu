// The Locality Descriptor API (memcarlo/locality_descriptor.h) in the host backend: the paper's
// Figure 9 descriptor for histo is recorded as a trace annotation with the data structure's
// device address and read back as the descriptor it describes, valid for the launch.
#include <cuda_runtime.h>

#include <nlohmann/json.hpp>

#include "host_test_util.h"
#include "memcarlo/locality_descriptor.h"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"

using host_test::DeviceArray;
using memcarlo::tracebuf::Dim3;
using memcarlo::tracebuf::TraceReader;

namespace {

static constexpr unsigned memcarlo_tu = 0x8009u;
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "histo_like", "expression": "sm_mappings[y * X_len + x]", "kind": "read",
   "element_size": 4}
])json";
MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)

constexpr unsigned kXLen = 64, kYLen = 32, kXTile = 16;

// Each block (bx, by) reads column strip bx of sm_mappings, all rows: the blocks of a grid column
// share their strip (histo's pattern, paper Figure 8).
__global__ void histo_like(const int* sm_mappings, int* sink) {
  int sum = 0;
  for (unsigned y = 0; y < kYLen; ++y) {
    const unsigned x = blockIdx.x * kXTile + threadIdx.x;
    sum += *memcarlo_probe(memcarlo_tu, 0u, &(sm_mappings[y * kXLen + x]));
  }
  sink[(blockIdx.y * gridDim.x + blockIdx.x) * kXTile + threadIdx.x] = sum;
}

TEST(LocalityDescriptorApi, Figure9DescriptorIsRecordedForTheLaunch) {
  const std::string path = host_test::temporary_trace_path("ldesc_api");
  host_test::TracingOff tracing_off;
  memcarlo::host::set_runtime_options(host_test::trace_options(path));
  DeviceArray<int> sm_mappings(kXLen * kYLen);
  const dim3 grid(kXLen / kXTile, 8), block(kXTile);
  DeviceArray<int> sink(grid.x * grid.y * kXTile);
  Tile_t tile(dim3(kXTile, kYLen, 1), dim3(1, grid.y, 1), dim3(1, 0, 0));
  LocalitySemantics_t loc(COACCESSED, REGULAR, kXLen);
  LocalityDescriptor ldesc(static_cast<const int*>(sm_mappings.get()), kXLen * kYLen * sizeof(int),
                           INTER_THREAD, tile, loc, 1, dim3(kXLen, kYLen, 1), "sm_mappings");
  memcarlo_launch("histo_like", histo_like, grid, block, 0, 0,
                  static_cast<const int*>(sm_mappings.get()), sink.get());
  memcarlo::host::finish_trace();

  const TraceReader reader = TraceReader::open(path);
  const nlohmann::json annotations = nlohmann::json::parse(reader.annotations_json());
  ASSERT_EQ(annotations.size(), 1u);
  EXPECT_EQ(annotations[0]["kind"], "locality_descriptor");
  const auto descriptors =
      memcarlo::tracebuf::recorded_descriptors(reader.annotations_json(), 0);
  ASSERT_EQ(descriptors.size(), 1u);
  const memcarlo::tracebuf::LocalityDescriptor& d = descriptors[0];
  EXPECT_EQ(d.name, "sm_mappings");
  EXPECT_EQ(d.address, reinterpret_cast<std::uintptr_t>(sm_mappings.get()));
  EXPECT_EQ(d.size, kXLen * kYLen * sizeof(int));
  EXPECT_EQ(d.element_size, sizeof(int));
  EXPECT_EQ(d.shape, (Dim3{kXLen, kYLen, 1}));
  EXPECT_EQ(d.type, memcarlo::tracebuf::LocalityType::kInterThread);
  EXPECT_EQ(d.data_tile, (Dim3{kXTile, kYLen, 1}));
  EXPECT_EQ(d.compute_tile, (Dim3{1, 8, 1}));
  EXPECT_EQ(d.compute_data_map, (Dim3{1, 0, 0}));
  EXPECT_EQ(d.sharing, memcarlo::tracebuf::SharingType::kCoaccessed);
  EXPECT_EQ(d.stride, kXLen);
  // Valid against the launch: 4 D-Tiles of (16, 32) for the 4 C-Tiles (1, 8) of the 4 x 8 grid,
  // inside sm_mappings's allocation.
  EXPECT_NO_THROW(memcarlo::tracebuf::check_descriptors(descriptors, reader.launches()[0].info.grid,
                                                        reader.allocations()));
  std::remove(path.c_str());
}

}  // namespace
