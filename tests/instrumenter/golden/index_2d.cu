// Two-dimensional row-major indexing with 2D blocks (matrix copy with a pitch parameter).
__global__ void copy2d(float* dst, const float* src, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) {
    dst[row * width + col] = src[row * width + col];
  }
}
// CHECK-LOADS: 2
// CHECK-LOAD: {"expression": "src[row * width + col]", "kind": "read", "index": {"kind": "affine", "unit": "elements", "terms": [{"coefficient": 1, "symbols": ["blockDim.x", "blockIdx.x"]}, {"coefficient": 1, "symbols": ["blockDim.y", "blockIdx.y", "width"]}, {"coefficient": 1, "symbols": ["threadIdx.x"]}, {"coefficient": 1, "symbols": ["threadIdx.y", "width"]}]}}
// CHECK-LOAD: {"expression": "dst[row * width + col]", "kind": "write", "index": {"kind": "affine", "symbols": {"width": "kernel_parameter", "threadIdx.y": "thread"}}}
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(dst[row * width + col]))) = (*memcarlo_probe(memcarlo_tu, 1, &(src[row * width + col])));
