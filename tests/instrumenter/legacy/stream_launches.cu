// Launches on streams held in arrays, a struct's array and through a pointer, and launches in
// the branches of #ifdef/#else and #if 0: only the branch the preprocessor keeps is rewritten
// (the output is compiled with the same macros).
#include <stdio.h>
#define STREAMS 4

__global__ void increment(int* data, int offset) { data[offset + threadIdx.x] += 1; }
__global__ void decrement(int* data, int offset) { data[offset + threadIdx.x] -= 1; }

struct Pipeline {
  cudaStream_t streams[STREAMS];
};

int main() {
  int* data;
  cudaMalloc((void**)&data, 32 * STREAMS * sizeof(int));
  cudaMemset(data, 0, 32 * STREAMS * sizeof(int));
  cudaStream_t streams[STREAMS];
  Pipeline pipeline;
  for (int s = 0; s < STREAMS; ++s) {
    cudaStreamCreate(&streams[s]);
    pipeline.streams[s] = streams[s];
  }
  for (int s = 0; s < STREAMS; ++s) increment<<<1, 32, 0, streams[s]>>>(data, s * 32);
  for (int s = 0; s < STREAMS; ++s) {
    increment<<<1, 32, 0, pipeline.streams[(s + 1) % STREAMS]>>>(data, s * 32);
  }
  cudaStream_t* first = streams;
#ifdef COUNT_DOWN
  decrement<<<1, 32, 0, first[1]>>>(data, 0);
#else
  increment<<<1, 32, 0, first[1]>>>(data, 0);
#endif
#if 0
  decrement<<<1, 32>>>(data, 0);
#endif
  cudaDeviceSynchronize();
  int host[32];
  cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  printf(host[0] == 3 ? "stream_launches: OK\n" : "WRONG\n");
  for (int s = 0; s < STREAMS; ++s) cudaStreamDestroy(streams[s]);
  return 0;
}
// CHECK-HOST: memcarlo_launch("increment", increment, 1, 32, 0, streams[s], data, s * 32);
// CHECK-HOST: memcarlo_launch("increment", increment, 1, 32, 0, pipeline.streams[(s + 1) % STREAMS], data, s * 32);
// CHECK-HOST: memcarlo_launch("increment", increment, 1, 32, 0, first[1], data, 0);
// CHECK-HOST: decrement<<<1, 32, 0, first[1]>>>(data, 0);
// CHECK-HOST: decrement<<<1, 32>>>(data, 0);
// CHECK-CUDA: (memcarlo_launch_begin("increment", 1, 32, 0, streams[s]), memcarlo_launch_arguments(data, s * 32), increment<<<1, 32, 0, streams[s]>>>(data, s * 32), memcarlo_launch_end());
// CHECK-SUMMARY: 3 launches rewritten
