// CUDA-samples-style reduction kernel (after reduction_kernel.cu): a SharedMemory<T> helper whose
// conversion operator hands out the dynamic shared memory, a block-size template parameter, and
// warp shuffles for the last 32 elements.
#ifndef SAMPLES_REDUCTION_KERNEL_CUH
#define SAMPLES_REDUCTION_KERNEL_CUH

template <class T>
struct SharedMemory {
  __device__ inline operator T*() {
    extern __shared__ int __smem[];
    return (T*)__smem;
  }
  __device__ inline operator const T*() const {
    extern __shared__ int __smem[];
    return (T*)__smem;
  }
};

template <class T, unsigned int blockSize>
__global__ void reduce4(const T* __restrict__ g_idata, T* __restrict__ g_odata, unsigned int n) {
  T* sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n) mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    if (blockSize >= 64) mySum += sdata[tid + 32];
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
      mySum += __shfl_down_sync(0xffffffff, mySum, offset);
    }
  }
  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

#endif
