// `extern __shared__` of a template type with a comma: the macro would split the type, so the
// host backend names it with a local alias first.
template <class Key, class Value>
struct Entry {
  Key key;
  Value value;
};

__global__ void gather_entries(int* keys, const Entry<int, float>* table) {
  extern __shared__ Entry<int, float> entries[];
  entries[threadIdx.x] = table[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  keys[threadIdx.x] = entries[blockDim.x - 1 - threadIdx.x].key;
}
// CHECK-HOST: using memcarlo_dynamic_shared_type_entries = Entry<int, float>; MEMCARLO_DYNAMIC_SHARED(memcarlo_dynamic_shared_type_entries, entries);
// CHECK-CUDA: extern __shared__ Entry<int, float> entries[];
// CHECK-LOAD: {"expression": "table[blockIdx.x * blockDim.x + threadIdx.x]", "kind": "read", "element_size": 8}
// CHECK-SUMMARY: probed 2 accesses, skipped 2 (shared: 2)
// CHECK-LOADS: 2
