// Braced initializers that narrow (Parboil histo's `uchar4 v = {h.x, h.y, h.z, h.w}` from
// unsigned shorts, `{x >> 24, ...}` from unsigned ints): an error in Clang by default, a warning
// in nvcc, so both parse setups must accept them.
#include <cstdio>

__global__ void pack(const unsigned int* words, uchar4* bytes, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned int w = words[i];
  const ushort4 halves = {w & 0xFFFF, w >> 16, 0, 0};
  uchar4 packed = {w >> 24, (w >> 16) & 0xFF, halves.x >> 8, halves.y & 0xFF};
  bytes[i] = packed;
}

int main() {
  const int n = 64;
  unsigned int* words;
  uchar4* bytes;
  cudaMallocManaged(&words, n * sizeof(unsigned int));
  cudaMallocManaged(&bytes, n * sizeof(uchar4));
  for (int i = 0; i < n; ++i) words[i] = 0x01020304u * (i + 1);
  pack<<<2, 32>>>(words, bytes, n);
  cudaDeviceSynchronize();
  printf("narrowing_initializers: %s\n", bytes[1].x == 0x02 ? "OK" : "wrong");
  return 0;
}
// CHECK-LOAD: {"kind": "read", "base": "words", "expression": "words[i]"}
// CHECK-LOAD: {"kind": "write", "base": "bytes", "expression": "bytes[i]"}
// CHECK-LOADS: 2
