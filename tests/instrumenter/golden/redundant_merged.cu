// Redundant loads: the same address twice in one basic block with nothing in between is one load
// for the hardware (p->vx * p->vx); the repeat stays in the table with redundant_of.
struct Body {
  float vx, vy;
};
__global__ void energy(const Body* bodies, float* out, const float* w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Body* p = bodies + i;
  float e = p->vx * p->vx + p->vy * p->vy;
  out[i] = e * w[i] + w[i];
}
// CHECK-HOST: float e = (*memcarlo_probe(memcarlo_tu, 0, &(p->vx))) * p->vx + (*memcarlo_probe(memcarlo_tu, 2, &(p->vy))) * p->vy;
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 4, &(out[i]))) = e * (*memcarlo_probe(memcarlo_tu, 5, &(w[i]))) + w[i];
// CHECK-LOAD: {"id": 1, "expression": "p->vx", "redundant_of": 0, "kind": "read"}
// CHECK-LOAD: {"id": 3, "expression": "p->vy", "redundant_of": 2}
// CHECK-LOAD: {"id": 6, "expression": "w[i]", "redundant_of": 5}
// CHECK-NO-LOAD: {"id": 0, "redundant_of": 0}
// CHECK-SUMMARY: probed 4 accesses, skipped 3 (redundant: 3)
// CHECK-LOADS: 7
