// JSON (de)serialisation of trace metadata with path-naming errors for malformed documents.
#include "memcarlo/tracebuf/metadata.hpp"

#include "memcarlo/tracebuf/format.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <set>

namespace memcarlo::tracebuf {
namespace {

using nlohmann::json;

std::string kind_list() {
  return "read, write, rmw, atomic";
}

json parse(std::string_view text, const char* what) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error; out_of_range: a number beyond a double
    throw MetadataError(std::string(what) + ": not valid JSON: " + e.what());
  }
}

const json& require(const json& object, const std::string& path, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) {
    throw MetadataError(path + "." + key + ": missing required key");
  }
  return *it;
}

template <class Int>
Int get_int(const json& value, const std::string& path) {
  if (!value.is_number_integer()) {
    throw MetadataError(path + ": expected an integer, got " + value.dump());
  }
  if (value.is_number_unsigned()) {
    auto v = value.get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(std::numeric_limits<Int>::max())) {
      throw MetadataError(path + ": " + value.dump() + " is out of range");
    }
    return static_cast<Int>(v);
  }
  auto v = value.get<std::int64_t>();
  if (v < static_cast<std::int64_t>(std::numeric_limits<Int>::min()) ||
      (v > 0 && static_cast<std::uint64_t>(v) >
                    static_cast<std::uint64_t>(std::numeric_limits<Int>::max()))) {
    throw MetadataError(path + ": " + value.dump() + " is out of range");
  }
  return static_cast<Int>(v);
}

template <class Int>
Int int_or(const json& object, const std::string& path, const char* key, Int fallback) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    return fallback;
  }
  return get_int<Int>(*it, path + "." + key);
}

std::string string_or(const json& object, const std::string& path, const char* key,
                      std::string fallback = {}) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    return fallback;
  }
  if (!it->is_string()) {
    throw MetadataError(path + "." + key + ": expected a string, got " + it->dump());
  }
  return it->get<std::string>();
}

std::string object_text_or(const json& object, const std::string& path, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    return "{}";
  }
  if (!it->is_object()) {
    throw MetadataError(path + "." + key + ": expected an object, got " + it->dump());
  }
  return it->dump();
}

json dim3_to_json(const Dim3& d) {
  return json::array({d.x, d.y, d.z});
}

Dim3 dim3_from_json(const json& value, const std::string& path) {
  if (!value.is_array() || value.empty() || value.size() > 3) {
    throw MetadataError(path + ": expected an array of 1 to 3 positive integers");
  }
  Dim3 d;
  std::uint32_t* parts[3] = {&d.x, &d.y, &d.z};
  for (std::size_t i = 0; i < value.size(); ++i) {
    *parts[i] = get_int<std::uint32_t>(value[i], path + "[" + std::to_string(i) + "]");
    if (*parts[i] == 0) {
      throw MetadataError(path + "[" + std::to_string(i) + "]: must be at least 1");
    }
  }
  return d;
}

const std::set<std::string> kLoadKeys = {
    "id",           "function",    "kernels",       "kernel",     "file",
    "line",         "column",      "expression",    "kind",       "element_type",
    "element_size", "base",        "address_space", "loop_depth", "sequence",
    "depends_on",   "redundant_of"};

}  // namespace

std::string_view to_string(AccessKind kind) {
  switch (kind) {
    case AccessKind::kRead:
      return "read";
    case AccessKind::kWrite:
      return "write";
    case AccessKind::kReadModifyWrite:
      return "rmw";
    case AccessKind::kAtomic:
      return "atomic";
  }
  return "?";
}

std::optional<AccessKind> access_kind_from_string(std::string_view text) {
  for (std::uint8_t k = 0; k < kAccessKindCount; ++k) {
    if (to_string(static_cast<AccessKind>(k)) == text) {
      return static_cast<AccessKind>(k);
    }
  }
  return std::nullopt;
}

std::string loads_to_json(std::span<const LoadInfo> loads) {
  json array = json::array();
  for (const LoadInfo& load : loads) {
    json entry = json::parse(load.extra_json.empty() ? "{}" : load.extra_json);
    entry["id"] = load.id;
    entry["function"] = load.function;
    entry["kernels"] = load.kernels;
    entry["file"] = load.file;
    entry["line"] = load.line;
    entry["column"] = load.column;
    entry["expression"] = load.expression;
    entry["kind"] = std::string(to_string(load.kind));
    entry["element_type"] = load.element_type;
    entry["element_size"] = load.element_size;
    entry["base"] = load.base;
    entry["address_space"] = load.address_space;
    entry["loop_depth"] = load.loop_depth;
    entry["sequence"] = load.sequence;
    entry["depends_on"] = load.depends_on;
    if (load.redundant_of) {
      entry["redundant_of"] = *load.redundant_of;
    }
    array.push_back(std::move(entry));
  }
  return array.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<LoadInfo> loads_from_json(std::string_view text) {
  const json document = parse(text, "loads table");
  if (!document.is_array()) {
    throw MetadataError("loads: expected a JSON array of load objects");
  }
  std::vector<LoadInfo> loads;
  loads.reserve(document.size());
  for (std::size_t i = 0; i < document.size(); ++i) {
    const std::string path = "loads[" + std::to_string(i) + "]";
    const json& entry = document[i];
    if (!entry.is_object()) {
      throw MetadataError(path + ": expected an object");
    }
    LoadInfo load;
    load.id = get_int<std::uint32_t>(require(entry, path, "id"), path + ".id");
    load.function = string_or(entry, path, "function");
    if (auto it = entry.find("kernels"); it != entry.end() && !it->is_null()) {
      if (!it->is_array()) {
        throw MetadataError(path + ".kernels: expected an array of strings");
      }
      for (const json& k : *it) {
        if (!k.is_string()) {
          throw MetadataError(path + ".kernels: expected an array of strings");
        }
        load.kernels.push_back(k.get<std::string>());
      }
    } else if (auto single = string_or(entry, path, "kernel"); !single.empty()) {
      load.kernels.push_back(single);
    }
    load.file = string_or(entry, path, "file");
    load.line = int_or<std::uint32_t>(entry, path, "line", 0);
    load.column = int_or<std::uint32_t>(entry, path, "column", 0);
    load.expression = string_or(entry, path, "expression");
    const std::string kind = string_or(entry, path, "kind", "read");
    auto parsed_kind = access_kind_from_string(kind);
    if (!parsed_kind) {
      throw MetadataError(path + ".kind: expected one of " + kind_list() + "; got \"" + kind +
                          "\"");
    }
    load.kind = *parsed_kind;
    load.element_type = string_or(entry, path, "element_type");
    load.element_size = int_or<std::uint32_t>(entry, path, "element_size", 0);
    load.base = string_or(entry, path, "base");
    load.address_space = string_or(entry, path, "address_space", "global");
    load.loop_depth = int_or<std::uint32_t>(entry, path, "loop_depth", 0);
    load.sequence = int_or<std::int64_t>(entry, path, "sequence", -1);
    if (auto it = entry.find("depends_on"); it != entry.end() && !it->is_null()) {
      if (!it->is_array()) {
        throw MetadataError(path + ".depends_on: expected an array of load ids");
      }
      for (std::size_t d = 0; d < it->size(); ++d) {
        load.depends_on.push_back(
            get_int<std::uint32_t>((*it)[d], path + ".depends_on[" + std::to_string(d) + "]"));
      }
    }
    if (auto it = entry.find("redundant_of"); it != entry.end() && !it->is_null()) {
      load.redundant_of = get_int<std::uint32_t>(*it, path + ".redundant_of");
    }
    json extra = json::object();
    for (auto it = entry.begin(); it != entry.end(); ++it) {
      if (!kLoadKeys.contains(it.key())) {
        extra[it.key()] = it.value();
      }
    }
    load.extra_json = extra.dump(-1, ' ', false, json::error_handler_t::replace);
    loads.push_back(std::move(load));
  }
  return loads;
}

std::string allocations_to_json(std::span<const Allocation> allocations) {
  json array = json::array();
  for (const Allocation& a : allocations) {
    array.push_back({{"id", a.id}, {"base", a.base}, {"size", a.size}, {"name", a.name}});
  }
  return array.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<Allocation> allocations_from_json(std::string_view text) {
  const json document = parse(text, "allocations");
  if (!document.is_array()) {
    throw MetadataError("allocations: expected a JSON array");
  }
  std::vector<Allocation> allocations;
  for (std::size_t i = 0; i < document.size(); ++i) {
    const std::string path = "allocations[" + std::to_string(i) + "]";
    const json& entry = document[i];
    if (!entry.is_object()) {
      throw MetadataError(path + ": expected an object");
    }
    Allocation a;
    a.id = get_int<std::uint32_t>(require(entry, path, "id"), path + ".id");
    a.base = get_int<std::uint64_t>(require(entry, path, "base"), path + ".base");
    a.size = get_int<std::uint64_t>(require(entry, path, "size"), path + ".size");
    a.name = string_or(entry, path, "name");
    allocations.push_back(std::move(a));
  }
  return allocations;
}

std::string launch_to_json(const LaunchInfo& launch) {
  json j = {{"index", launch.index},
            {"kernel", launch.kernel},
            {"grid", dim3_to_json(launch.grid)},
            {"block", dim3_to_json(launch.block)},
            {"dynamic_shared_bytes", launch.dynamic_shared_bytes},
            {"static_shared_bytes", launch.static_shared_bytes},
            {"registers_per_thread", launch.registers_per_thread},
            {"snapshot",
             {{"first_block", launch.snapshot_first_block},
              {"block_count", launch.snapshot_block_count}}},
            {"resident_blocks_per_sm", launch.resident_blocks_per_sm},
            {"sequence_in_program", launch.sequence_in_program}};
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

LaunchInfo launch_from_json(std::string_view text) {
  const json j = parse(text, "launch");
  const std::string path = "launch";
  if (!j.is_object()) {
    throw MetadataError("launch: expected an object");
  }
  LaunchInfo launch;
  launch.index = get_int<std::uint32_t>(require(j, path, "index"), path + ".index");
  launch.kernel = string_or(j, path, "kernel");
  launch.grid = dim3_from_json(require(j, path, "grid"), path + ".grid");
  launch.block = dim3_from_json(require(j, path, "block"), path + ".block");
  launch.dynamic_shared_bytes = int_or<std::uint64_t>(j, path, "dynamic_shared_bytes", 0);
  launch.static_shared_bytes = int_or<std::uint64_t>(j, path, "static_shared_bytes", 0);
  launch.registers_per_thread = int_or<std::uint32_t>(j, path, "registers_per_thread", 0);
  const json& snapshot = require(j, path, "snapshot");
  if (!snapshot.is_object()) {
    throw MetadataError("launch.snapshot: expected an object {first_block, block_count}");
  }
  launch.snapshot_first_block = get_int<std::uint64_t>(
      require(snapshot, path + ".snapshot", "first_block"), path + ".snapshot.first_block");
  launch.snapshot_block_count = get_int<std::uint64_t>(
      require(snapshot, path + ".snapshot", "block_count"), path + ".snapshot.block_count");
  launch.resident_blocks_per_sm = int_or<std::uint32_t>(j, path, "resident_blocks_per_sm", 0);
  launch.sequence_in_program = int_or<std::uint64_t>(j, path, "sequence_in_program", 0);
  // Hostile sizes are refused here, before anything is allocated for them (README, "Bounds"):
  // CUDA's own limits on the grid and the block, and at most kMaxSnapshotBlocks traced blocks.
  if (launch.block.volume() == 0 || launch.block.volume() > kMaxBlockThreads) {
    throw MetadataError(path + ".block: " + std::to_string(launch.block.volume()) +
                        " threads per block; CUDA allows 1 to " + std::to_string(kMaxBlockThreads));
  }
  if (launch.grid.x == 0 || launch.grid.y == 0 || launch.grid.z == 0 || launch.grid.x > kMaxGridX ||
      launch.grid.y > kMaxGridYZ || launch.grid.z > kMaxGridYZ) {
    throw MetadataError(path + ".grid: (" + std::to_string(launch.grid.x) + ", " +
                        std::to_string(launch.grid.y) + ", " + std::to_string(launch.grid.z) +
                        "); CUDA allows x up to " + std::to_string(kMaxGridX) + ", y and z up to " +
                        std::to_string(kMaxGridYZ) + ", none 0");
  }
  if (launch.snapshot_block_count > kMaxSnapshotBlocks) {
    throw MetadataError(
        path + ".snapshot.block_count: " + std::to_string(launch.snapshot_block_count) +
        " traced blocks; memcarlo reads at most " + std::to_string(kMaxSnapshotBlocks));
  }
  if (launch.snapshot_block_count > launch.grid.volume() ||
      launch.snapshot_first_block > launch.grid.volume() - launch.snapshot_block_count) {
    throw MetadataError("launch.snapshot: blocks [" + std::to_string(launch.snapshot_first_block) +
                        ", " +
                        std::to_string(launch.snapshot_first_block + launch.snapshot_block_count) +
                        ") exceed the grid of " + std::to_string(launch.grid.volume()) + " blocks");
  }
  return launch;
}

std::string meta_to_json(const TraceMeta& meta) {
  json j = {
      {"producer", meta.producer},
      {"producer_version", meta.producer_version},
      {"backend", meta.backend},
      {"command", meta.command},
      {"device", json::parse(meta.device_json.empty() ? "{}" : meta.device_json)},
      {"properties", json::parse(meta.properties_json.empty() ? "{}" : meta.properties_json)}};
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

TraceMeta meta_from_json(std::string_view text) {
  const json j = parse(text, "meta");
  if (!j.is_object()) {
    throw MetadataError("meta: expected an object");
  }
  TraceMeta meta;
  meta.producer = string_or(j, "meta", "producer");
  meta.producer_version = string_or(j, "meta", "producer_version");
  meta.backend = string_or(j, "meta", "backend");
  meta.command = string_or(j, "meta", "command");
  meta.device_json = object_text_or(j, "meta", "device");
  meta.properties_json = object_text_or(j, "meta", "properties");
  return meta;
}

}  // namespace memcarlo::tracebuf
