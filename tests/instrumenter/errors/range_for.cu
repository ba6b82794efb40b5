// Range-based for loops in a kernel: over a braced list and over a local array. Their elements are
// read through variables the compiler declares (__range, __begin), with no source text of their
// own; the loops stay as written. The store after them is probed.
__global__ void sums(int* out) {
  int sum = 0;
  for (const int d : {3, 4, 5}) sum += d;
  int local[3] = {1, 2, 3};
  for (int v : local) sum += v;
  out[threadIdx.x] = sum;
}
