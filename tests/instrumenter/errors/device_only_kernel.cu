// Kernels with code under __CUDA_ARCH__: `device_only` has none for the host (no #else), which the
// host backend's warning names; `both` gives the host an #else branch, and `helper` is no kernel
// (a __host__ __device__ function's host branch is its own business): neither is named.
__host__ __device__ inline int helper(int x) {
#ifdef __CUDA_ARCH__
  x += 1;
#endif
  return x;
}

__global__ void device_only(float* out) {
#if __CUDA_ARCH__ >= 700
  out[threadIdx.x] = 1.0f;
#endif
}

__global__ void both(float* out) {
#ifdef __CUDA_ARCH__
  out[threadIdx.x] = 2.0f;
#else
  out[threadIdx.x] = static_cast<float>(helper(1));
#endif
}
