// Host code with errors that touch neither device code nor launches (a timer library this
// machine lacks, a helper of a header not shown): the file is instrumented anyway, with a
// warning that lists them.
#include <cstdio>

__global__ void increment(int* counter) { atomicAdd(counter, 1); }

void report(unsigned int timer) {
  printf("%f ms\n", cutGetTimerValue(timer));
  cutDeleteTimer(timer);
}

int main() {
  int* counter;
  cudaMalloc((void**)&counter, sizeof(int));
  increment<<<4, 64>>>(counter);
  print_device_summary(counter);
  report(0);
  return 0;
}
// CHECK-HOST: memcarlo_launch("increment", increment, 4, 64, 0, 0, counter);
// CHECK-LOAD: {"id": 0, "kind": "atomic", "base": "counter"}
// CHECK-SUMMARY: probed 1 accesses, skipped 0; 1 launches rewritten
// CHECK-SUMMARY: host_errors.cu: instrumented although its host code has 3 errors (inside host functions, away from device code and kernel launches):
// CHECK-SUMMARY: host_errors.cu:9:21: error: use of undeclared identifier 'cutGetTimerValue'
// CHECK-SUMMARY: host_errors.cu:17:3: error: use of undeclared identifier 'print_device_summary'
