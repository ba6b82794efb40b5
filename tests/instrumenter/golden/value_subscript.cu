// A class template whose const operator[] returns a value, read through a reference parameter in
// a device operator: `r[0]` in the pattern is an operator call in every instantiation, not an
// access to probe (probing it took the address of the returned value). What operator[] reads,
// the member array, is probed inside it; `x_[0]` on the member array is probed where it stands.
template <typename T>
struct Vec3 {
  T x_[3];
  __host__ __device__ T operator[](int i) const { return x_[i]; }
  __host__ __device__ Vec3 operator-(const Vec3& r) const {
    return {x_[0] - r[0], x_[1] - r[1], x_[2] - r[2]};
  }
};
__global__ void difference(const Vec3<float>* a, const Vec3<float>* b, Vec3<float>* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] - b[i];
}
// CHECK-HOST: return (*memcarlo_probe(memcarlo_tu, 0, &(x_[i])));
// CHECK-HOST: return {(*memcarlo_probe(memcarlo_tu, 1, &(x_[0]))) - r[0],
// CHECK-NOT-HOST: &(r[0])
// CHECK-NOT-HOST: &(r)
// CHECK-LOAD: {"id": 0, "kind": "read", "expression": "x_[i]"}
// CHECK-NO-LOAD: {"expression": "r"}
// CHECK-SUMMARY: template-dependent: 3
