// Must not compile on the host backend: dynamic shared memory has to be spelled
// MEMCARLO_DYNAMIC_SHARED(float, buffer) there (the instrumenter rewrites it). The test checks
// that the compiler's message names the macro and line 9 (the CMake test's regular expression).
//
// An unsized extern array cannot become per-block storage without its name.

__global__ void uses_dynamic_shared(float* out) {
  // The next line is line 9.
  extern __shared__ float buffer[];
  buffer[threadIdx.x] = 1.0f;
  out[threadIdx.x] = buffer[threadIdx.x];
}
