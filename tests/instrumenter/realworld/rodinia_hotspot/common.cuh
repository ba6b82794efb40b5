// Helper macros shared by the host and the kernel file, as Rodinia's benchmarks carry them.
#ifndef HOTSPOT_COMMON_CUH
#define HOTSPOT_COMMON_CUH

#define BLOCK_SIZE 16
#define MAX_ITERATIONS 4
#define STEP_RATIO 0.5f
#define IDX(r, c, width) ((r) * (width) + (c))

#define CUDA_SAFE_CALL(call)                                                    \
  do {                                                                          \
    cudaError_t err = call;                                                     \
    if (err != cudaSuccess) {                                                   \
      fprintf(stderr, "CUDA error %s:%d: %s\n", __FILE__, __LINE__,             \
              cudaGetErrorString(err));                                         \
      exit(EXIT_FAILURE);                                                       \
    }                                                                           \
  } while (0)

#endif
