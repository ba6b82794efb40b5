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
// The launch names the host runtime awaits (registered per unit): a launch in a host function
// template is named as spelled, for all its instances; one in a template never instantiated
// cannot run and is left out.
template <int kUnroll>
void run_unrolled(float* y, const float* x, int n) {
  axpy<float, kUnroll><<<n / 256, 256>>>(y, x, 1.0f, n);
}
template <int kUnroll>
void never_instantiated(double* y, const double* x, int n) {
  axpy<double, kUnroll><<<1, 256>>>(y, x, 1.0, n);
}
void run_all(float* y, const float* x, int n) {
  run_unrolled<1>(y, x, n);
  run_unrolled<8>(y, x, n);
}
// CHECK-LOADS: 2
// CHECK-HOST: if (base + u < n) (*memcarlo_probe(memcarlo_tu, 0, &(y[base + u]))) += a * (*memcarlo_probe(memcarlo_tu, 1, &(x[base + u])));
// CHECK-HOST: memcarlo_launch("axpy<float, 4>", axpy<float, 4>, n / 1024, 256, 0, 0, yf, xf, 2.0f, n);
// CHECK-HOST: memcarlo_launch("axpy<double, 2>", axpy<double, 2>, n / 512, 256, 0, 0, yd, xd, 2.0, n);
// CHECK-LOAD: {"id": 0, "kind": "rmw", "element_type": "T", "element_size": 0, "function": "axpy", "kernels": ["axpy"], "index": {"kind": "affine", "unit": "elements", "expression": "blockDim.x*blockIdx.x*kUnroll + kUnroll*threadIdx.x + u"}}
// CHECK-HOST: memcarlo_launch("axpy<float, kUnroll>", axpy<float, kUnroll>, n / 256, 256, 0, 0, y, x, 1.0f, n);
// CHECK-HOST: "{\"launches\": [\"axpy<double, 2>\", \"axpy<float, 4>\", \"axpy<float, kUnroll>\"], \"complete\": true}";
// CHECK-HOST: MEMCARLO_REGISTER_LAUNCHES(memcarlo_tu, memcarlo_launches_json)
// CHECK-NOT-CUDA: MEMCARLO_REGISTER_LAUNCHES
