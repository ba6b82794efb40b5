// Launches one of the locality test kernels (../kernels/*.cu) with the grid and block sizes
// LocalityGuru §IV gives, so that `memcarlo run` traces it and `memcarlo locality TRACE --static`
// compares the measured graph with the static one. Build with -DN=64 (GEMM's size is a macro).
//
//   locality_kernels two_mm|two_mm_chain|gemm|syr2k|conv2d|covariance|gram_schmidt|mvt|csr_gather|
//                    grid_stride|row_times_vector|row_tiles
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "../kernels/conv2d.cu"
#include "../kernels/covariance.cu"
#include "../kernels/csr_gather.cu"
#include "../kernels/gemm.cu"
#include "../kernels/gram_schmidt.cu"
#include "../kernels/grid_stride.cu"
#include "../kernels/mvt.cu"
#include "../kernels/row_times_vector.cu"
#include "../kernels/syr2k.cu"
#include "../kernels/template_tile.cu"
#include "../kernels/two_mm.cu"

namespace {

float* zeros(size_t count) {
  float* device = nullptr;
  cudaMalloc(&device, count * sizeof(float));
  cudaMemset(device, 0, count * sizeof(float));
  return device;
}

int* copy_of(const std::vector<int>& host) {
  int* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(int));
  cudaMemcpy(device, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
  return device;
}

}  // namespace

int main(int argc, char** argv) {
  const char* name = argc > 1 ? argv[1] : "";
  const dim3 tile(32, 8);
  if (std::strcmp(name, "two_mm") == 0) {
    const int n = 256;
    two_mm_first<<<dim3(8, 32), tile>>>(zeros(n * n), zeros(n * n), zeros(n * n), zeros(n * n), n);
  } else if (std::strcmp(name, "two_mm_chain") == 0) {
    // 2MM's two kernels in one program: tmp = a * b (+ c transposed), then gemm_like re-reads
    // tmp as its `a`, as PolyBench's mm2_kernel2 re-reads tmp[i * NJ + k].
    float* tmp = zeros(N * N);
    two_mm_first<<<dim3(2, 8), tile>>>(tmp, zeros(N * N), zeros(N * N), zeros(N * N), N);
    gemm_like<<<dim3(2, 8), tile>>>(zeros(N * N), tmp, zeros(N * N), zeros(N * N), 1.5f, 0.5f);
  } else if (std::strcmp(name, "gemm") == 0) {
    gemm_like<<<dim3(2, 8), tile>>>(zeros(N * N), zeros(N * N), zeros(N * N), zeros(N * N), 1.5f,
                                    0.5f);
  } else if (std::strcmp(name, "syr2k") == 0) {
    const int n = 256;
    syr2k_like<<<dim3(8, 32), tile>>>(zeros(n * n), zeros(n * n), zeros(n * n), n);
  } else if (std::strcmp(name, "conv2d") == 0) {
    const int n = 64;
    conv3x3<<<dim3(2, 8), tile>>>(zeros(n * n), zeros((n + 2) * (n + 2)), n);
  } else if (std::strcmp(name, "covariance") == 0) {
    const int n = 2048;
    centre<<<dim3(64, 64), tile>>>(zeros(512 * (n + 1)), zeros(512 * (n + 1)), zeros(n + 1), n);
  } else if (std::strcmp(name, "gram_schmidt") == 0) {
    const int n = 1024;
    normalise_column<<<4, 256>>>(zeros(n * n), zeros(n * n), zeros(n * n), n, 3);
  } else if (std::strcmp(name, "mvt") == 0) {
    const int n = 2048;
    mvt_first<<<8, 256>>>(zeros(n), zeros(n * n), zeros(n), n);
  } else if (std::strcmp(name, "csr_gather") == 0) {
    // 1,024 rows of two non-zeros each, in columns 7 r mod 1,024 and 7 r + 1 mod 1,024.
    const int rows = 1024;
    std::vector<int> rowptr(rows + 1), cols(2 * rows);
    for (int r = 0; r <= rows; ++r)
      rowptr[r] = 2 * r;
    for (int r = 0; r < rows; ++r) {
      cols[2 * r] = (7 * r) % rows;
      cols[2 * r + 1] = (7 * r + 1) % rows;
    }
    csr_row_sum<<<4, 256>>>(zeros(rows), copy_of(rowptr), copy_of(cols), zeros(2 * rows),
                            zeros(rows), rows);
  } else if (std::strcmp(name, "grid_stride") == 0) {
    // 16 vectors of 256 elements over 4 blocks of 64 threads; then 8 rows of 64, one per block.
    // Allocated here, so that each array has a name of its own in the trace.
    float* partial = nullptr;
    float* a = nullptr;
    float* b = nullptr;
    float* rows = nullptr;
    float* sums = nullptr;
    cudaMalloc(&partial, 16 * 64 * sizeof(float));
    cudaMalloc(&a, 16 * 256 * sizeof(float));
    cudaMalloc(&b, 16 * 256 * sizeof(float));
    cudaMalloc(&rows, 8 * 64 * sizeof(float));
    cudaMalloc(&sums, 8 * 64 * sizeof(float));
    cudaMemset(a, 0, 16 * 256 * sizeof(float));
    cudaMemset(b, 0, 16 * 256 * sizeof(float));
    cudaMemset(rows, 0, 8 * 64 * sizeof(float));
    grid_stride_dot<<<4, 64>>>(partial, a, b, 16, 256);
    rows_above<<<8, 64>>>(sums, rows, 64);
  } else if (std::strcmp(name, "row_times_vector") == 0) {
    // 4096 rows of 64 floats, 32 blocks of 128 threads.
    float* tmp = nullptr;
    float* a = nullptr;
    float* x = nullptr;
    cudaMalloc(&tmp, 4096 * sizeof(float));
    cudaMalloc(&a, 4096 * 64 * sizeof(float));
    cudaMalloc(&x, 64 * sizeof(float));
    cudaMemset(tmp, 0, 4096 * sizeof(float));
    cudaMemset(a, 0, 4096 * 64 * sizeof(float));
    cudaMemset(x, 0, 64 * sizeof(float));
    row_times_vector<<<32, 128>>>(tmp, a, x, 4096, 64);
  } else if (std::strcmp(name, "row_tiles") == 0) {
    // 8 tiles of 16 rows of 32 floats, one block of 32 x 16 threads each.
    float* out = nullptr;
    float* in = nullptr;
    cudaMalloc(&out, 128 * 32 * sizeof(float));
    cudaMalloc(&in, 128 * 32 * sizeof(float));
    cudaMemset(in, 0, 128 * 32 * sizeof(float));
    row_tiles<16><<<8, dim3(32, 16)>>>(out, in, 32);
  } else {
    std::fprintf(stderr,
                 "usage: locality_kernels two_mm|two_mm_chain|gemm|syr2k|conv2d|covariance|"
                 "gram_schmidt|mvt|csr_gather|grid_stride|row_times_vector|row_tiles\n");
    return 2;
  }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "locality_kernels: %s failed\n", name);
    return 1;
  }
  std::printf("locality_kernels: %s done\n", name);
  return 0;
}
