// Pointer arithmetic and dereference: *(p + k), row pointers, and pointers advanced in a loop.
__global__ void rows(const float* matrix, float* out, int width) {
  const float* row = matrix + blockIdx.x * width;
  float first = *row;
  float second = *(row + threadIdx.x);
  float* target = &out[blockIdx.x];
  *target = first + second + row[width - 1];
}
// CHECK-LOAD: {"expression": "*row", "kind": "read", "index": {"kind": "affine", "root": "matrix", "expression": "blockIdx.x*width"}}
// CHECK-LOAD: {"expression": "*(row + threadIdx.x)", "index": {"kind": "affine", "root": "matrix", "expression": "blockIdx.x*width + threadIdx.x"}}
// CHECK-LOAD: {"expression": "row[width - 1]", "index": {"kind": "affine", "expression": "blockIdx.x*width + width - 1"}}
// CHECK-LOAD: {"expression": "*target", "kind": "write", "base": "target", "address_space": "global", "index": {"kind": "affine", "root": "out", "expression": "blockIdx.x"}}
// CHECK-HOST: float first = (*memcarlo_probe(memcarlo_tu, 0, &(*row)));
