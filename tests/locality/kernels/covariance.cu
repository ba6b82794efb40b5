// The centring step of a covariance computation, written for memcarlo's locality tests: every
// element of a column-major sample matrix minus its column's mean. LocalityGuru §IV,
// Covariance kernel 2 with grid 64x64, block 32x8: mean[index_x + 1] is shared by one grid
// column's blocks, data by no one.
__global__ void centre(float* out, const float* data, const float* mean, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * (n + 1) + x] = data[y * (n + 1) + x] - mean[x + 1];
}
