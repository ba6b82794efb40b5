// A namespace-scope `extern __shared__` array (the host backend declares it in each function
// that uses it, since the emulation gives a block its dynamic shared memory inside a function).
extern __shared__ float staging[];

__device__ float stage(const float* in, unsigned t) {
  staging[t] = in[t];
  __syncthreads();
  return staging[(t + 1) % blockDim.x];
}

__global__ void rotate(float* out, const float* in) {
  out[threadIdx.x] = stage(in, threadIdx.x);
}
// CHECK-HOST: static_assert(true, "extern __shared__ staging: declared in each function that uses it");
// CHECK-HOST: __device__ float stage(const float* in, unsigned t) { MEMCARLO_DYNAMIC_SHARED(float, staging);
// CHECK-NOT-HOST: __global__ void rotate(float* out, const float* in) { MEMCARLO_DYNAMIC_SHARED
// CHECK-CUDA: extern __shared__ float staging[];
// CHECK-SUMMARY: probed 2 accesses, skipped 2 (shared: 2)
// CHECK-LOADS: 2
