// Not valid CUDA: a missing semicolon and an undeclared name.
__global__ void broken(float* a) {
  a[threadIdx.x] = undeclared_value
}
