// __host__ __device__ functions are device code too; their probes compile for both sides.
__host__ __device__ inline float lerp_at(const float* table, int i, float t) {
  return table[i] + t * (table[i + 1] - table[i]);
}
__global__ void interpolate(const float* table, float* out) {
  out[threadIdx.x] = lerp_at(table, threadIdx.x, 0.25f);
}
float host_side(const float* table) { return lerp_at(table, 0, 0.5f); }
// CHECK-HOST: return (*memcarlo_probe(memcarlo_tu, 0, &(table[i]))) + t * ((*memcarlo_probe(memcarlo_tu, 1, &(table[i + 1]))) - table[i]);
// CHECK-LOAD: {"id": 2, "expression": "table[i]", "redundant_of": 0}
// CHECK-LOAD: {"id": 0, "function": "lerp_at", "kernels": ["interpolate"], "address_space": "unknown"}
