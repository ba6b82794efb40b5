// Error-checking helpers in the style of the CUDA SDK's cutil.h and the samples' helper_cuda.h.
#ifndef CUTIL_STYLE_H
#define CUTIL_STYLE_H
#include <cstdio>
#include <cstdlib>

#define CUDA_SAFE_CALL(call)                                                          \
  do {                                                                                \
    cudaError err = call;                                                             \
    if (cudaSuccess != err) {                                                         \
      fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n", __FILE__, __LINE__, \
              cudaGetErrorString(err));                                               \
      exit(EXIT_FAILURE);                                                             \
    }                                                                                 \
  } while (0)

#define CUT_CHECK_ERROR(message)                                                 \
  do {                                                                           \
    cudaError_t err = cudaGetLastError();                                        \
    if (cudaSuccess != err) {                                                    \
      fprintf(stderr, "%s(%i) : %s : %s.\n", __FILE__, __LINE__, message,        \
              cudaGetErrorString(err));                                          \
      exit(EXIT_FAILURE);                                                        \
    }                                                                            \
  } while (0)

inline void __cudaSafeCall(cudaError err, const char* file, const int line) {
  if (cudaSuccess != err) {
    fprintf(stderr, "%s(%i) : cudaSafeCall() Runtime API error : %s.\n", file, line,
            cudaGetErrorString(err));
    exit(-1);
  }
}
#define cutilSafeCall(err) __cudaSafeCall(err, __FILE__, __LINE__)
#define checkCudaErrors(err) __cudaSafeCall(err, __FILE__, __LINE__)
#define CUT_DEVICE_INIT(ARGC, ARGV) CUDA_SAFE_CALL(cudaSetDevice(0))
#endif
