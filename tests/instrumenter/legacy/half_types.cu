// cuda_fp16.h, cuda_bf16.h and cuda_fp8.h: both parse setups declare their types (the builtin one
// with memcarlo's declarations), so accesses to __half, __half2, __nv_bfloat16 and FP8 arrays are
// probed with the elements' sizes (2, 4, 2 and 1 bytes).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cstdio>

__global__ void mixed(int n, const __half* x, __half2* pairs, __nv_bfloat16* b,
                      __nv_fp8_e4m3* q) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half doubled = __hmul(x[i], __float2half(2.0f));
  pairs[i] = __halves2half2(doubled, __hneg(doubled));
  b[i] = __float2bfloat16(__half2float(doubled) + 1.0f);
  q[i] = __nv_fp8_e4m3(__bfloat162float(b[i]));
}

int main() {
  const int n = 64;
  __half* x;
  __half2* pairs;
  __nv_bfloat16* b;
  __nv_fp8_e4m3* q;
  cudaMallocManaged(&x, n * sizeof(__half));
  cudaMallocManaged(&pairs, n * sizeof(__half2));
  cudaMallocManaged(&b, n * sizeof(__nv_bfloat16));
  cudaMallocManaged(&q, n * sizeof(__nv_fp8_e4m3));
  for (int i = 0; i < n; ++i) x[i] = __float2half(0.25f * i);
  mixed<<<2, 32>>>(n, x, pairs, b, q);
  cudaDeviceSynchronize();
  // x = 15.75 at i = 63: doubled 31.5, b = 32.5 (exact in bfloat16), q = 32 (E4M3 keeps 4 bits).
  const bool ok = __high2float(pairs[63]) == -31.5f && __bfloat162float(b[63]) == 32.5f &&
                  static_cast<float>(q[63]) == 32.0f;
  printf(ok ? "half_types: OK\n" : "half_types: FAILED\n");
  return ok ? 0 : 1;
}
// CHECK-LOAD: {"expression": "x[i]", "kind": "read", "element_size": 2}
// CHECK-LOAD: {"expression": "pairs[i]", "kind": "write", "element_size": 4}
// CHECK-LOAD: {"expression": "b[i]", "kind": "write", "element_size": 2}
// CHECK-LOAD: {"expression": "q[i]", "kind": "write", "element_size": 1}
// CHECK-SUMMARY: probed 5 accesses
