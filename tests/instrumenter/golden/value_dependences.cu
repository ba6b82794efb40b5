// value_depends_on: the loads whose values feed the value an assignment stores, through local
// variables too (Accel-Sim export: the store reads their registers, docs/accelsim.md); a compound
// assignment's own load is not listed; a store of a constant lists none; reads have no such key.
struct Particle {
  float x, y, z;
};
__global__ void step(Particle* p, const float* a, const float* b, float* c, const int* idx,
                     float* d) {
  int i = threadIdx.x;
  float v = a[i];
  c[i] = v + b[i];
  p[i].x += b[i];
  d[idx[i]] = 0.0f;
}
// CHECK-LOAD: {"id": 0, "expression": "a[i]", "kind": "read"}
// CHECK-LOAD: {"id": 1, "expression": "c[i]", "kind": "write", "value_depends_on": [0, 2]}
// CHECK-LOAD: {"id": 2, "expression": "b[i]", "kind": "read"}
// CHECK-LOAD: {"id": 3, "expression": "p[i].x", "kind": "rmw", "value_depends_on": [4]}
// CHECK-LOAD: {"id": 4, "expression": "b[i]", "kind": "read"}
// CHECK-LOAD: {"id": 5, "expression": "d[idx[i]]", "kind": "write", "depends_on": [6], "value_depends_on": []}
// CHECK-LOAD: {"id": 6, "expression": "idx[i]", "kind": "read"}
// CHECK-LOADS: 7
