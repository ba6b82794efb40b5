// Host-side errors are tolerated only away from device code and launches: here one is in the
// arguments of a launch, so the file is not instrumented.
__global__ void scale(float* data, float factor) { data[threadIdx.x] *= factor; }
void helper() { undeclared_timer_start(); }
int main() {
  float* data = 0;
  scale<<<1, 32>>>(data, undeclared_factor);
  return 0;
}
