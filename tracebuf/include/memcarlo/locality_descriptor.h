// The Locality Descriptor API (Vijaykumar et al., ISCA'18, §3, Figure 9) for programs memcarlo
// traces, with either backend: constructing a LocalityDescriptor records it, with the data
// structure's device address, as a trace annotation ({"kind": "locality_descriptor", "payload":
// {...}}, the JSON form of docs/locality-descriptors.md) that applies from the next launch on;
// constructing another for the same data structure and locality type re-specifies it, and
// ldesc_reset(data) removes a data structure's descriptors. The ldesc
// CTA scheduler, placement, prefetcher and L1 attributes act on them (`memcarlo simulate` with
// schedule.cta=ldesc, ...). Include it in host code; nothing is added to kernels.
//
//   Tile_t tile(dim3(X_tile, Y_len, 1), dim3(1, grid.y, 1), dim3(1, 0, 0));
//   LocalitySemantics_t loc(COACCESSED, REGULAR, X_len);
//   LocalityDescriptor ldesc(sm_mappings, size, INTER_THREAD, tile, loc, 1,
//                            dim3(X_len, Y_len, 1), "sm_mappings");
//
// Beyond the paper: the data structure's shape in elements (X fastest; default one dimension of
// size / sizeof(T)) and a name, since D-Tiles are in elements of that shape. The element size is
// sizeof(T) of the pointer given.
#ifndef MEMCARLO_LOCALITY_DESCRIPTOR_H
#define MEMCARLO_LOCALITY_DESCRIPTOR_H

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" {
/// Appends {"kind": kind, "payload": payload_json} to the trace's annotations (both runtimes
/// define it). `payload_json` is a JSON object.
void memcarlo_record_annotation(const char* kind, const char* payload_json);
}

enum memcarlo_locality_type { INTRA_THREAD, INTER_THREAD, NO_REUSE };
enum memcarlo_sharing_type { COACCESSED, NEARBY };
enum memcarlo_access_pattern { REGULAR, IRREGULAR };

namespace memcarlo_ldesc_detail {
struct Extent {
  unsigned long long x = 1, y = 1, z = 1;
};
template <class Dim>
inline Extent extent(const Dim& d) {
  return {static_cast<unsigned long long>(d.x), static_cast<unsigned long long>(d.y),
          static_cast<unsigned long long>(d.z)};
}
inline std::string json(const Extent& e) {
  return "[" + std::to_string(e.x) + ", " + std::to_string(e.y) + ", " + std::to_string(e.z) +
         "]";
}
inline std::string quoted(const char* text) {
  std::string out = "\"";
  for (const char* c = text; *c != '\0'; ++c) {
    const auto byte = static_cast<unsigned char>(*c);
    if (*c == '"' || *c == '\\') {
      out += '\\';
      out += *c;
    } else if (byte < 0x20) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += *c;
    }
  }
  return out + "\"";
}
}  // namespace memcarlo_ldesc_detail

/// Tile semantics: the D-Tile (elements), the C-Tile (CTAs) and the compute-data map (the rank of
/// each grid dimension in the traversal of C-Tiles as D-Tiles go X → Y → Z; 0: not traversed).
struct Tile_t {
  template <class Dim>
  Tile_t(const Dim& data_tile, const Dim& compute_tile, const Dim& compute_data_map)
      : data(memcarlo_ldesc_detail::extent(data_tile)),
        compute(memcarlo_ldesc_detail::extent(compute_tile)),
        map(memcarlo_ldesc_detail::extent(compute_data_map)) {}
  memcarlo_ldesc_detail::Extent data, compute, map;
};

/// Locality semantics: the sharing type, the access pattern and, for REGULAR, the stride in
/// elements.
struct LocalitySemantics_t {
  LocalitySemantics_t(memcarlo_sharing_type sharing_type, memcarlo_access_pattern access_pattern,
                      long long stride_elements = 0)
      : sharing(sharing_type), pattern(access_pattern), stride(stride_elements) {}
  memcarlo_sharing_type sharing;
  memcarlo_access_pattern pattern;
  long long stride;
};

/// One data structure's Locality Descriptor; recorded when constructed.
class LocalityDescriptor {
 public:
  template <class T, class Dim>
  LocalityDescriptor(const T* data, std::size_t size_bytes, memcarlo_locality_type type,
                     const Tile_t& tile, const LocalitySemantics_t& semantics,
                     unsigned priority, const Dim& shape, const char* name = "") {
    record(data, size_bytes, sizeof(T), type, tile, semantics, priority,
           memcarlo_ldesc_detail::extent(shape), name);
  }
  template <class T>
  LocalityDescriptor(const T* data, std::size_t size_bytes, memcarlo_locality_type type,
                     const Tile_t& tile, const LocalitySemantics_t& semantics,
                     unsigned priority = 1) {
    record(data, size_bytes, sizeof(T), type, tile, semantics, priority,
           {size_bytes / sizeof(T), 1, 1}, "");
  }

 private:
  static void record(const void* data, std::size_t size_bytes, std::size_t element_size,
                     memcarlo_locality_type type, const Tile_t& tile,
                     const LocalitySemantics_t& semantics, unsigned priority,
                     const memcarlo_ldesc_detail::Extent& shape, const char* name) {
    using memcarlo_ldesc_detail::json;
    static const char* const kTypes[] = {"INTRA-THREAD", "INTER-THREAD", "NO-REUSE"};
    static const char* const kSharing[] = {"COACCESSED", "NEARBY"};
    static const char* const kPatterns[] = {"REGULAR", "IRREGULAR"};
    const std::string payload =
        "{\"name\": " + memcarlo_ldesc_detail::quoted(name) + ", \"address\": " +
        std::to_string(static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(data))) +
        ", \"size\": " + std::to_string(size_bytes) +
        ", \"element_size\": " + std::to_string(element_size) + ", \"shape\": " + json(shape) +
        ", \"type\": \"" + kTypes[type] + "\", \"data_tile\": " + json(tile.data) +
        ", \"compute_tile\": " + json(tile.compute) + ", \"compute_data_map\": " +
        json(tile.map) + ", \"sharing\": \"" + kSharing[semantics.sharing] +
        "\", \"pattern\": \"" + kPatterns[semantics.pattern] +
        "\", \"stride\": " + std::to_string(semantics.stride) +
        ", \"priority\": " + std::to_string(priority) + "}";
    memcarlo_record_annotation("locality_descriptor", payload.c_str());
  }
};

/// Removes the descriptors of the data structure at `data` (all locality types) from the next
/// launch on: a buffer that changes role between launches (ping-pong) is reset, then described
/// again. Beyond the paper, whose descriptors live as long as the program.
inline void ldesc_reset(const void* data) {
  const std::string payload =
      "{\"address\": " +
      std::to_string(static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(data))) +
      "}";
  memcarlo_record_annotation("locality_descriptor_reset", payload.c_str());
}

#endif  // MEMCARLO_LOCALITY_DESCRIPTOR_H
