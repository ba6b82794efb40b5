// CUB's error-checking macros for memcarlo's host backend: CubDebug(e) prints a failing status
// with its place and yields it; CubDebugExit(e) also ends the program.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "detail/memcarlo_cub.cuh"

namespace cub {
inline cudaError_t Debug(cudaError_t error, const char* filename, int line) {
  if (error != cudaSuccess) {
    std::fprintf(stderr, "CUDA error %d [%s, %d]: %s\n", static_cast<int>(error), filename, line,
                 cudaGetErrorString(error));
  }
  return error;
}
}  // namespace cub

#ifndef CubDebug
#define CubDebug(e) ::cub::Debug(static_cast<cudaError_t>(e), __FILE__, __LINE__)
#endif
#ifndef CubDebugExit
#define CubDebugExit(e)                                                \
  if (::cub::Debug(static_cast<cudaError_t>(e), __FILE__, __LINE__)) { \
    std::exit(1);                                                      \
  }
#endif
