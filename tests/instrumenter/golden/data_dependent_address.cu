// An address computed from a value loaded in the same sequence starts a new sequence (paper §2);
// pointer chasing inside a loop depends on the previous iteration's load.
struct Node {
  int value;
  Node* next;
};
__global__ void chase(const int* perm, const float* data, float* out, const Node* lists) {
  int i = threadIdx.x;
  float v = data[perm[i]];
  const Node* node = lists + i;
  int total = 0;
  while (node != nullptr) {
    total += node->value;
    node = node->next;
  }
  out[i] = v + total;
}
// CHECK-LOAD: {"id": 0, "expression": "data[perm[i]]", "sequence": 1, "depends_on": [1], "index": {"kind": "data_dependent"}}
// CHECK-LOAD: {"id": 1, "expression": "perm[i]", "sequence": 0, "depends_on": []}
// CHECK-LOAD: {"id": 2, "expression": "node->value", "sequence": 2, "loop_depth": 1, "depends_on": [3], "index": {"kind": "non_affine"}}
// CHECK-LOAD: {"id": 3, "expression": "node->next", "sequence": 2, "depends_on": [], "element_type": "Node *", "element_size": 8}
// CHECK-LOAD: {"id": 4, "expression": "out[i]", "sequence": 3}
