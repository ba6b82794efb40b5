// A program of our own that does not compile, for the study tests (a build failure).
__global__ void broken(float* a) {
  a[threadIdx.x] = undeclared_name;
}
int main() { return 0; }
