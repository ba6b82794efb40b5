// A translation unit whose device code lives in an included user file: with --output-dir both
// files are rewritten and mirrored, so the include still resolves.
// RUN-ARGS: -- -DSCALE=3
#include "include/multi_file_kernel.cuh"
int main() {
  float* data = nullptr;
  scale_kernel<<<1, 32>>>(data, 32);
  return 0;
}
// CHECK-HOST: #include "include/multi_file_kernel.cuh"
// CHECK-HOST: memcarlo_launch("scale_kernel", scale_kernel, 1, 32, 0, 0, data, 32);
// CHECK-FILE: include/multi_file_kernel.cuh: (*memcarlo_probe(memcarlo_tu, 0, &(data[i]))) *= SCALE;
// CHECK-FILE: include/multi_file_kernel.cuh: #line 1
// CHECK-LOAD: {"id": 0, "kind": "rmw", "function": "scale_kernel", "line": 5}
