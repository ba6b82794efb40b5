// The first half of an MVT-like pair, written for memcarlo's locality tests: x1 += a * y1, one
// thread per row. Every block reads all of y1 (fully connected), a row of a per thread.
__global__ void mvt_first(float* x1, const float* a, const float* y1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = x1[i];
  for (int j = 0; j < n; j++) {
    acc += a[i * n + j] * y1[j];
  }
  x1[i] = acc;
}
