// PolyBench's atax_kernel1 in small: thread i accumulates its own row of `a` (`width` floats,
// read along the row) times `x` into tmp[i]. Each record of a warp reads 32 rows, 32 lines, which
// it rereads over the next 31 iterations; with many warps on an SM those lines do not stay in the
// L1, so every read of `a` leaves it, while x[j] is one address for the whole warp and tmp[i] one
// line. Ranked by the accesses the threads make, the three tie (one per iteration each); ranked by
// what leaves the L1, `a` leads.
__global__ void row_times_vector(float* tmp, const float* a, const float* x, int rows,
                                 int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    for (int j = 0; j < width; ++j)
      tmp[i] += a[i * width + j] * x[j];
  }
}
