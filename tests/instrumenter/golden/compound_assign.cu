// Compound assignments are one read-modify-write access each.
__global__ void accumulate(float* acc, const float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  acc[i] += v[i];
  acc[i + n] *= 2.0f;
}
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(acc[i]))) += (*memcarlo_probe(memcarlo_tu, 1, &(v[i])));
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 2, &(acc[i + n]))) *= 2.0f;
// CHECK-LOAD: {"id": 0, "kind": "rmw", "expression": "acc[i]"}
// CHECK-LOAD: {"id": 2, "kind": "rmw", "index": {"kind": "affine", "expression": "blockDim.x*blockIdx.x + n + threadIdx.x"}}
// CHECK-LOAD: {"id": 1, "kind": "read"}
// CHECK-LOADS: 3
