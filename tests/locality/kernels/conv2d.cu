// A 3x3 convolution written for memcarlo's locality tests, over an input padded by one cell on
// every side (pitch n + 2), so that no thread needs a guard. LocalityGuru §IV, Convolution2D
// with grid 2x8, block 32x8: neighbouring blocks share halo cells (pattern index_x+y).
__global__ void conv3x3(float* out, const float* in, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int p = n + 2;
  float s = 0.2f * in[x * p + y] + 0.5f * in[x * p + y + 1] - 0.8f * in[x * p + y + 2] -
            0.3f * in[(x + 1) * p + y] + 0.6f * in[(x + 1) * p + y + 1] -
            0.9f * in[(x + 1) * p + y + 2] + 0.4f * in[(x + 2) * p + y] +
            0.7f * in[(x + 2) * p + y + 1] + 0.1f * in[(x + 2) * p + y + 2];
  out[x * n + y] = s;
}
