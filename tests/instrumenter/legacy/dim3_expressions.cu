// Launch configurations computed in place: dim3 from rounded-up divisions and ceil(), fields
// assigned after construction, dynamic shared memory from an expression, and a stream.
#include <math.h>
#include <stdio.h>
#define BLOCK_X 16
#define BLOCK_Y 8

__global__ void scale2d(float* grid, int width, int height, float factor) {
  extern __shared__ float row[];
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  row[threadIdx.x] = grid[y * width + x];
  __syncthreads();
  grid[y * width + x] = row[threadIdx.x] * factor;
}

int main() {
  const int width = 100, height = 30;
  float* d_grid;
  cudaMalloc((void**)&d_grid, width * height * sizeof(float));
  dim3 threads(BLOCK_X, BLOCK_Y, 1);
  dim3 blocks((width + BLOCK_X - 1) / BLOCK_X, (int)ceil(height / (float)BLOCK_Y));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  scale2d<<<blocks, threads, BLOCK_X * sizeof(float), stream>>>(d_grid, width, height, 2.0f);
  blocks.y = 1;
  threads.y = height > 16 ? 1 : 2;
  scale2d<<<blocks, dim3(BLOCK_X, threads.y), sizeof(float) * BLOCK_X>>>(d_grid, width, height,
                                                                         0.5f);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  printf("dim3_expressions: OK\n");
  return 0;
}
// CHECK-HOST: memcarlo_launch("scale2d", scale2d, blocks, threads, BLOCK_X * sizeof(float), stream, d_grid, width, height, 2.0f);
// CHECK-HOST: memcarlo_launch("scale2d", scale2d, blocks, dim3(BLOCK_X, threads.y), sizeof(float) * BLOCK_X, 0, d_grid, width, height,
// CHECK-SUMMARY: probed 2 accesses, skipped 2 (shared: 2); 2 launches rewritten
