// CUDA-samples-style driver: the block size picked at run time selects a template instantiation
// in a switch, with the dynamic shared memory size as the third launch argument.
#include <cuda_runtime.h>
#include <stdio.h>

#include "helper_cuda.h"
#include "reduction_kernel.cuh"

template <class T>
void reduce(int size, int threads, int blocks, T* d_idata, T* d_odata) {
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 1, 1);
  int smemSize = (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);
  switch (threads) {
    case 256:
      reduce4<T, 256><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 128:
      reduce4<T, 128><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    default:
      reduce4<T, 64><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
  }
}

int main(int argc, char** argv) {
  gpuDeviceInit(0);
  const int size = 1 << 16, threads = 256, blocks = size / (threads * 2);
  int *d_idata, *d_odata;
  checkCudaErrors(cudaMalloc((void**)&d_idata, size * sizeof(int)));
  checkCudaErrors(cudaMalloc((void**)&d_odata, blocks * sizeof(int)));
  checkCudaErrors(cudaMemset(d_idata, 0, size * sizeof(int)));
  reduce<int>(size, threads, blocks, d_idata, d_odata);
  checkCudaErrors(cudaDeviceSynchronize());
  cudaFree(d_idata);
  cudaFree(d_odata);
  printf("done\n");
  return 0;
}
// CHECK-HOST: memcarlo_launch("reduce4<T, 256>", reduce4<T, 256>, dimGrid, dimBlock, smemSize, 0, d_idata, d_odata, size);
// CHECK-CUDA: (memcarlo_launch_begin("reduce4<T, 128>", dimGrid, dimBlock, smemSize, 0), memcarlo_launch_arguments(d_idata, d_odata, size), reduce4<T, 128><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size), memcarlo_launch_end());
// CHECK-FILE: reduction_kernel.cuh: MEMCARLO_DYNAMIC_SHARED(int, __smem);
// CHECK-FILE: reduction_kernel.cuh: T mySum = (i < n) ? (*memcarlo_probe(memcarlo_tu, 0, &(g_idata[i]))) : 0;
// CHECK-LOAD: {"id": 0, "kind": "read", "base": "g_idata", "function": "reduce4", "element_type": "T"}
// CHECK-LOAD: {"id": 2, "kind": "write", "base": "sdata", "address_space": "unknown"}
// CHECK-LOAD: {"id": 6, "kind": "write", "base": "g_odata", "index": {"kind": "affine", "expression": "blockIdx.x"}}
// CHECK-SUMMARY: probed 7 accesses, skipped 0; 3 launches rewritten
