// Deterministic kernels instrumented by hand as memcarlo-instrument writes them, built for both
// backends (host_build.cu, cuda_build.cu): on a GPU and on the CPU emulation their traces must hold
// the same per-warp records. Covers convergent warps, an if/else, loops with lane-dependent trip
// counts (CSR SpMV), data-dependent addresses, and probes on shared memory that are dropped.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "memcarlo/probe_api.h"

static constexpr unsigned memcarlo_tu = 0x6d630c0du;
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "scale", "kernels": ["scale"], "expression": "in[i]", "kind": "read", "element_size": 4},
  {"id": 1, "function": "scale", "kernels": ["scale"], "expression": "out[i]", "kind": "write", "element_size": 4},
  {"id": 2, "function": "branches", "kernels": ["branches"], "expression": "a[i]", "kind": "read", "element_size": 4},
  {"id": 3, "function": "branches", "kernels": ["branches"], "expression": "b[2 * i]", "kind": "read", "element_size": 8},
  {"id": 4, "function": "branches", "kernels": ["branches"], "expression": "out[i]", "kind": "rmw", "element_size": 4},
  {"id": 5, "function": "spmv", "kernels": ["spmv"], "expression": "row_start[row]", "kind": "read", "element_size": 4},
  {"id": 6, "function": "spmv", "kernels": ["spmv"], "expression": "row_start[row + 1]", "kind": "read", "element_size": 4},
  {"id": 7, "function": "spmv", "kernels": ["spmv"], "expression": "col[j]", "kind": "read", "element_size": 4},
  {"id": 8, "function": "spmv", "kernels": ["spmv"], "expression": "x[col[j]]", "kind": "read", "element_size": 4, "depends_on": [7]},
  {"id": 9, "function": "spmv", "kernels": ["spmv"], "expression": "val[j]", "kind": "read", "element_size": 4},
  {"id": 10, "function": "spmv", "kernels": ["spmv"], "expression": "y[row]", "kind": "write", "element_size": 4},
  {"id": 11, "function": "staged", "kernels": ["staged"], "expression": "in[i]", "kind": "read", "element_size": 4},
  {"id": 12, "function": "staged", "kernels": ["staged"], "expression": "tile[threadIdx.x]", "kind": "write", "element_size": 4, "address_space": "unknown"},
  {"id": 13, "function": "staged", "kernels": ["staged"], "expression": "tile[blockDim.x - 1 - threadIdx.x]", "kind": "read", "element_size": 4, "address_space": "unknown"},
  {"id": 14, "function": "staged", "kernels": ["staged"], "expression": "out[i]", "kind": "write", "element_size": 4}
])json";
MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)

#if defined(MEMCARLO_BACKEND_HOST)
#define MC_LAUNCH(kernel, grid, block, ...) \
  memcarlo_launch(#kernel, kernel, grid, block, 0, 0, __VA_ARGS__)
#else
#define MC_LAUNCH(kernel, grid, block, ...)                                                   \
  (memcarlo_launch_begin(#kernel, grid, block, 0, 0), memcarlo_launch_arguments(__VA_ARGS__), \
   kernel<<<grid, block>>>(__VA_ARGS__), memcarlo_launch_end())
#endif

namespace {

constexpr int kThreads = 128;
constexpr int kBlocks = 24;
constexpr int kN = kThreads * kBlocks - 37;  // a partial last block
constexpr int kRows = kN;

__global__ void scale(const float* in, float* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    // One probed access per statement: the order of probes inside an expression is unspecified.
    const float value = (*memcarlo_probe(memcarlo_tu, 0u, &(in[i])));
    (*memcarlo_probe(memcarlo_tu, 1u, &(out[i]))) = 2.0f * value;
  }
}

__global__ void branches(const float* a, const double* b, float* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) {
    return;
  }
  float value;
  if (i % 3 == 0) {
    value = (*memcarlo_probe(memcarlo_tu, 2u, &(a[i])));
  } else {
    value = static_cast<float>((*memcarlo_probe(memcarlo_tu, 3u, &(b[2 * i]))));
  }
  (*memcarlo_probe(memcarlo_tu, 4u, &(out[i]))) += value;
}

__global__ void spmv(const int* row_start, const int* col, const float* val, const float* x,
                     float* y, int rows) {
  const int row = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (row < rows) {
    const int begin = (*memcarlo_probe(memcarlo_tu, 5u, &(row_start[row])));
    const int end = (*memcarlo_probe(memcarlo_tu, 6u, &(row_start[row + 1])));
    float sum = 0.0f;
    for (int j = begin; j < end; ++j) {
      const int c = (*memcarlo_probe(memcarlo_tu, 7u, &(col[j])));
      const float xc = (*memcarlo_probe(memcarlo_tu, 8u, &(x[c])));
      sum += (*memcarlo_probe(memcarlo_tu, 9u, &(val[j]))) * xc;
    }
    (*memcarlo_probe(memcarlo_tu, 10u, &(y[row]))) = sum;
  }
}

__global__ void staged(const float* in, float* out, int n) {
  __shared__ float tile[kThreads];
  float* stage = tile;  // the instrumenter cannot tell its address space: probed as "unknown"
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const float value = i < n ? (*memcarlo_probe(memcarlo_tu, 11u, &(in[i]))) : 0.0f;
  (*memcarlo_probe(memcarlo_tu, 12u, &(stage[threadIdx.x]))) = value;
  __syncthreads();
  if (i < n) {
    const float mirrored =
        (*memcarlo_probe(memcarlo_tu, 13u, &(stage[blockDim.x - 1 - threadIdx.x])));
    (*memcarlo_probe(memcarlo_tu, 14u, &(out[i]))) = mirrored;
  }
}

template <class T>
T* to_device(const std::vector<T>& host) {
  T* device = nullptr;
  if (cudaMalloc(&device, host.size() * sizeof(T)) != cudaSuccess ||
      cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice) !=
          cudaSuccess) {
    std::fprintf(stderr, "deterministic_kernels: device allocation failed\n");
    std::exit(1);
  }
  return device;
}

template <class T>
std::vector<T> to_host(const T* device, std::size_t count) {
  std::vector<T> host(count);
  cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

int check(const char* what, const std::vector<float>& got, const std::vector<float>& expected) {
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const float difference = got[k] - expected[k];
    if (difference > 1e-3f || difference < -1e-3f) {
      std::fprintf(stderr, "deterministic_kernels: %s[%zu] = %g, expected %g\n", what, k,
                   static_cast<double>(got[k]), static_cast<double>(expected[k]));
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("deterministic_kernels: no CUDA device, skipped\n");
    return 77;  // CTest's SKIP_RETURN_CODE
  }
  std::vector<float> in(kN), a(kN), ones(kN, 1.0f), x(kRows);
  std::vector<double> b(2 * kN);
  for (int k = 0; k < kN; ++k) {
    in[k] = static_cast<float>(k % 101) * 0.5f;
    a[k] = static_cast<float>(k % 7);
    b[2 * k] = static_cast<double>(k % 5);
    x[k] = static_cast<float>(k % 11) - 5.0f;
  }
  // Row r has 1 + (7r mod 13) non-zeros at pseudo-random columns: warps diverge in the row loop.
  std::vector<int> row_start(kRows + 1, 0), col;
  std::vector<float> val;
  for (int r = 0; r < kRows; ++r) {
    const int count = 1 + (7 * r) % 13;
    for (int k = 0; k < count; ++k) {
      col.push_back(static_cast<int>(
          (static_cast<unsigned>(r) * 2654435761u + 40503u * static_cast<unsigned>(k)) % kRows));
      val.push_back(static_cast<float>((r + k) % 9) * 0.25f);
    }
    row_start[r + 1] = static_cast<int>(col.size());
  }

  float* d_in = to_device(in);
  float* d_a = to_device(a);
  double* d_b = to_device(b);
  float* d_out = to_device(ones);
  float* d_scaled = to_device(ones);
  float* d_staged = to_device(ones);
  int* d_row_start = to_device(row_start);
  int* d_col = to_device(col);
  float* d_val = to_device(val);
  float* d_x = to_device(x);
  float* d_y = to_device(ones);

  const dim3 grid(kBlocks), block(kThreads);
  MC_LAUNCH(scale, grid, block, d_in, d_scaled, kN);
  MC_LAUNCH(branches, grid, block, d_a, d_b, d_out, kN);
  MC_LAUNCH(spmv, grid, block, d_row_start, d_col, d_val, d_x, d_y, kRows);
  MC_LAUNCH(staged, grid, block, d_in, d_staged, kN);
  MC_LAUNCH(scale, grid, block, d_in, d_scaled, kN);  // a second launch: untraced by default
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "deterministic_kernels: a kernel failed\n");
    return 1;
  }

  std::vector<float> scaled(kN), out(kN), staged_out(kN), y(kRows);
  for (int k = 0; k < kN; ++k) {
    scaled[k] = 2.0f * in[k];
    out[k] = 1.0f + (k % 3 == 0 ? a[k] : static_cast<float>(b[2 * k]));
    const int mirror = (k / kThreads) * kThreads + (kThreads - 1 - k % kThreads);
    staged_out[k] = mirror < kN ? in[mirror] : 0.0f;
  }
  for (int r = 0; r < kRows; ++r) {
    float sum = 0.0f;
    for (int j = row_start[r]; j < row_start[r + 1]; ++j) {
      sum += val[j] * x[col[j]];
    }
    y[r] = sum;
  }
  return check("scale", to_host(d_scaled, kN), scaled) +
             check("branches", to_host(d_out, kN), out) + check("spmv", to_host(d_y, kRows), y) +
             check("staged", to_host(d_staged, kN), staged_out) !=
         0;
}
