// One column step of a Gram-Schmidt orthogonalisation, written for memcarlo's locality tests:
// q[:, k] = a[:, k] / r[k][k], one thread per row. LocalityGuru §IV, Gram-Schmidt with a 1-D
// grid of 4 blocks of 256: every block reads r[k][k], so the graph is fully connected.
__global__ void normalise_column(float* q, const float* a, const float* r, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  q[i * n + k] = a[i * n + k] / r[k * n + k];
}
