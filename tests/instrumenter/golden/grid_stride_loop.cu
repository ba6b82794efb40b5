// A grid-stride loop: the stride is the whole grid, blockDim.x * gridDim.x.
__global__ void saxpy(int n, float a, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}
// CHECK-LOADS: 3
// CHECK-LOAD: {"expression": "x[i]", "kind": "read", "loop_depth": 1, "index": {"kind": "affine", "expression": "i", "inductions": [{"variable": "i", "init": {"expression": "blockDim.x*blockIdx.x + threadIdx.x"}, "step": {"expression": "blockDim.x*gridDim.x"}, "bound": {"expression": "n"}, "comparison": "<"}]}}
// CHECK-LOAD: {"expression": "y[i]", "kind": "read", "loop_depth": 1}
// CHECK-LOAD: {"expression": "y[i]", "kind": "write", "loop_depth": 1}
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(y[i]))) = a * (*memcarlo_probe(memcarlo_tu, 1, &(x[i]))) + (*memcarlo_probe(memcarlo_tu, 2, &(y[i])));
