// Atomics: atomicAdd(&a[i], v) is one atomic access to a[i]; the pointer argument is probed.
__global__ void histogram(unsigned* bins, const int* keys, int* lock, float* total, int n) {
  __shared__ unsigned local_bins[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&bins[keys[i] % 64], 1u);
  atomicAdd(&local_bins[threadIdx.x % 64], 1u);
  atomicCAS(lock, 0, 1);
  atomicAdd(total + i, 0.5f);
}
// CHECK-HOST: atomicAdd(memcarlo_probe(memcarlo_tu, 0, &bins[(*memcarlo_probe(memcarlo_tu, 1, &(keys[i]))) % 64]), 1u);
// CHECK-HOST: atomicAdd(&local_bins[threadIdx.x % 64], 1u);
// CHECK-HOST: atomicCAS(memcarlo_probe(memcarlo_tu, 2, lock), 0, 1);
// CHECK-HOST: atomicAdd(memcarlo_probe(memcarlo_tu, 3, total + i), 0.5f);
// CHECK-LOAD: {"id": 0, "kind": "atomic", "element_type": "unsigned int", "element_size": 4, "base": "bins", "depends_on": [1], "index": {"kind": "non_affine"}}
// CHECK-LOAD: {"id": 1, "kind": "read", "expression": "keys[i]"}
// CHECK-LOAD: {"id": 2, "kind": "atomic", "element_type": "int", "index": {"kind": "affine", "expression": "0"}}
// CHECK-LOAD: {"id": 3, "kind": "atomic", "element_type": "float", "index": {"expression": "blockDim.x*blockIdx.x + threadIdx.x"}}
// CHECK-SUMMARY: skipped 1 (shared: 1)
// CHECK-LOADS: 4
