// A symmetric rank-2k update written for memcarlo's locality tests: each thread combines row
// `row` and row `col` of both a and b. LocalityGuru §IV, SYR2K at N = 256, grid 8x32, block
// 32x8: a and b are each read by index_x and by index_y rows (pattern index_xy).
__global__ void syr2k_like(float* out, const float* a, const float* b, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {
    acc += a[row * n + k] * b[col * n + k] + b[row * n + k] * a[col * n + k];
  }
  out[col * n + row] += acc;
}
