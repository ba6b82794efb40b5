// A header with no device code of its own that includes the kernel's header beside it (as the
// CUDA samples' interval: cpu_interval.h includes cuda_interval.h).
#ifndef PLAIN_HEADER_PROJECT_WRAPPER_H
#define PLAIN_HEADER_PROJECT_WRAPPER_H

#include "kernels.cuh"

inline int blocks_for(int n, int block) { return (n + block - 1) / block; }

#endif
