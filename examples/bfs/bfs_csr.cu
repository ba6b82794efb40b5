// Level-synchronous breadth-first search on a random undirected graph in CSR form: one launch per
// level; each turns the frontier flags of one level into those of the next.
//
//   bfs_csr [--vertices V] [--degree D] [--seed S]
//
// The kernel works bottom-up (as in Beamer et al.'s direction-optimizing BFS): each vertex not yet
// reached scans its own neighbours for one in the frontier. A thread thus writes only its own
// vertex and reads flags no one writes during the launch, so the kernel is race-free and its trace
// is the same on every run and backend, which top-down BFS (threads racing to claim a neighbour)
// cannot offer.
//
// What to look for in a memcarlo report: levels[vertex] is a coalesced filter; row_offsets and
// column_indices[edge] run only for unreached vertices, with per-thread walks like SpMV's indices;
// frontier[column_indices[edge]] is the data-dependent gather, one byte from a random vertex per
// lane. The early exit on the first frontier neighbour makes loop trip counts differ across lanes.
#include <cstddef>
#include <cstdio>
#include <queue>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"
#include "../common/example_tafe.h"

constexpr int kUnvisited = -1;
constexpr unsigned kThreadsPerBlock = 256;

// Vertices reached at `level` have frontier[v] set; this launch gives level + 1 to every
// unreached vertex with such a neighbour, flags it in next_frontier and counts it, so that the
// host knows when a level adds nobody.
__global__ void bfs_level(unsigned num_vertices, int level, const unsigned* row_offsets,
                          const unsigned* column_indices, const unsigned char* frontier,
                          unsigned char* next_frontier, int* levels, unsigned* next_frontier_size) {
  const unsigned vertex = blockIdx.x * blockDim.x + threadIdx.x;
  if (vertex >= num_vertices || levels[vertex] != kUnvisited) {
    return;
  }

  const unsigned edges_begin = row_offsets[vertex];
  const unsigned edges_end = row_offsets[vertex + 1];
  for (unsigned edge = edges_begin; edge < edges_end; ++edge) {
    if (frontier[column_indices[edge]]) {
      levels[vertex] = level + 1;
      next_frontier[vertex] = 1;
      atomicAdd(next_frontier_size, 1u);
      break;
    }
  }
}

struct CsrGraph {
  std::vector<unsigned> row_offsets;     // edges of v: row_offsets[v] .. row_offsets[v+1]-1
  std::vector<unsigned> column_indices;  // the vertex at the other end of each edge
};

// num_vertices·average_degree/2 edges between uniformly random endpoints, stored in both
// directions (self-loops and repeated edges included, as in real edge lists): a small-world graph
// whose BFS has a handful of levels, most vertices in the middle ones.
CsrGraph generate_graph(unsigned num_vertices, unsigned average_degree, unsigned seed) {
  example::Random random(seed);
  const std::size_t num_edge_pairs = std::size_t{num_vertices} * average_degree / 2;
  std::vector<unsigned> endpoints(2 * num_edge_pairs);
  for (unsigned& endpoint : endpoints) {
    endpoint = random.below(num_vertices);
  }

  // Counting sort of the 2·pairs directed edges by source vertex.
  CsrGraph graph;
  graph.row_offsets.assign(num_vertices + 1, 0);
  for (unsigned endpoint : endpoints) {
    ++graph.row_offsets[endpoint + 1];
  }
  for (unsigned vertex = 0; vertex < num_vertices; ++vertex) {
    graph.row_offsets[vertex + 1] += graph.row_offsets[vertex];
  }
  std::vector<unsigned> next_slot(graph.row_offsets.begin(), graph.row_offsets.end() - 1);
  graph.column_indices.resize(endpoints.size());
  for (std::size_t pair = 0; pair < num_edge_pairs; ++pair) {
    const unsigned first = endpoints[2 * pair];
    const unsigned second = endpoints[2 * pair + 1];
    graph.column_indices[next_slot[first]++] = second;
    graph.column_indices[next_slot[second]++] = first;
  }
  return graph;
}

std::vector<int> reference_levels(const CsrGraph& graph, unsigned source) {
  std::vector<int> levels(graph.row_offsets.size() - 1, kUnvisited);
  std::queue<unsigned> queue;
  levels[source] = 0;
  queue.push(source);
  while (!queue.empty()) {
    const unsigned vertex = queue.front();
    queue.pop();
    for (unsigned edge = graph.row_offsets[vertex]; edge < graph.row_offsets[vertex + 1]; ++edge) {
      const unsigned neighbor = graph.column_indices[edge];
      if (levels[neighbor] == kUnvisited) {
        levels[neighbor] = levels[vertex] + 1;
        queue.push(neighbor);
      }
    }
  }
  return levels;
}

int main(int argc, char** argv) {
  unsigned num_vertices = 16384;
  unsigned average_degree = 8;
  unsigned seed = 1;
  example::parse_flags(
      argc, argv,
      {example::Flag::whole_number("--vertices", &num_vertices, 1, 1u << 24, "vertices"),
       example::Flag::whole_number("--degree", &average_degree, 0, 64,
                                   "average degree (edges per vertex)"),
       example::Flag::whole_number("--seed", &seed, 0, ~0u, "seed of the graph")});
  const CsrGraph graph = generate_graph(num_vertices, average_degree, seed);
  const unsigned source = 0;
  const std::size_t num_edges = graph.column_indices.size();

  unsigned* device_row_offsets = nullptr;
  unsigned* device_column_indices = nullptr;
  unsigned char* device_frontier = nullptr;
  unsigned char* device_next_frontier = nullptr;
  int* device_levels = nullptr;
  unsigned* device_next_frontier_size = nullptr;
  CHECK_CUDA(cudaMalloc(&device_row_offsets, (num_vertices + 1) * sizeof(unsigned)));
  // One spare element, so that an edgeless graph still gets an allocation (and copies nothing).
  CHECK_CUDA(cudaMalloc(&device_column_indices, (num_edges + 1) * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&device_frontier, num_vertices));
  CHECK_CUDA(cudaMalloc(&device_next_frontier, num_vertices));
  CHECK_CUDA(cudaMalloc(&device_levels, num_vertices * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&device_next_frontier_size, sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(device_row_offsets, graph.row_offsets.data(),
                        (num_vertices + 1) * sizeof(unsigned), cudaMemcpyHostToDevice));
  if (num_edges > 0) {
    CHECK_CUDA(cudaMemcpy(device_column_indices, graph.column_indices.data(),
                          num_edges * sizeof(unsigned), cudaMemcpyHostToDevice));
  }

  // Level 0 is the source alone. Every byte of -1 is 0xFF, so memset can fill levels with it.
  const int source_level = 0;
  const unsigned char in_frontier = 1;
  CHECK_CUDA(cudaMemset(device_levels, 0xFF, num_vertices * sizeof(int)));
  CHECK_CUDA(
      cudaMemcpy(device_levels + source, &source_level, sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(device_frontier, 0, num_vertices));
  CHECK_CUDA(cudaMemcpy(device_frontier + source, &in_frontier, 1, cudaMemcpyHostToDevice));

  // The host drives the levels: a launch per level, until a level adds no vertex. The old
  // frontier's buffer is cleared to become the next one.
  const unsigned num_blocks = (num_vertices + kThreadsPerBlock - 1) / kThreadsPerBlock;
#ifdef EXAMPLE_TAFE
  // The kernel's thread address footprints by hand (TAFE's Listing 1 for this CSR walk): vertex =
  // blockIdx.x·kThreadsPerBlock + threadIdx.x; row_offsets[vertex] and [vertex + 1]; the edges
  // between them; the frontier flag of each edge's other end.
  taf_paramSetup(dim3(kThreadsPerBlock), dim3(num_blocks));
  const long long by_vertex[6] = {1, 0, 0, kThreadsPerBlock, 0, 0};
  const long long same_element[6] = {0, 0, 0, 0, 0, 0};
  taf_register(device_row_offsets, num_vertices + 1, TID_DEP, sizeof(unsigned), by_vertex, 0, 1,
               2, true);
  taf_register(device_column_indices, num_edges, INDIR_RANGE, sizeof(unsigned), device_row_offsets,
               0, device_row_offsets + 1, 0, true);
  taf_register(device_levels, num_vertices, TID_DEP, sizeof(int), by_vertex, 0, 0, 0, false);
  taf_register(device_next_frontier_size, 1, TID_DEP, sizeof(unsigned), same_element, 0, 0, 0,
               false);
  // Ready (TAFE's R bit): the CSR arrays hold their values (copied above).
  taf_setRdy(device_row_offsets);
  taf_setRdy(device_column_indices);
  taf_setRdy(device_levels);
  taf_setRdy(device_next_frontier_size);
#endif
  for (int level = 0;; ++level) {
    CHECK_CUDA(cudaMemset(device_next_frontier, 0, num_vertices));
    CHECK_CUDA(cudaMemset(device_next_frontier_size, 0, sizeof(unsigned)));
#ifdef EXAMPLE_TAFE
    // The two flag buffers trade places every level: their registrations follow (a call between
    // two launches applies from the next launch on).
    taf_reset(device_frontier);
    taf_reset(device_next_frontier);
    taf_register(device_frontier, num_vertices, INDIR, 1, device_column_indices, 1, 0, false);
    taf_register(device_next_frontier, num_vertices, TID_DEP, 1, by_vertex, 0, 0, 0, false);
    taf_setRdy(device_frontier);
    taf_setRdy(device_next_frontier);
#endif
    bfs_level<<<num_blocks, kThreadsPerBlock>>>(
        num_vertices, level, device_row_offsets, device_column_indices, device_frontier,
        device_next_frontier, device_levels, device_next_frontier_size);
    CHECK_CUDA(cudaGetLastError());
    unsigned next_frontier_size = 0;
    CHECK_CUDA(cudaMemcpy(&next_frontier_size, device_next_frontier_size, sizeof(unsigned),
                          cudaMemcpyDeviceToHost));
    if (next_frontier_size == 0) {
      break;
    }
    std::swap(device_frontier, device_next_frontier);
  }

  std::vector<int> levels(num_vertices);
  CHECK_CUDA(
      cudaMemcpy(levels.data(), device_levels, num_vertices * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(device_row_offsets));
  CHECK_CUDA(cudaFree(device_column_indices));
  CHECK_CUDA(cudaFree(device_frontier));
  CHECK_CUDA(cudaFree(device_next_frontier));
  CHECK_CUDA(cudaFree(device_levels));
  CHECK_CUDA(cudaFree(device_next_frontier_size));

  const std::vector<int> expected = reference_levels(graph, source);
  for (unsigned vertex = 0; vertex < num_vertices; ++vertex) {
    if (levels[vertex] != expected[vertex]) {
      std::printf("bfs_csr: FAILED level of vertex %u = %d, expected %d\n", vertex, levels[vertex],
                  expected[vertex]);
      return 1;
    }
  }
  std::printf("bfs_csr: OK\n");
  return 0;
}
