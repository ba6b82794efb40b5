// The CSR example of TAFE §4 (Fig. 5, Fig. 8b) as a trace our own writer makes: two blocks of two
// threads; thread t of block b reads Nodes[2b + t] and Nodes[2b + t + 1], then for each edge j in
// between Edges[j] and Cost[Edges[j]].
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::test_support {

inline constexpr std::uint64_t kNodesBase = 0x100000000;
inline constexpr std::uint64_t kEdgesBase = 0x100000100;
inline constexpr std::uint64_t kCostBase = 0x100000200;
// Row pointers 0, 2, 4, 6, 8: every node has two edges. Edges[0-3] hold 2, 3, 0, 1 (thread 0
// reaches Cost[2-3], as in the paper); Edges[4-7] hold 4, 8, 5, 9, not a continuous range.
inline const std::array<std::uint32_t, 5> kNodes = {0, 2, 4, 6, 8};
inline const std::array<std::uint32_t, 8> kEdges = {2, 3, 0, 1, 4, 8, 5, 9};

inline std::string loads_table_extra(const std::string& index_json) {
  return "{\"index\": " + index_json + "}";
}

/// The paper's Listing 1 registrations (THREADBLOCK_SIZE 2) as taf_register annotations.
inline std::string listing1_registrations() {
  return "[{\"kind\": \"taf_register\", \"payload\": {\"base\": " + std::to_string(kNodesBase) +
         ", \"size\": 5, \"element_size\": 4, \"type\": \"TID_DEP\", \"m\": [1, 0, 0, 2, 0, 0], "
         "\"c\": 0, \"ofs\": 0, \"n\": 0}},"
         "{\"kind\": \"taf_register\", \"payload\": {\"base\": " +
         std::to_string(kEdgesBase) +
         ", \"size\": 8, \"element_size\": 4, \"type\": \"INDIR_RANGE\", \"pbase_s\": " +
         std::to_string(kNodesBase) + ", \"c_s\": 0, \"pbase_e\": " + std::to_string(kNodesBase) +
         ", \"c_e\": 0}},"
         "{\"kind\": \"taf_register\", \"payload\": {\"base\": " +
         std::to_string(kCostBase) +
         ", \"size\": 10, \"element_size\": 4, \"type\": \"INDIR\", \"pbase\": " +
         std::to_string(kEdgesBase) + ", \"m\": 1, \"c\": 0}}]";
}

/// Writes the trace to `path`; `with_index_forms` false leaves the index forms out (as traces of
/// memcarlo synth do); `annotations` (a JSON array) is written when not empty.
inline void write_csr_trace(const std::string& path, bool with_index_forms = true,
                            const std::string& annotations = "") {
  using namespace memcarlo::tracebuf;
  TraceMeta meta;
  meta.backend = "test";
  TraceWriter writer(path, meta);
  const std::string tid_symbols =
      R"("symbols": {"blockDim.x": "launch_parameter", "blockIdx.x": "block", "threadIdx.x": "thread"})";
  const std::string tid_terms =
      R"("terms": [{"coefficient": 1, "symbols": ["blockDim.x", "blockIdx.x"]}, {"coefficient": 1, "symbols": ["threadIdx.x"]}])";
  std::vector<LoadInfo> loads(4);
  const std::array<const char*, 4> expressions = {"Nodes[tid]", "Nodes[tid + 1]", "Edges[j]",
                                                  "Cost[Edges[j]]"};
  const std::array<const char*, 4> bases = {"Nodes", "Nodes", "Edges", "Cost"};
  for (std::uint32_t i = 0; i < 4; ++i) {
    loads[i].id = i;
    loads[i].function = "bfs_csr";
    loads[i].kernels = {"bfs_csr"};
    loads[i].file = "bfs_csr.cu";
    loads[i].line = 10 + i;
    loads[i].expression = expressions[i];
    loads[i].element_type = "int";
    loads[i].element_size = 4;
    loads[i].base = bases[i];
    loads[i].address_space = "global";
    loads[i].sequence = i < 2 ? 0 : i;
  }
  loads[2].loop_depth = loads[3].loop_depth = 1;
  loads[2].depends_on = {0};
  loads[3].depends_on = {2};
  if (with_index_forms) {
    loads[0].extra_json = loads_table_extra(
        R"({"kind": "affine", "root": "Nodes", "unit": "elements", "expression": "blockDim.x*blockIdx.x + threadIdx.x", )" +
        tid_terms + R"(, "constant": 0, )" + tid_symbols + R"(, "inductions": [], "loads": []})");
    loads[1].extra_json = loads_table_extra(
        R"({"kind": "affine", "root": "Nodes", "unit": "elements", "expression": "blockDim.x*blockIdx.x + threadIdx.x + 1", )" +
        tid_terms + R"(, "constant": 1, )" + tid_symbols + R"(, "inductions": [], "loads": []})");
    loads[2].extra_json = loads_table_extra(
        R"({"kind": "affine", "root": "Edges", "unit": "elements", "expression": "j",
            "terms": [{"coefficient": 1, "symbols": ["j"]}], "constant": 0,
            "symbols": {"j": "induction", "load#0": "load", "load#1": "load"},
            "inductions": [{"variable": "j", "loop_depth": 1,
              "init": {"expression": "load#0", "terms": [{"coefficient": 1, "symbols": ["load#0"]}], "constant": 0},
              "step": {"expression": "1", "terms": [], "constant": 1},
              "bound": {"expression": "load#1", "terms": [{"coefficient": 1, "symbols": ["load#1"]}], "constant": 0},
              "comparison": "<"}],
            "loads": ["load#0", "load#1"]})");
    loads[3].extra_json = loads_table_extra(
        R"({"kind": "data_dependent", "root": "Cost", "unit": "elements", "expression": "load#2",
            "terms": [{"coefficient": 1, "symbols": ["load#2"]}], "constant": 0,
            "symbols": {"load#2": "load"}, "inductions": [], "loads": ["load#2"]})");
  }
  writer.write_loads(loads);
  const std::vector<Allocation> allocations = {{0, kNodesBase, 5 * 4, "Nodes"},
                                               {1, kEdgesBase, 8 * 4, "Edges"},
                                               {2, kCostBase, 10 * 4, "Cost"}};
  writer.write_allocations(allocations);
  if (!annotations.empty())
    writer.write_annotations(annotations);
  LaunchInfo launch;
  launch.kernel = "bfs_csr";
  launch.grid = {2, 1, 1};
  launch.block = {2, 1, 1};
  launch.snapshot_first_block = 0;
  launch.snapshot_block_count = 2;
  const std::uint32_t index = writer.begin_launch(launch);
  for (std::uint32_t block = 0; block < 2; ++block) {
    std::vector<WarpRecord> records;
    const auto record = [&](std::uint32_t id, auto address_of_thread) {
      WarpRecord r;
      r.static_id = id;
      r.element_size = 4;
      r.active_mask = 0b11;
      for (std::uint32_t t = 0; t < 2; ++t)
        r.addresses[t] = address_of_thread(t);
      records.push_back(r);
    };
    record(0, [&](std::uint32_t t) { return kNodesBase + 4 * (2 * block + t); });
    record(1, [&](std::uint32_t t) { return kNodesBase + 4 * (2 * block + t + 1); });
    for (std::uint32_t k = 0; k < 2; ++k) {  // every row has two edges
      const auto edge = [&](std::uint32_t t) { return kNodes[2 * block + t] + k; };
      record(2, [&](std::uint32_t t) { return kEdgesBase + 4 * edge(t); });
      record(3, [&](std::uint32_t t) { return kCostBase + 4 * kEdges[edge(t)]; });
    }
    writer.write_warp_records(index, block, 0, records);
  }
  writer.finish();
}

}  // namespace memcarlo::test_support
