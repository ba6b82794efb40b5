// A launch with all four configuration arguments, split over lines, with no kernel arguments.
__global__ void tick() {}
void run(cudaStream_t stream) {
  tick<<<dim3(2, 2, 1),
         dim3(32, 4),
         0, stream>>>();
  if (stream != 0) tick<<<1, 1, 16, stream>>>();
}
// CHECK-HOST: memcarlo_launch("tick", tick, dim3(2, 2, 1), dim3(32, 4), 0, stream);
// CHECK-HOST: if (stream != 0) memcarlo_launch("tick", tick, 1, 1, 16, stream);
// CHECK-CUDA: (memcarlo_launch_begin("tick", dim3(2, 2, 1), dim3(32, 4), 0, stream), memcarlo_launch_arguments(), tick<<<dim3(2, 2, 1), dim3(32, 4), 0, stream>>>(), memcarlo_launch_end());
// CHECK-SUMMARY: probed 0 accesses, skipped 0; 2 launches rewritten
