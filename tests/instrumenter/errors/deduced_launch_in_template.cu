// One launch text that means two different kernels: `fill` is deduced as fill<int> in one
// instantiation of `run` and fill<float> in the other. The host backend rewrites the line once,
// calling the kernel through a function of the arguments' types.
template <typename T>
__global__ void fill(T* data, T value) { data[threadIdx.x] = value; }
template <typename T>
void run(T* data) {
  fill<<<1, 32>>>(data, T(1));
}
void both(int* a, float* b) {
  run(a);
  run(b);
}
