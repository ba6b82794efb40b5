// Uses cuBLAS, a CUDA library the host backend does not provide (it provides CUB and Thrust):
// memcarlo-cc must fail the build with a message that says so and points to the cuda backend.
#include <cstdio>
#include <cublas_v2.h>
__global__ void sq(float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] *= a[i]; }
int main() {
  cublasHandle_t handle;
  cublasCreate(&handle);
  float* a;
  cudaMalloc(&a, 100 * sizeof(float));
  sq<<<1, 128>>>(a, 100);
  float sum = 0;
  cublasSasum(handle, 100, a, 1, &sum);
  std::printf("%f\n", sum);
}
