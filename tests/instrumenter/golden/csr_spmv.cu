// CSR sparse matrix-vector product (the paper's SpMV, Listing 1): rowptr[i]..rowptr[i+1] bounds
// the loop, indices[j] feeds the address of x[...], so x[...] starts a new sequence.
__global__ void spmv_csr_scalar(const int* rowptr, const int* indices, const float* values,
                                const float* x, float* y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    int begin = rowptr[row];
    int end = rowptr[row + 1];
    for (int j = begin; j < end; ++j) {
      int column = indices[j];
      sum += values[j] * x[column];
    }
    y[row] = sum;
  }
}
// CHECK-LOAD: {"id": 0, "expression": "rowptr[row]", "sequence": 0, "loop_depth": 0, "index": {"kind": "affine", "expression": "blockDim.x*blockIdx.x + threadIdx.x"}}
// CHECK-LOAD: {"id": 1, "expression": "rowptr[row + 1]", "sequence": 0, "index": {"kind": "affine", "constant": 1}}
// CHECK-LOAD: {"id": 2, "expression": "indices[j]", "sequence": 1, "loop_depth": 1, "depends_on": [0], "index": {"kind": "affine", "expression": "j", "inductions": [{"variable": "j", "init": {"expression": "load#0"}, "bound": {"expression": "load#1"}, "comparison": "<", "step": {"expression": "1"}}], "loads": ["load#0", "load#1"]}}
// CHECK-LOAD: {"id": 3, "expression": "values[j]", "sequence": 1, "depends_on": [0]}
// CHECK-LOAD: {"id": 4, "expression": "x[column]", "sequence": 2, "depends_on": [2], "index": {"kind": "data_dependent", "expression": "load#2", "loads": ["load#2"]}}
// CHECK-LOAD: {"id": 5, "expression": "y[row]", "kind": "write", "sequence": 3, "loop_depth": 0}
// CHECK-LOADS: 6
