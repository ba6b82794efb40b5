// deterministic_kernels.cuh built for the host backend (CUDA emulation on the CPU).
#include "deterministic_kernels.cuh"
