// Symbols of a second translation unit for symbol_names_test.cu: a string names a variable that
// the calling unit never declared, as CUDA 2-4 programs do across files.
#include <cuda_runtime.h>

__constant__ float symbol_test_other_unit_table[8];

namespace symbol_test {
__device__ int scale_factor;
}  // namespace symbol_test

// Also a static variable of symbol_names_test.cu: the name alone cannot tell which.
static __constant__ int symbol_test_duplicate[4];

namespace {
__global__ void read_other_unit(float* out) {
  out[threadIdx.x] =
      symbol_test_other_unit_table[threadIdx.x] * static_cast<float>(symbol_test::scale_factor);
}
}  // namespace

void symbol_test_read_other_unit(float* out) {
  memcarlo_launch("read_other_unit", read_other_unit, 1, 8, 0, 0, out);
}

const void* symbol_test_duplicate_of_second_unit() {
  return symbol_test_duplicate;
}
