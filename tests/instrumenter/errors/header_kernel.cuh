// Device code in a header included by header_kernel.cu.
#pragma once
__global__ void header_kernel(float* a) { a[threadIdx.x] = 1.0f; }
