// Uses Thrust, a CUDA library the host backend does not provide: memcarlo-cc must fail the
// build with a message that says so and points to the cuda backend.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
__global__ void sq(float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] *= a[i]; }
int main() {
  thrust::device_vector<float> v(100, 2.0f);
  sq<<<1, 128>>>(thrust::raw_pointer_cast(v.data()), 100);
  std::printf("%f\n", thrust::reduce(v.begin(), v.end()));
}
