// The `register` storage class, which C++17 removed and Clang then refuses; nvcc accepts it in
// device code, and so does the instrumenter's parse. The accesses around it are probed as usual.
__global__ void row_sums(const float* matrix, float* sums, int cols) {
  register int row = blockIdx.x * blockDim.x + threadIdx.x;
  register float sum = 0.0f;
  for (register int j = 0; j < cols; ++j) sum += matrix[row * cols + j];
  sums[row] = sum;
}
// CHECK-HOST: register float sum = 0.0f;
// CHECK-HOST: sum += (*memcarlo_probe(memcarlo_tu, 0, &(matrix[row * cols + j])));
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 1, &(sums[row]))) = sum;
// CHECK-LOADS: 2
