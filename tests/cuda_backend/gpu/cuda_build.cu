// deterministic_kernels.cuh built for the cuda backend (nvcc, relocatable device code).
#include <cuda_runtime.h>

#include "deterministic_kernels.cuh"
