// PolyBench/GPU-style configuration header: problem size and element type as macros.
#ifndef POLYBENCH_GEMM_H
#define POLYBENCH_GEMM_H
#define NI 128
#define NJ 128
#define NK 128
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8
#define ALPHA 32412.0f
#define BETA 2123.0f
typedef float DATA_TYPE;
#endif
