// Not merged across a store that may alias the load; merged across stores that cannot alias it
// (shared memory, a different __restrict__ pointer, a provably different element).
__global__ void aliasing(float* a, float* b, float* __restrict__ r, float* __restrict__ s) {
  __shared__ float cache[32];
  int i = threadIdx.x;
  float x = a[i];
  b[i] = 1.0f;
  float y = a[i];
  cache[i] = y;
  float z = a[i];
  float u = r[i];
  s[i] = 2.0f;
  a[i + 1] = 3.0f;
  float v = r[i] + a[i];
  b[i + 1] = x + y + z + u + v;
}
// CHECK-LOAD: {"expression": "a[i]", "line": 6, "kind": "read"}
// CHECK-NO-LOAD: {"line": 6, "redundant_of": 0}
// CHECK-LOAD: {"expression": "a[i]", "line": 8, "kind": "read"}
// CHECK-LOAD: {"expression": "a[i]", "line": 10, "kind": "read", "redundant_of": 2}
// CHECK-LOAD: {"expression": "r[i]", "line": 14, "redundant_of": 4}
// CHECK-LOAD: {"expression": "a[i]", "line": 14, "redundant_of": 2}
// CHECK-HOST: float y = (*memcarlo_probe(memcarlo_tu, 2, &(a[i])));
// CHECK-SUMMARY: skipped 4 (redundant: 3, shared: 1)
