// A kernel template whose tile is a template argument, as the CUDA samples' matrixMul takes its
// BLOCK_SIZE: launched as row_tiles<16>, a name the loads table (which says row_tiles) does not
// carry, with an index form in TILE, which no launch records (it is not a kernel argument).
template <int TILE>
__global__ void row_tiles(float* out, const float* in, int width) {
  const int row = blockIdx.x * TILE + threadIdx.y;
  const int column = threadIdx.x;
  out[row * width + column] = 2.0f * in[row * width + column];
}
