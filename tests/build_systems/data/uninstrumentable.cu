// A kernel that does not compile (an undeclared name in device code): memcarlo-instrument cannot
// instrument it and says where.
__global__ void scale(float* data) { data[threadIdx.x] *= missing_factor; }

int main() {
  float* data = 0;
  scale<<<1, 32>>>(data);
  return 0;
}
