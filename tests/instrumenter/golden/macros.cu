// Macros: an access spelled entirely in a macro argument is probed; one that is a whole macro
// expansion is probed around the expansion; one assembled inside a macro body is skipped.
#define AT(array, index) array[index]
#define CLAMPED(x) ((x) < 0 ? 0 : (x))
#define LOAD_NEXT(p) (p[threadIdx.x + 1])
#define GET(i) data[i]
__global__ void macros(float* data, float* out, int n) {
  int i = threadIdx.x;
  out[i] = CLAMPED(data[i]);
  out[i + n] = LOAD_NEXT(data);
  out[i + 2 * n] = AT(data, i + 2) + GET(i + 3);
}
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(out[i]))) = CLAMPED((*memcarlo_probe(memcarlo_tu, 1, &(data[i]))));
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 2, &(out[i + n]))) = LOAD_NEXT(data);
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 3, &(out[i + 2 * n]))) = (*memcarlo_probe(memcarlo_tu, 4, &(AT(data, i + 2)))) + (*memcarlo_probe(memcarlo_tu, 5, &(GET(i + 3))));
// CHECK-SUMMARY: skipped 1 (macro: 1)
// CHECK-SUMMARY: (macro)
// CHECK-LOAD: {"id": 5, "expression": "GET(i + 3)", "kind": "read", "index": {"expression": "threadIdx.x + 3"}}
