// Inline PTX in device code: the host backend cannot run it (an unsupported construct).
__global__ void lane_id(unsigned* out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.x] = lane;
}
