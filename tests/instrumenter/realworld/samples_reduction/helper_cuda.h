// A trimmed helper_cuda.h: checkCudaErrors and the device query the samples start with.
#ifndef SAMPLES_HELPER_CUDA_H
#define SAMPLES_HELPER_CUDA_H
#include <stdio.h>
#include <stdlib.h>

template <typename T>
void check(T result, char const* const func, const char* const file, int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d \"%s\"\n", file, line,
            static_cast<unsigned int>(result), func);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

inline int gpuDeviceInit(int devID) {
  int device_count = 0;
  checkCudaErrors(cudaGetDeviceCount(&device_count));
  if (devID < 0 || devID >= device_count) return -1;
  checkCudaErrors(cudaSetDevice(devID));
  return devID;
}
#endif
