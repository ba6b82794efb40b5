// Member access through a pointer: p->f reads and writes one field of *p.
struct Particle {
  float x, y, z;
  float vx, vy, vz;
};
__global__ void advance(Particle* particles, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle* p = particles + i;
  p->x = p->x + p->vx * dt;
}
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(p->x))) = (*memcarlo_probe(memcarlo_tu, 1, &(p->x))) + (*memcarlo_probe(memcarlo_tu, 2, &(p->vx))) * dt;
// CHECK-LOAD: {"expression": "p->vx", "kind": "read", "element_type": "float", "element_size": 4, "base": "p", "address_space": "global", "index": {"kind": "affine", "root": "particles", "unit": "elements", "expression": "6*blockDim.x*blockIdx.x + 6*threadIdx.x + 3"}}
// CHECK-LOAD: {"expression": "p->x", "kind": "write", "index": {"expression": "6*blockDim.x*blockIdx.x + 6*threadIdx.x"}}
// CHECK-LOADS: 3
