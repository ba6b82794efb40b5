// A loop with a constant stride: each thread sums every fourth element of its row.
__global__ void strided_sum(float* sums, const float* a, int n) {
  int row = blockIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; k += 4) {
    sum += a[row * n + k];
  }
  sums[row] = sum;
}
// CHECK-LOADS: 2
// CHECK-LOAD: {"expression": "a[row * n + k]", "kind": "read", "loop_depth": 1, "sequence": 0, "index": {"kind": "affine", "expression": "blockIdx.x*n + k", "symbols": {"k": "induction"}, "inductions": [{"variable": "k", "loop_depth": 1, "init": {"expression": "0"}, "step": {"expression": "4"}, "bound": {"expression": "n"}, "comparison": "<"}]}}
// CHECK-LOAD: {"expression": "sums[row]", "kind": "write", "loop_depth": 0, "sequence": 1}
