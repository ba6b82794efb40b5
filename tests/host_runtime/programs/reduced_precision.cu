// Half, bfloat16 and FP8 arithmetic the way machine-learning kernels write it, written for these
// tests: a half axpy with __hfma over __half2 pairs, a bfloat16 scale, and an FP8 (E4M3)
// quantize-dequantize of a row of floats. Every expected value is exact in its format, so the
// program checks equality. Traced, its accesses to __half and __nv_bfloat16 arrays are 2 bytes,
// to __half2 4 bytes and to __nv_fp8_e4m3 1 byte. Prints "Result = PASS".
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

__global__ void half_axpy(int n, __half a, const __half* x, __half* y, const __half2* u,
                          __half2* v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __hfma(a, x[i], y[i]);
  v[i] = __hfma2(__half2half2(a), u[i], v[i]);
}

__global__ void bf16_scale(int n, const __nv_bfloat16* source, __nv_bfloat16* scaled,
                           float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) scaled[i] = __float2bfloat16(__bfloat162float(source[i]) * factor);
}

__global__ void fp8_roundtrip(int n, const float* in, __nv_fp8_e4m3* packed, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  packed[i] = __nv_fp8_e4m3(in[i]);
  out[i] = static_cast<float>(packed[i]);
}

int main() {
  const int n = 256;
  __half *x, *y;
  __half2 *u, *v;
  __nv_bfloat16 *b_in, *b_out;
  float *f_in, *f_out;
  __nv_fp8_e4m3* packed;
  cudaMallocManaged(&x, n * sizeof(__half));
  cudaMallocManaged(&y, n * sizeof(__half));
  cudaMallocManaged(&u, n * sizeof(__half2));
  cudaMallocManaged(&v, n * sizeof(__half2));
  cudaMallocManaged(&b_in, n * sizeof(__nv_bfloat16));
  cudaMallocManaged(&b_out, n * sizeof(__nv_bfloat16));
  cudaMallocManaged(&f_in, n * sizeof(float));
  cudaMallocManaged(&f_out, n * sizeof(float));
  cudaMallocManaged(&packed, n * sizeof(__nv_fp8_e4m3));
  for (int i = 0; i < n; ++i) {
    x[i] = __int2half_rn(i);
    y[i] = __float2half(0.5f);
    u[i] = __floats2half2_rn(1.0f, static_cast<float>(-i));
    v[i] = __float2half2_rn(0.25f);
    b_in[i] = __float2bfloat16(static_cast<float>(i));
    f_in[i] = static_cast<float>(i) * 4.0f;  // 0, 4, ..., 1020: above 448 E4M3 saturates
  }
  half_axpy<<<(n + 127) / 128, 128>>>(n, __float2half(2.0f), x, y, u, v);
  bf16_scale<<<(n + 127) / 128, 128>>>(n, b_in, b_out, 0.5f);
  fp8_roundtrip<<<(n + 127) / 128, 128>>>(n, f_in, packed, f_out);
  cudaDeviceSynchronize();

  int errors = 0;
  for (int i = 0; i < n; ++i) {
    // 2i + 0.5 <= 510.5 and -2i + 0.25 >= -509.75 are exact in half (spacing 1/4 below 512).
    if (__half2float(y[i]) != 2.0f * i + 0.5f) ++errors;
    if (__low2float(v[i]) != 2.25f || __high2float(v[i]) != -2.0f * i + 0.25f) ++errors;
    if (__bfloat162float(b_out[i]) != 0.5f * i) ++errors;
    // E4M3 keeps 4 significant bits: 4i rounded to nearest even in that precision, 448 at most.
    const float value = 4.0f * i;
    float expected = 0.0f;
    if (value > 0.0f) {
      int exponent = 0;
      std::frexp(value, &exponent);
      const float spacing = std::ldexp(1.0f, exponent - 4);
      expected = std::nearbyint(value / spacing) * spacing;
      if (expected > 448.0f) expected = 448.0f;
    }
    if (f_out[i] != expected) {
      if (errors < 5) std::printf("fp8 %d: %g, expected %g\n", i, f_out[i], expected);
      ++errors;
    }
  }
  std::printf("%d mismatches\nResult = %s\n", errors, errors == 0 ? "PASS" : "FAIL");
  return errors == 0 ? 0 : 1;
}
