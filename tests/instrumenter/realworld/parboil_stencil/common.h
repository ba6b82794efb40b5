// Parboil-style helper header: the 3D index macro and the error check its benchmarks use.
#ifndef PARBOIL_STENCIL_COMMON_H
#define PARBOIL_STENCIL_COMMON_H

#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))

#define CUERR                                                              \
  {                                                                        \
    cudaError_t err;                                                       \
    if ((err = cudaGetLastError()) != cudaSuccess) {                       \
      printf("CUDA error: %s, line %d\n", cudaGetErrorString(err), __LINE__); \
      return -1;                                                           \
    }                                                                      \
  }

#endif
