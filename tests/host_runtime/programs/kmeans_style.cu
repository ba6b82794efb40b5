// A nearest-centroid step written the way classic benchmarks (Rodinia's kmeans, gaussian) are,
// for these tests: points read through a file-scope texture reference bound with the C form of
// cudaBindTexture, centroids copied into __constant__ memory by the variable's name, results
// compared with the driver's CUDA_SUCCESS, cudaThreadSynchronize, the device properties CUDA 13
// removed, and CUDA's max on floats in host code. Prints "Result = PASS".
#include <cuda.h>

#include <stdio.h>
#include <stdlib.h>

#define POINTS 2048
#define FEATURES 2
#define CENTROIDS 4

texture<float, 1, cudaReadModeElementType> t_points;
__constant__ float c_centroids[CENTROIDS * FEATURES];

__global__ void nearest_centroid(int* membership, int points) {
  const int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point >= points)
    return;
  int best = 0;
  float best_distance = 3.0e38f;
  for (int c = 0; c < CENTROIDS; ++c) {
    float distance = 0.0f;
    for (int f = 0; f < FEATURES; ++f) {
      const float difference =
          tex1Dfetch(t_points, point * FEATURES + f) - c_centroids[c * FEATURES + f];
      distance += difference * difference;
    }
    if (distance < best_distance) {
      best_distance = distance;
      best = c;
    }
  }
  membership[point] = best;
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("clock rate %d kHz, memory clock %d kHz, bus %d bits, overlap %d\n", prop.clockRate,
         prop.memoryClockRate, prop.memoryBusWidth, prop.deviceOverlap);

  float* points = (float*)malloc(POINTS * FEATURES * sizeof(float));
  float largest = 0.0f;
  for (int i = 0; i < POINTS * FEATURES; ++i) {
    points[i] = (float)((i * 7919) % 1000) / 10.0f;
    largest = max(largest, points[i]);
  }
  float centroids[CENTROIDS * FEATURES] = {10.0f, 10.0f, 90.0f, 10.0f, 10.0f, 90.0f, 90.0f, 90.0f};

  float* d_points;
  int* d_membership;
  cudaMalloc((void**)&d_points, POINTS * FEATURES * sizeof(float));
  cudaMalloc((void**)&d_membership, POINTS * sizeof(int));
  cudaMemcpy(d_points, points, POINTS * FEATURES * sizeof(float), cudaMemcpyHostToDevice);

  cudaChannelFormatDesc chDesc = cudaCreateChannelDesc<float>();
  t_points.filterMode = cudaFilterModePoint;
  t_points.normalized = false;
  t_points.channelDesc = chDesc;
  if (cudaBindTexture(NULL, &t_points, d_points, &chDesc, POINTS * FEATURES * sizeof(float)) !=
      CUDA_SUCCESS) {
    printf("Couldn't bind points to the texture\n");
    return 1;
  }
  cudaMemcpyToSymbol("c_centroids", centroids, sizeof centroids, 0, cudaMemcpyHostToDevice);
  // The name can come from a variable too.
  const char* symbol = "c_centroids";
  float check[CENTROIDS * FEATURES];
  cudaMemcpyFromSymbol(check, symbol, sizeof check, 0, cudaMemcpyDeviceToHost);

  nearest_centroid<<<POINTS / 256, 256>>>(d_membership, POINTS);
  cudaThreadSynchronize();
  if (cudaGetLastError() != CUDA_SUCCESS) {
    printf("launch failed\n");
    return 1;
  }
  int* membership = (int*)malloc(POINTS * sizeof(int));
  cudaMemcpy(membership, d_membership, POINTS * sizeof(int), cudaMemcpyDeviceToHost);
  cudaUnbindTexture(t_points);

  int errors = 0;
  for (int c = 0; c < CENTROIDS * FEATURES; ++c) {
    errors += check[c] != centroids[c];
  }
  for (int point = 0; point < POINTS; ++point) {
    int best = 0;
    float best_distance = 3.0e38f;
    for (int c = 0; c < CENTROIDS; ++c) {
      float distance = 0.0f;
      for (int f = 0; f < FEATURES; ++f) {
        const float difference = points[point * FEATURES + f] - centroids[c * FEATURES + f];
        distance += difference * difference;
      }
      if (distance < best_distance) {
        best_distance = distance;
        best = c;
      }
    }
    errors += membership[point] != best;
  }
  printf("largest feature %.1f, %d errors\n", largest, errors);
  printf("Result = %s\n", errors == 0 && largest > 0.0f ? "PASS" : "FAIL");
  cudaFree(d_points);
  cudaFree(d_membership);
  free(points);
  free(membership);
  cudaThreadExit();
  return errors == 0 ? 0 : 1;
}
