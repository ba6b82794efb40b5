// Scalar CSR sparse matrix-vector product x = A·y, one thread per row: the kernel of Listing 2 in
// the PPoPP'12 paper, whose case study (§6.2) memcarlo reproduces.
//
//   spmv_scalar [--matrix u|b|U|B] [--rows N] [--seed S]
//
// What to look for in a memcarlo report: indices[j] and val[j] walk consecutive addresses inside
// each thread, yet every lane of a warp walks a different row, so a warp touches about 32 lines
// per iteration, and with dozens of warps per SM those lines are evicted before the thread comes
// back for the next word. y[ind] looks irregular but its elements are shared by many rows, and it
// ends up cheaper than both (Figure 8 of the paper).
#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"
#include "../common/example_tafe.h"
#include "spmv_problem.h"

// The paper's BLOCKSIZE: the kernel computes its row from it, so it must match the launch.
constexpr unsigned kBlockSize = 256;

// Names and statement order follow Listing 2 so that the loads in a report read like the paper's
// Figure 8: rowIndices[myi], rowIndices[myi+1], indices[j], y[ind], val[j], and the store x[myi].
__global__ void spmv_csr_scalar(unsigned numRows, const unsigned* rowIndices,
                                const unsigned* indices, const float* val, const float* y,
                                float* x) {
  float t = 0;
  unsigned myi = blockIdx.x * kBlockSize + threadIdx.x;

  if (myi < numRows) {
    unsigned lb = rowIndices[myi];
    unsigned ub = rowIndices[myi + 1];
    for (unsigned j = lb; j < ub; j++) {
      unsigned ind = indices[j];
      float yval = y[ind];
      t += val[j] * yval;
    }
    x[myi] = t;
  }
}

int main(int argc, char** argv) {
  const spmv::Options options = spmv::parse_options(argc, argv);
  const spmv::CsrMatrix matrix =
      spmv::generate_matrix(options.matrix_kind, options.num_rows, options.seed);
  const std::vector<float> y = spmv::generate_vector(options.num_rows, options.seed);
  const unsigned num_rows = matrix.num_rows;
  const std::size_t num_nonzeros = matrix.indices.size();

  unsigned* device_row_indices = nullptr;
  unsigned* device_indices = nullptr;
  float* device_val = nullptr;
  float* device_y = nullptr;
  float* device_x = nullptr;
  CHECK_CUDA(cudaMalloc(&device_row_indices, (num_rows + 1) * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&device_indices, num_nonzeros * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&device_val, num_nonzeros * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&device_y, num_rows * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&device_x, num_rows * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(device_row_indices, matrix.rowIndices.data(),
                        (num_rows + 1) * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(device_indices, matrix.indices.data(), num_nonzeros * sizeof(unsigned),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(device_val, matrix.val.data(), num_nonzeros * sizeof(float),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(device_y, y.data(), num_rows * sizeof(float), cudaMemcpyHostToDevice));

  const unsigned num_blocks = (num_rows + kBlockSize - 1) / kBlockSize;
#if EXAMPLE_LOCALITY_DESCRIPTORS
  spmv::describe_locality(num_blocks, /*thread_per_row=*/true, num_rows, num_nonzeros,
                          device_row_indices, device_indices, device_val, device_y, device_x);
#endif
#ifdef EXAMPLE_TAFE
  // The kernel's thread address footprints by hand: myi = blockIdx.x·kBlockSize + threadIdx.x;
  // rowIndices[myi] and [myi + 1]; the row's non-zeros between them (indices, val); y at each
  // non-zero's column; x[myi].
  taf_paramSetup(dim3(kBlockSize), dim3(num_blocks));
  const long long by_row[6] = {1, 0, 0, kBlockSize, 0, 0};
  taf_register(device_row_indices, num_rows + 1, TID_DEP, sizeof(unsigned), by_row, 0, 1, 2, true);
  taf_register(device_indices, num_nonzeros, INDIR_RANGE, sizeof(unsigned), device_row_indices, 0,
               device_row_indices + 1, 0, true);
  taf_register(device_val, num_nonzeros, INDIR_RANGE, sizeof(float), device_row_indices, 0,
               device_row_indices + 1, 0, false);
  taf_register(device_y, num_rows, INDIR, sizeof(float), device_indices, 1, 0, false);
  taf_register(device_x, num_rows, TID_DEP, sizeof(float), by_row, 0, 0, 0, false);
  // Ready (TAFE's R bit): the CSR arrays hold their values (copied above).
  taf_setRdy(device_row_indices);
  taf_setRdy(device_indices);
  taf_setRdy(device_val);
  taf_setRdy(device_y);
  taf_setRdy(device_x);
#endif
  spmv_csr_scalar<<<num_blocks, kBlockSize>>>(num_rows, device_row_indices, device_indices,
                                              device_val, device_y, device_x);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> x(num_rows);
  CHECK_CUDA(cudaMemcpy(x.data(), device_x, num_rows * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(device_row_indices));
  CHECK_CUDA(cudaFree(device_indices));
  CHECK_CUDA(cudaFree(device_val));
  CHECK_CUDA(cudaFree(device_y));
  CHECK_CUDA(cudaFree(device_x));

  std::vector<double> expected;
  std::vector<double> magnitude;
  spmv::reference_spmv(matrix, y, &expected, &magnitude);
  return spmv::check_result("spmv_scalar", x, expected, magnitude);
}
