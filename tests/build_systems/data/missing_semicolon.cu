// A kernel with a syntax error (a missing ';' in device code): nvcc rejects it as well, so the
// advice is to fix the source, not to switch backends.
__global__ void shift(float* data) {
  const int i = threadIdx.x
  data[i] = data[i] + 1.0f;
}

int main() {
  float* data = 0;
  shift<<<1, 32>>>(data);
  return 0;
}
