// A launch with two configuration arguments: shared memory and stream become 0.
__global__ void touch(int* data) { data[threadIdx.x] = 1; }
int main() {
  int* data = nullptr;
  dim3 grid(4, 2);
  touch<<<grid, 64>>>(data);
  return 0;
}
// CHECK-HOST: memcarlo_launch("touch", touch, grid, 64, 0, 0, data);
// CHECK-CUDA: (memcarlo_launch_begin("touch", grid, 64, 0, 0), memcarlo_launch_arguments(data), touch<<<grid, 64>>>(data), memcarlo_launch_end());
// CHECK-NOT-HOST: <<<
// CHECK-SUMMARY: 1 launches rewritten
