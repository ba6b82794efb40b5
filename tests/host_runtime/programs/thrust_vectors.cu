// Thrust in a program built for the host backend: device and host vectors, sequence, transform,
// sort and reduce run on the CPU (Thrust's C++ device system), and a kernel works on a
// device_vector's storage through thrust::raw_pointer_cast, which is emulated device memory (the
// test checks that the kernel's accesses are traced inside it), as is thrust::device_malloc's; a
// kernel given the thrust::device_ptr itself reads and writes through device_references (traced
// too)
// (cudaMemcpy into it is a device copy). thrust::system_error is caught without including
// <thrust/system_error.h>, as programs written for the CUDA device system do. Every result is
// checked against an answer computed here.
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <cstdio>

struct Triple {
  __host__ __device__ int operator()(int v) const { return 3 * v; }
};

__global__ void square(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i] = data[i] * data[i];
  }
}

// Adds each element's index, through the device_ptr's device_references.
__global__ void add_index(thrust::device_ptr<int> data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i] = data[i] + i;
  }
}

int main() {
  const int n = 100;
  thrust::device_vector<int> values(n);
  thrust::sequence(values.begin(), values.end(), n, -1);  // n, n-1, ..., 1
  thrust::transform(values.begin(), values.end(), values.begin(), Triple());
  thrust::sort(values.begin(), values.end());  // 3, 6, ..., 3n
  int* raw = thrust::raw_pointer_cast(values.data());
  std::printf("storage %p\n", static_cast<void*>(raw));
  square<<<(n + 63) / 64, 64>>>(raw, n);
  add_index<<<(n + 63) / 64, 64>>>(values.data(), n);
  cudaDeviceSynchronize();
  const long long sum =
      thrust::reduce(values.begin(), values.end(), 0LL, thrust::plus<long long>());
  int first = 0;
  const cudaError_t copied = cudaMemcpy(&first, raw, sizeof(int), cudaMemcpyDeviceToHost);
  thrust::host_vector<int> host = values;
  bool ok = copied == cudaSuccess && first == 9;
  long long expected = 0;
  for (int i = 1; i <= n; ++i) {
    expected += 9LL * i * i + (i - 1);
    ok = ok && host[i - 1] == 9 * i * i + (i - 1);
  }
  ok = ok && sum == expected;

  const int four[4] = {4, 3, 2, 1};
  try {
    thrust::device_ptr<int> block = thrust::device_malloc<int>(4);
    ok = ok && cudaMemcpy(thrust::raw_pointer_cast(block), four, sizeof four,
                          cudaMemcpyHostToDevice) == cudaSuccess;
    ok = ok && thrust::reduce(block, block + 4) == 10;
    thrust::device_free(block);
  } catch (thrust::system_error& error) {
    std::printf("thrust::system_error: %s\n", error.what());
    ok = false;
  }
  std::printf("sum %lld (expected %lld)\nResult = %s\n", sum, expected, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
