// A GEMM-like kernel written for memcarlo's locality tests: out = alpha * a * b + beta * c, one
// thread per element of out. LocalityGuru §IV, GEMM at N = 64, grid 2x8, block 32x8: a grid
// row shares blockDim.y * N = 512 elements, a grid column blockDim.x * N = 2,048.
__global__ void gemm_like(float* out, const float* a, const float* b, const float* c,
                          float alpha, float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  float sum = 0.0f;
  for (int k = 0; k < N; k++) {
    sum += a[i * N + k] * b[k * N + j];
  }
  out[i * N + j] = alpha * sum + beta * c[i * N + j];
}
