// Dynamically sized `extern __shared__` memory is not probed either (a block reduction).
__global__ void block_sum(float* sums, const float* in) {
  extern __shared__ float partial[];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}
// CHECK-HOST: MEMCARLO_DYNAMIC_SHARED(float, partial);
// CHECK-CUDA: extern __shared__ float partial[];
// CHECK-HOST: partial[t] = (*memcarlo_probe(memcarlo_tu, 0, &(in[blockIdx.x * blockDim.x + t])));
// CHECK-HOST: if (t == 0) (*memcarlo_probe(memcarlo_tu, 1, &(sums[blockIdx.x]))) = partial[0];
// CHECK-SUMMARY: probed 2 accesses, skipped 4 (shared: 4)
// CHECK-LOADS: 2
