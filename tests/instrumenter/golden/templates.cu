// A template kernel is instrumented once (its pattern), whatever its instantiations.
template <typename T, int kUnroll>
__global__ void axpy(T* y, const T* x, T a, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * kUnroll;
  for (int u = 0; u < kUnroll; ++u) {
    if (base + u < n) y[base + u] += a * x[base + u];
  }
}
void run(float* yf, const float* xf, double* yd, const double* xd, int n) {
  axpy<float, 4><<<n / 1024, 256>>>(yf, xf, 2.0f, n);
  axpy<double, 2><<<n / 512, 256>>>(yd, xd, 2.0, n);
}
// CHECK-LOADS: 2
// CHECK-HOST: if (base + u < n) (*memcarlo_probe(memcarlo_tu, 0, &(y[base + u]))) += a * (*memcarlo_probe(memcarlo_tu, 1, &(x[base + u])));
// CHECK-HOST: memcarlo_launch("axpy<float, 4>", axpy<float, 4>, n / 1024, 256, 0, 0, yf, xf, 2.0f, n);
// CHECK-HOST: memcarlo_launch("axpy<double, 2>", axpy<double, 2>, n / 512, 256, 0, 0, yd, xd, 2.0, n);
// CHECK-LOAD: {"id": 0, "kind": "rmw", "element_type": "T", "element_size": 0, "function": "axpy", "kernels": ["axpy"], "index": {"kind": "affine", "unit": "elements", "expression": "blockDim.x*blockIdx.x*kUnroll + kUnroll*threadIdx.x + u"}}
