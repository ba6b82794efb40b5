// One-dimensional indexing: blockIdx.x * blockDim.x + threadIdx.x, read and write.
__global__ void scale(float* out, const float* in, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor;
}
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(out[i]))) = (*memcarlo_probe(memcarlo_tu, 1, &(in[i]))) * factor;
// CHECK-HOST: #include "memcarlo/probe_api.h"
// CHECK-HOST: static constexpr unsigned memcarlo_tu = 0x
// CHECK-HOST: MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)
// CHECK-LOADS: 2
// CHECK-LOAD: {"id": 0, "expression": "out[i]", "kind": "write", "element_type": "float", "element_size": 4, "base": "out", "address_space": "global", "function": "scale", "kernels": ["scale"], "line": 4, "column": 14, "loop_depth": 0}
// CHECK-LOAD: {"id": 1, "expression": "in[i]", "kind": "read", "sequence": 0, "depends_on": []}
// CHECK-LOAD: {"id": 1, "index": {"kind": "affine", "root": "in", "unit": "elements", "expression": "blockDim.x*blockIdx.x + threadIdx.x", "constant": 0, "symbols": {"blockIdx.x": "block", "blockDim.x": "launch_parameter", "threadIdx.x": "thread"}}}
// CHECK-SUMMARY: probed 2 accesses, skipped 0
