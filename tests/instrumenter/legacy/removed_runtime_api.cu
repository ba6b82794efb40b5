// Host code of the CUDA 3-10 era that CUDA 12/13 headers no longer declare: the cudaThread*
// calls, cudaDeviceProp fields CUDA 13 dropped (deviceOverlap, clockRate, ...), warpSize read from
// the properties (and as the device constant in the kernel), and time()/printf/memset used without their headers, as nvcc's cuda_runtime.h
// included them. Device code around them is ordinary.
#define BLOCK 128

__global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  if (i < n && lane < warpSize) y[i] = a * x[i] + y[i];
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("%s: %d SMs, warp %d, overlap %d, %d kHz, memory %d kHz, timeout %d, mode %d\n",
         prop.name, prop.multiProcessorCount, prop.warpSize, prop.deviceOverlap, prop.clockRate,
         prop.memoryClockRate, prop.kernelExecTimeoutEnabled, prop.computeMode);
  cudaThreadSetCacheConfig(cudaFuncCachePreferL1);
  srand((unsigned)time(NULL));
  const int n = 1000;
  float h[n];
  memset(h, 0, sizeof(h));
  float *x, *y;
  cudaMalloc((void**)&x, n * sizeof(float));
  cudaMalloc((void**)&y, n * sizeof(float));
  cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(y, h, sizeof(h), cudaMemcpyHostToDevice);
  const int blocks = min(n / BLOCK + 1, 65535);
  saxpy<<<blocks, BLOCK>>>(2.0f, x, y, n);
  cudaThreadSynchronize();
  cudaFree(x);
  cudaFree(y);
  cudaThreadExit();
  printf("removed_runtime_api: OK\n");
  return 0;
}
// CHECK-LOADS: 3
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(y[i]))) = a * (*memcarlo_probe(memcarlo_tu, 1, &(x[i]))) + (*memcarlo_probe(memcarlo_tu, 2, &(y[i])));
// CHECK-HOST: memcarlo_launch("saxpy", saxpy, blocks, BLOCK, 0, 0, 2.0f, x, y, n);
// CHECK-SUMMARY: probed 3 accesses, skipped 0; 1 launches rewritten
