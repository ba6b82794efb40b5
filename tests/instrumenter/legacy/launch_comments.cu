// `//` comments inside a launch's configuration and argument list. Where the rewrite copies the
// arguments into an edit of its own (the form that leaves the kernel's deduction to each
// instantiation), the copy is joined on one line without its comments: a `//` comment there
// would swallow the rest of the launch. Kept among the legacy files, not the golden ones: that
// form is the host backend's own and does not compile with nvcc alone (instrumenter.nvcc.*).
template <typename T>
__global__ void fill(T* data, T value) { data[threadIdx.x] = value; }

template <typename T>
void run(T* data, T value) {
  fill<<<1, 4, //1024,
         0>>>(data, // the output
              value);
}
__global__ void plain(int* data, int n) {
  if (threadIdx.x < n) data[threadIdx.x] = n;
}
void run_all(int* a, float* b) {
  run(a, 1);
  run(b, 2.0f);
  plain<<<1, 4, // 64,
          0>>>(a, /* n */ 4 // four
               );
}
// CHECK-HOST: memcarlo_launch("fill", decltype(memcarlo_kernel_signature(data, value))::thunk(
// CHECK-NOT-HOST: memcarlo_kernel_signature(data, // the output
// CHECK-HOST: memcarlo_launch("plain", plain, 1, 4, // 64,
// CHECK-CUDA: (memcarlo_launch_begin("fill", 1, 4, 0, 0), memcarlo_launch_arguments(data, value), fill<<<1, 4, //1024,
// CHECK-CUDA: memcarlo_launch_arguments(a, 4 ), plain<<<1, 4, // 64,
// CHECK-NOT-CUDA: memcarlo_launch_arguments(data, // the output
