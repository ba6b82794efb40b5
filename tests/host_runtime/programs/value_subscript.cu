// A small vector type whose const operator[] returns a value (not a reference), read through a
// reference parameter inside device operators, the way geometry and n-body codes write it; written
// for these tests. The instrumenter must probe the member array operator[] reads, never the value
// it returns. Traced, the reads of the points (12-byte elements) are 4-byte reads of their members.
// Prints "Result = PASS".
#include <cuda_runtime.h>

#include <cstdio>

template <typename T>
struct Vec3 {
  T x_[3];
  __host__ __device__ T operator[](int i) const { return x_[i]; }
  __host__ __device__ T& operator[](int i) { return x_[i]; }
  __host__ __device__ Vec3 operator-(const Vec3& r) const {
    return {x_[0] - r[0], x_[1] - r[1], x_[2] - r[2]};
  }
  __host__ __device__ T dot(const Vec3& r) const {
    return x_[0] * r[0] + x_[1] * r[1] + x_[2] * r[2];
  }
};

__global__ void squared_distances(int n, const Vec3<float>* points, Vec3<float> origin,
                                  float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec3<float> d = points[i] - origin;
  out[i] = d.dot(d);
}

int main() {
  const int n = 200;
  Vec3<float>* points;
  float* out;
  cudaMallocManaged(&points, n * sizeof(Vec3<float>));
  cudaMallocManaged(&out, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    points[i][0] = static_cast<float>(i);
    points[i][1] = 1.0f;
    points[i][2] = static_cast<float>(-i);
  }
  squared_distances<<<(n + 63) / 64, 64>>>(n, points, Vec3<float>{{1.0f, 1.0f, 1.0f}}, out);
  cudaDeviceSynchronize();
  int errors = 0;
  for (int i = 0; i < n; ++i) {
    const float expected = static_cast<float>((i - 1) * (i - 1) + (i + 1) * (i + 1));
    if (out[i] != expected) ++errors;
  }
  std::printf("%d mismatches\nResult = %s\n", errors, errors == 0 ? "PASS" : "FAIL");
  return errors == 0 ? 0 : 1;
}
