// Three-dimensional indexing of a grid stored x-fastest: ((z * ny) + y) * nx + x.
__global__ void laplace3d(float* out, const float* u, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  out[(z * ny + y) * nx + x] = u[(z * ny + y) * nx + x + 1] - u[(z * ny + y) * nx + x];
}
// CHECK-LOADS: 3
// CHECK-LOAD: {"expression": "u[(z * ny + y) * nx + x + 1]", "index": {"kind": "affine", "constant": 1, "expression": "blockDim.y*blockIdx.y*nx + blockIdx.z*nx*ny + blockDim.x*blockIdx.x + nx*threadIdx.y + threadIdx.x + 1"}}
// CHECK-LOAD: {"expression": "u[(z * ny + y) * nx + x]", "kind": "read", "index": {"kind": "affine", "constant": 0}}
// CHECK-LOAD: {"expression": "out[(z * ny + y) * nx + x]", "kind": "write"}
