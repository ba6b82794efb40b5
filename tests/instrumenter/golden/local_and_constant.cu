// Local arrays, __constant__ memory and by-value parameters are not probed.
struct Params {
  int offsets[4];
};
__constant__ float coefficients[4];
__global__ void stencil(float* out, const float* in, Params params) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 2;
  float window[4];
  for (int k = 0; k < 4; ++k) window[k] = in[i + params.offsets[k]];
  float sum = 0.0f;
  for (int k = 0; k < 4; ++k) sum += coefficients[k] * window[k];
  out[i] = sum;
}
// CHECK-HOST: window[k] = (*memcarlo_probe(memcarlo_tu, 0, &(in[i + params.offsets[k]])));
// CHECK-HOST: sum += coefficients[k] * window[k];
// CHECK-SUMMARY: probed 2 accesses, skipped 4 (constant: 1, local: 2, parameter: 1)
// CHECK-LOAD: {"id": 0, "loop_depth": 1, "index": {"kind": "data_dependent"}}
