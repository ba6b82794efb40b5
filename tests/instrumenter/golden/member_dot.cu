// Member access with `.` on array elements and dereferenced pointers: a[i].f, (*p).f.
struct Pair {
  int key;
  double value;
};
__global__ void pairs(Pair* a, Pair* b, int n) {
  int i = threadIdx.x;
  Pair local;
  local.key = i;
  a[i].value = (*(b + i)).value * 2.0 + local.key;
}
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(a[i].value))) = (*memcarlo_probe(memcarlo_tu, 1, &((*(b + i)).value))) * 2.0 + local.key;
// CHECK-LOAD: {"expression": "a[i].value", "kind": "write", "element_type": "double", "element_size": 8, "base": "a", "index": {"kind": "affine", "unit": "elements", "expression": "2*threadIdx.x + 1"}}
// CHECK-LOAD: {"expression": "(*(b + i)).value", "kind": "read", "element_size": 8, "base": "b"}
// CHECK-LOADS: 2
