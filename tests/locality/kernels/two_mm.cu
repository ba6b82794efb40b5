// The first product of a 2MM-like chain, written for memcarlo's locality tests: one thread per
// output element; each thread walks a row of a, a column of b, and reads c transposed.
// LocalityGuru §IV, 2MM at N = 256, grid 8x32, block 32x8: blocks of one grid row share
// blockDim.y * N = 2,048 elements of a, blocks of one grid column blockDim.x * N = 8,192 of b.
__global__ void two_mm_first(float* out, const float* a, const float* b, const float* c, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {
    acc += a[row * n + k] * b[k * n + col];
  }
  out[row * n + col] = acc + c[col * n + row];
}
