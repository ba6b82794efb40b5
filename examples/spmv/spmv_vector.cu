// Vectorized CSR sparse matrix-vector product x = A·y: the kernel of Listing 3 in the PPoPP'12
// paper, the optimization its case study (§6.2) derives from the per-load latencies.
//
//   spmv_vector [--matrix u|b|U|B] [--rows N] [--seed S]
//
// What to look for in a memcarlo report, next to spmv_scalar's: each thread now reads its row's
// column indices and values 16 bytes at a time (indices4[j / 4], val4[j / 4]), so a warp issues a
// quarter as many of these loads and each line it brings in serves four non-zeros before it can be
// evicted. Fewer lines in flight also leaves more of the L1 to y, which the paper observes mostly
// for the block-diagonal matrices b and B. The scalar prologue and epilogue loads cover about
// three non-zeros per row.
#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"
#include "spmv_problem.h"

// The paper's BLOCKSIZE: the kernel computes its row from it, so it must match the launch.
constexpr unsigned kBlockSize = 256;

// Same arguments and names as the scalar kernel (Listing 2). A 16-byte load must be 16-byte
// aligned, and a row may start anywhere, so each row is split in three: a scalar prologue up to
// the first multiple of 4, vector loads over whole groups of four, a scalar epilogue for the rest.
// The arrays themselves start 16-byte aligned because cudaMalloc returns at least 256-byte
// aligned memory. Non-zeros are still added in order, so x matches the scalar kernel's.
__global__ void spmv_csr_vector(unsigned numRows, const unsigned* rowIndices,
                                const unsigned* indices, const float* val, const float* y,
                                float* x) {
  const uint4* indices4 = reinterpret_cast<const uint4*>(indices);
  const float4* val4 = reinterpret_cast<const float4*>(val);
  float t = 0;
  unsigned myi = blockIdx.x * kBlockSize + threadIdx.x;

  if (myi < numRows) {
    unsigned lb = rowIndices[myi];
    unsigned ub = rowIndices[myi + 1];
    // [newlb, newub) is the largest range of whole aligned groups of four inside [lb, ub); it is
    // empty (newlb == newub == ub) when the row does not span one.
    unsigned newlb = (lb + 3) & ~3u;
    if (newlb > ub) {
      newlb = ub;
    }
    unsigned newub = ub & ~3u;
    if (newub < newlb) {
      newub = newlb;
    }

    // Prologue: alignment adjustment.
    for (unsigned j = lb; j < newlb; j++) {
      unsigned ind = indices[j];
      float yval = y[ind];
      t += val[j] * yval;
    }

    for (unsigned j = newlb; j < newub; j += 4) {
      uint4 ind = indices4[j / 4];
      float4 value = val4[j / 4];
      float yval = y[ind.x];
      t += value.x * yval;
      yval = y[ind.y];
      t += value.y * yval;
      yval = y[ind.z];
      t += value.z * yval;
      yval = y[ind.w];
      t += value.w * yval;
    }

    // Epilogue: the non-zeros after the last whole group.
    for (unsigned j = newub; j < ub; j++) {
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
  spmv::describe_locality(num_blocks, /*thread_per_row=*/false, num_rows, num_nonzeros,
                          device_row_indices, device_indices, device_val, device_y, device_x);
#endif
  spmv_csr_vector<<<num_blocks, kBlockSize>>>(num_rows, device_row_indices, device_indices,
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
  return spmv::check_result("spmv_vector", x, expected, magnitude);
}
