// Static __shared__ arrays, and pointers derived from them, are not probed; global ones are.
#define TILE 32
__global__ void transpose(float* out, const float* in, int width) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  float* row = &tile[threadIdx.x][0];
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * width + x] = row[threadIdx.y];
}
// CHECK-HOST: tile[threadIdx.y][threadIdx.x] = (*memcarlo_probe(memcarlo_tu, 0, &(in[y * width + x])));
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 1, &(out[y * width + x]))) = row[threadIdx.y];
// CHECK-SUMMARY: probed 2 accesses, skipped 2 (shared: 2)
// CHECK-SUMMARY: tile[threadIdx.y][threadIdx.x] (shared)
// CHECK-SUMMARY: row[threadIdx.y] (shared)
// CHECK-LOAD: {"id": 0, "sequence": 0, "index": {"kind": "affine", "expression": "32*blockIdx.y*width + threadIdx.y*width + 32*blockIdx.x + threadIdx.x"}}
// CHECK-LOAD: {"id": 1, "sequence": 1, "kind": "write", "index": {"kind": "affine", "expression": "32*blockIdx.x*width + threadIdx.y*width + 32*blockIdx.y + threadIdx.x"}}
// CHECK-LOADS: 2
