// Not merged across a barrier, a call, or a branch; the barrier also ends the sequence.
__device__ void log_value(float* sink, float v) { sink[0] = v; }
__global__ void barrier(const float* a, float* out, float* sink) {
  int i = threadIdx.x;
  float x = a[i];
  __syncthreads();
  float y = a[i];
  log_value(sink, y);
  float z = a[i];
  float w = 0.0f;
  if (x > 0.0f) w = a[i];
  out[i] = x + y + z + w;
}
// CHECK-LOAD: {"expression": "a[i]", "line": 5, "sequence": 1}
// CHECK-LOAD: {"expression": "a[i]", "line": 7, "sequence": 2}
// CHECK-LOAD: {"expression": "a[i]", "line": 9, "sequence": 3}
// CHECK-LOAD: {"expression": "a[i]", "line": 11, "sequence": 3}
// CHECK-SUMMARY: probed 6 accesses, skipped 0
