// __ldg(&a[i]) is a read of a[i] through the read-only cache.
__global__ void gather(float* out, const float* __restrict__ in, const int* __restrict__ index) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __ldg(&in[__ldg(index + i)]);
}
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(out[i]))) = __ldg(memcarlo_probe(memcarlo_tu, 1, &in[__ldg(memcarlo_probe(memcarlo_tu, 2, index + i))]));
// CHECK-LOAD: {"id": 1, "kind": "read", "expression": "in[__ldg(index + i)]", "element_type": "float", "base": "in", "depends_on": [2], "index": {"kind": "data_dependent", "expression": "load#2"}}
// CHECK-LOAD: {"id": 2, "kind": "read", "element_type": "int", "index": {"kind": "affine"}}
// CHECK-LOADS: 3
