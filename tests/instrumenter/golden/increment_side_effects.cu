// ++/-- on memory, and side effects in the index: the probe takes the address once, so a[i++]
// still increments i exactly once.
__global__ void bump(int* counts, float* a, const float* b, int* out) {
  int i = threadIdx.x * 2;
  a[i++] = b[i];
  counts[i]++;
  --counts[i + 1];
  out[i] = i;
}
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(a[i++]))) = (*memcarlo_probe(memcarlo_tu, 1, &(b[i])));
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 2, &(counts[i])))++;
// CHECK-HOST: --(*memcarlo_probe(memcarlo_tu, 3, &(counts[i + 1])));
// CHECK-LOAD: {"id": 0, "kind": "write", "expression": "a[i++]"}
// CHECK-LOAD: {"id": 2, "kind": "rmw", "expression": "counts[i]"}
// CHECK-LOAD: {"id": 3, "kind": "rmw", "expression": "counts[i + 1]"}
// CHECK-LOAD: {"id": 4, "kind": "write", "expression": "out[i]"}
