// __device__ helpers are instrumented once and list every kernel that reaches them.
__device__ float load_scaled(const float* values, int i, float scale) {
  return values[i] * scale;
}
__device__ void store(float* values, int i, float v) { values[i] = v; }
__global__ void first(float* out, const float* in) {
  int i = threadIdx.x;
  store(out, i, load_scaled(in, i, 2.0f));
}
__global__ void second(const float* in, float* out) {
  out[threadIdx.x] = load_scaled(in, threadIdx.x + 1, 0.5f);
}
// CHECK-HOST: return (*memcarlo_probe(memcarlo_tu, 0, &(values[i]))) * scale;
// CHECK-LOAD: {"id": 0, "function": "load_scaled", "kernels": ["first", "second"], "address_space": "unknown", "index": {"kind": "affine", "root": "values", "expression": "i", "symbols": {"i": "variable"}}}
// CHECK-LOAD: {"id": 1, "function": "store", "kernels": ["first"], "kind": "write"}
// CHECK-LOAD: {"id": 2, "function": "second", "kernels": ["second"], "kind": "write", "address_space": "global"}
// CHECK-LOADS: 3
