// A CSR row gather written for memcarlo's locality tests: x[cols[j]] depends on a loaded value,
// so only the measured graph covers it.
__global__ void csr_row_sum(float* y, const int* rowptr, const int* cols, const float* vals,
                            const float* x, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int j = rowptr[row]; j < rowptr[row + 1]; ++j) {
    sum += vals[j] * x[cols[j]];
  }
  y[row] = sum;
}
