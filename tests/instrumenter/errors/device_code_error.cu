// An error inside a kernel is never tolerated, whatever else parses.
__global__ void scale(float* data) { data[threadIdx.x] *= undeclared_factor; }
int main() {
  float* data = 0;
  scale<<<1, 32>>>(data);
  return 0;
}
