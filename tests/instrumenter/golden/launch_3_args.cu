// A launch with three configuration arguments (dynamic shared memory); the stream becomes 0.
__global__ void reduce(float* data) {
  extern __shared__ float scratch[];
  scratch[threadIdx.x] = data[threadIdx.x];
}
void run(float* data, int threads) {
  reduce<<<1, threads, threads * sizeof(float)>>>(data);
}
// CHECK-HOST: memcarlo_launch("reduce", reduce, 1, threads, threads * sizeof(float), 0, data);
// CHECK-CUDA: (memcarlo_launch_begin("reduce", 1, threads, threads * sizeof(float), 0), memcarlo_launch_arguments(data), reduce<<<1, threads, threads * sizeof(float)>>>(data), memcarlo_launch_end());
