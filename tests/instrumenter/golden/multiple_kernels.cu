// Several kernels in one file: ids run on across kernels, each entry names its own kernel.
__global__ void zero(float* a) { a[threadIdx.x] = 0.0f; }
__global__ void copy(float* dst, const float* src) { dst[threadIdx.x] = src[threadIdx.x]; }
__global__ void twice(float* a) { a[threadIdx.x] *= 2.0f; }
void run(float* a, float* b) {
  zero<<<1, 32>>>(a);
  copy<<<1, 32>>>(b, a);
  twice<<<1, 32>>>(b);
}
// CHECK-LOAD: {"id": 0, "function": "zero", "kernels": ["zero"], "kind": "write"}
// CHECK-LOAD: {"id": 1, "function": "copy", "kernels": ["copy"], "kind": "write"}
// CHECK-LOAD: {"id": 2, "function": "copy", "kernels": ["copy"], "kind": "read"}
// CHECK-LOAD: {"id": 3, "function": "twice", "kernels": ["twice"], "kind": "rmw"}
// CHECK-HOST: memcarlo_launch("copy", copy, 1, 32, 0, 0, b, a);
// CHECK-SUMMARY: probed 4 accesses, skipped 0; 3 launches rewritten
