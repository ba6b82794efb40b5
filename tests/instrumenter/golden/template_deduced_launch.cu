// Launching a template kernel with deduced arguments: the launch names the specialization.
template <typename T>
__global__ void fill(T* data, T value) {
  data[blockIdx.x * blockDim.x + threadIdx.x] = value;
}
void run(int* d, int blocks) {
  fill<<<blocks, 128>>>(d, 7);
}
// CHECK-HOST: memcarlo_launch("fill<int>", fill<int>, blocks, 128, 0, 0, d, 7);
// CHECK-CUDA: (memcarlo_launch_begin("fill<int>", blocks, 128, 0, 0), memcarlo_launch_arguments(d, 7), fill<<<blocks, 128>>>(d, 7), memcarlo_launch_end());
// CHECK-LOAD: {"id": 0, "kind": "write", "element_type": "T"}
