// Loops whose range depends on the block, for `memcarlo descriptors`.
//
// grid_stride_dot: a product per vector over a grid-stride loop, as the CUDA samples' scalarProd
// walks its vectors: block b takes vectors b, b + gridDim.x, ..., and its threads step through
// each vector by blockDim.x, each writing its partial sum. The start of the vector loop moves with
// the block (by less than one step over the grid), and the element loop starts from the vector.
//
// rows_above: block b sums the b rows above its own, a range that grows with the block.
__global__ void grid_stride_dot(float* partial, const float* a, const float* b, int vectors,
                                int elements) {
  for (int vec = blockIdx.x; vec < vectors; vec += gridDim.x) {
    const int base = vec * elements;
    float sum = 0;
    for (int pos = base + threadIdx.x; pos < base + elements; pos += blockDim.x)
      sum += a[pos] * b[pos];
    partial[vec * blockDim.x + threadIdx.x] = sum;
  }
}

__global__ void rows_above(float* out, const float* a, int width) {
  float sum = 0;
  for (int row = 0; row < blockIdx.x; ++row)
    sum += a[row * width + threadIdx.x];
  out[blockIdx.x * width + threadIdx.x] = sum;
}
