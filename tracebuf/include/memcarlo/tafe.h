// TAFE's API (Punniyamurthy & Gerstlauer, PACT'20, Table 1) for programs that memcarlo traces,
// with either backend: each call is recorded, in call order, as an annotation of the trace
// ({"kind": "taf_register", "payload": {...}}, docs/footprints.md), which `memcarlo footprint`
// and the tafe scheduler and placement read. A hand registration overrides the relations derived
// from the loads table for its array. Include it in host code; nothing is added to kernels.
//
//   taf_paramSetup(dimBlock, dimGrid);
//   const long long nodes_m[6] = {1, 0, 0, THREADBLOCK_SIZE, 0, 0};
//   taf_register(Nodes, numNodes + 1, TID_DEP, sizeof(int), nodes_m, 0, 0, 0, true);
//   taf_register(Edges, numEdges, INDIR_RANGE, sizeof(int), Nodes, 0, Nodes, 0, true);
//   taf_register(Cost, numNodes, INDIR, sizeof(int), Edges, 1, 0, false);
//   taf_setRdy(Cost);
#ifndef MEMCARLO_TAFE_H
#define MEMCARLO_TAFE_H

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" {
/// Appends {"kind": kind, "since_launch": N, "payload": payload_json} to the trace's annotations,
/// N = the launches traced before the call, so that it applies from the next traced launch on
/// (both runtimes define it; the records are written before the next Launch chunk and at the End
/// chunk, trace format v2). `payload_json` is a JSON object.
void memcarlo_record_annotation(const char* kind, const char* payload_json);
}

struct memcarlo_taf_tid_dep_tag {};
struct memcarlo_taf_indir_tag {};
struct memcarlo_taf_indir_range_tag {};
inline constexpr memcarlo_taf_tid_dep_tag TID_DEP{};
inline constexpr memcarlo_taf_indir_tag INDIR{};
inline constexpr memcarlo_taf_indir_range_tag INDIR_RANGE{};

namespace memcarlo_tafe_detail {
inline std::string number(long long v) {
  return std::to_string(v);
}
inline std::string address(const void* p) {
  return std::to_string(static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
}
inline std::string head(const void* array, std::size_t count, const char* type,
                        std::size_t element_bytes, bool primary) {
  return "{\"base\": " + address(array) + ", \"size\": " + std::to_string(count) +
         ", \"type\": \"" + type + "\", \"element_size\": " + std::to_string(element_bytes) +
         ", \"primary\": " + (primary ? "true" : "false");
}
inline void record(const char* kind, const std::string& payload) {
  memcarlo_record_annotation(kind, payload.c_str());
}
}  // namespace memcarlo_tafe_detail

/// The launch shape the relations are evaluated with (dim3 or anything with x, y, z).
template <class Dim>
inline void taf_paramSetup(const Dim& block_dim, const Dim& grid_dim) {
  using memcarlo_tafe_detail::number;
  memcarlo_tafe_detail::record(
      "taf_paramSetup", "{\"block\": [" + number(block_dim.x) + ", " + number(block_dim.y) + ", " +
                            number(block_dim.z) + "], \"grid\": [" + number(grid_dim.x) + ", " +
                            number(grid_dim.y) + ", " + number(grid_dim.z) + "]}");
}

/// TID_DEP: indices {m·(threadIdx.x, .y, .z, blockIdx.x, .y, .z) + c + i·ofs | 0 <= i < n}.
inline void taf_register(const void* array, std::size_t count, memcarlo_taf_tid_dep_tag,
                         std::size_t element_bytes, const long long (&coefficients)[6],
                         long long constant, long long loop_offset, long long loop_count,
                         bool primary) {
  using memcarlo_tafe_detail::number;
  std::string m;
  for (int i = 0; i < 6; ++i)
    m += (i == 0 ? "" : ", ") + number(coefficients[i]);
  memcarlo_tafe_detail::record(
      "taf_register", memcarlo_tafe_detail::head(array, count, "TID_DEP", element_bytes, primary) +
                          ", \"m\": [" + m + "], \"c\": " + number(constant) + ", \"ofs\": " +
                          number(loop_offset) + ", \"n\": " + number(loop_count) + "}");
}

/// INDIR: indices {m·P[r] + c} for the indices r of the primary array P at `primary_array`.
inline void taf_register(const void* array, std::size_t count, memcarlo_taf_indir_tag,
                         std::size_t element_bytes, const void* primary_array,
                         long long coefficient, long long constant, bool primary) {
  using memcarlo_tafe_detail::number;
  memcarlo_tafe_detail::record(
      "taf_register", memcarlo_tafe_detail::head(array, count, "INDIR", element_bytes, primary) +
                          ", \"pbase\": " + memcarlo_tafe_detail::address(primary_array) +
                          ", \"m\": " + number(coefficient) + ", \"c\": " + number(constant) + "}");
}

/// INDIR_RANGE: indices {k | P_s[r_s] + c_s <= k < P_e[r_e] + c_e}.
inline void taf_register(const void* array, std::size_t count, memcarlo_taf_indir_range_tag,
                         std::size_t element_bytes, const void* start_array,
                         long long start_constant, const void* end_array, long long end_constant,
                         bool primary) {
  using memcarlo_tafe_detail::number;
  memcarlo_tafe_detail::record(
      "taf_register",
      memcarlo_tafe_detail::head(array, count, "INDIR_RANGE", element_bytes, primary) +
          ", \"pbase_s\": " + memcarlo_tafe_detail::address(start_array) + ", \"c_s\": " +
          number(start_constant) + ", \"pbase_e\": " + memcarlo_tafe_detail::address(end_array) +
          ", \"c_e\": " + number(end_constant) + "}");
}

/// The array's relation can be evaluated (its primary arrays are initialized).
inline void taf_setRdy(const void* array) {
  memcarlo_tafe_detail::record("taf_setRdy",
                               "{\"base\": " + memcarlo_tafe_detail::address(array) + "}");
}

/// Removes the array's registrations.
inline void taf_reset(const void* array) {
  memcarlo_tafe_detail::record("taf_reset",
                               "{\"base\": " + memcarlo_tafe_detail::address(array) + "}");
}

#endif  // MEMCARLO_TAFE_H
