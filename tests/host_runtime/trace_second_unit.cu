// A second instrumented translation unit with its own loads table and local ids 0 and 1, for the
// test that the runtime concatenates the tables and remaps ids and dependences (value_depends_on
// names the unknown id 7 too, which is dropped).
#include <cuda_runtime.h>

static constexpr unsigned memcarlo_tu = 0x2002u;
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "scale", "expression": "data[i]", "kind": "read", "element_size": 4},
  {"id": 1, "function": "scale", "expression": "data[i] (store)", "kind": "write",
   "element_size": 4, "depends_on": [0], "value_depends_on": [0, 7]}
])json";
MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)

namespace {

__global__ void scale(float* data, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float value = *memcarlo_probe(memcarlo_tu, 0u, &(data[i]));
    *memcarlo_probe(memcarlo_tu, 1u, &(data[i])) = 3.0f * value;
  }
}

}  // namespace

void launch_second_unit(float* data, unsigned n) {
  memcarlo_launch("scale", scale, (n + 63) / 64, 64, 0, 0, data, n);
}
