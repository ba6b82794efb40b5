// Locality Descriptors: JSON form and checks (see locality_descriptor.hpp).
#include "memcarlo/tracebuf/locality_descriptor.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "memcarlo/tracebuf/annotations.hpp"

namespace memcarlo::tracebuf {
namespace {

using nlohmann::json;

std::string normalised(std::string_view text) {
  std::string out;
  for (char c : text) {
    out.push_back(c == '_' ? '-' : static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  }
  return out;
}

template <typename Enum, std::size_t N>
Enum enum_field(const json& object, const std::string& key, const std::string& where,
                const Enum (&values)[N], Enum fallback, bool required) {
  if (!object.contains(key)) {
    if (required) {
      throw DescriptorError(where + "." + key, "missing");
    }
    return fallback;
  }
  const json& value = object.at(key);
  std::string names;
  for (Enum candidate : values) {
    names += (names.empty() ? "" : ", ") + std::string(to_string(candidate));
  }
  if (!value.is_string()) {
    throw DescriptorError(where + "." + key, "expected one of " + names);
  }
  const std::string text = normalised(value.get<std::string>());
  for (Enum candidate : values) {
    if (text == to_string(candidate)) {
      return candidate;
    }
  }
  throw DescriptorError(where + "." + key,
                        "'" + value.get<std::string>() + "' is not one of " + names);
}

std::uint64_t unsigned_field(const json& value, const std::string& field, std::uint64_t low,
                             std::uint64_t high) {
  if (!value.is_number_integer() ||
      (value.is_number_integer() && !value.is_number_unsigned() && value.get<std::int64_t>() < 0)) {
    throw DescriptorError(field, "expected an integer in [" + std::to_string(low) + ", " +
                                     std::to_string(high) + "]");
  }
  const auto number = value.get<std::uint64_t>();
  if (number < low || number > high) {
    throw DescriptorError(field, std::to_string(number) + " is outside [" + std::to_string(low) +
                                     ", " + std::to_string(high) + "]");
  }
  return number;
}

/// An address: an integer or a "0x..." string (JSON numbers above 2^53 lose digits elsewhere).
std::uint64_t address_field(const json& value, const std::string& field) {
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    std::size_t used = 0;
    std::uint64_t number = 0;
    try {
      number = std::stoull(text, &used, 0);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size()) {
      throw DescriptorError(field, "'" + text + "' is not an address (a number, or \"0x...\")");
    }
    return number;
  }
  return unsigned_field(value, field, 0, std::numeric_limits<std::uint64_t>::max());
}

Dim3 dim3_field(const json& object, const std::string& key, const std::string& where,
                std::optional<Dim3> fallback, std::uint32_t low) {
  const std::string field = where + "." + key;
  if (!object.contains(key)) {
    if (!fallback) {
      throw DescriptorError(field, "missing");
    }
    return *fallback;
  }
  const json& value = object.at(key);
  if (!value.is_array() || value.empty() || value.size() > 3) {
    throw DescriptorError(field, "expected [x], [x, y] or [x, y, z]");
  }
  std::uint32_t parts[3] = {1, 1, 1};
  if (low == 0) {
    parts[1] = parts[2] = 0;
  }
  static const char* const kNames[3] = {"x", "y", "z"};
  for (std::size_t i = 0; i < value.size(); ++i) {
    parts[i] = static_cast<std::uint32_t>(unsigned_field(
        value[i], field + "." + kNames[i], low, std::numeric_limits<std::uint32_t>::max()));
  }
  return Dim3{parts[0], parts[1], parts[2]};
}

const LocalityType kTypes[] = {LocalityType::kInterThread, LocalityType::kIntraThread,
                               LocalityType::kNoReuse};
const SharingType kSharings[] = {SharingType::kCoaccessed, SharingType::kNearby};
const AccessPattern kPatterns[] = {AccessPattern::kRegular, AccessPattern::kIrregular};

const std::set<std::string> kKeys = {
    "name",         "address",          "size",    "element_size", "shape",  "type",    "data_tile",
    "compute_tile", "compute_data_map", "sharing", "pattern",      "stride", "priority"};

// A descriptor file's entries also say which launches they are for (DescriptorScope).
const std::set<std::string> kScopeKeys = {"kernel", "grid", "block"};

/// One descriptor; `scoped`: an entry of a descriptor file, which may have kScopeKeys too (read
/// by parse_scope).
LocalityDescriptor parse_one(const json& object, const std::string& where, bool scoped = false) {
  if (!object.is_object()) {
    throw DescriptorError(where, "expected an object");
  }
  for (const auto& item : object.items()) {
    if (kKeys.count(item.key()) == 0 && !(scoped && kScopeKeys.count(item.key()) != 0)) {
      std::string known;
      for (const auto& key : kKeys) {
        known += (known.empty() ? "" : ", ") + key;
      }
      if (scoped) {
        for (const auto& key : kScopeKeys) {
          known += ", " + key;
        }
      }
      throw DescriptorError(where + "." + item.key(), "unknown key (known: " + known + ")");
    }
  }
  LocalityDescriptor d;
  if (object.contains("name")) {
    if (!object.at("name").is_string()) {
      throw DescriptorError(where + ".name", "expected a string");
    }
    d.name = object.at("name").get<std::string>();
  }
  if (!object.contains("address")) {
    throw DescriptorError(where + ".address", "missing");
  }
  d.address = address_field(object.at("address"), where + ".address");
  if (!object.contains("size")) {
    throw DescriptorError(where + ".size", "missing");
  }
  d.size = unsigned_field(object.at("size"), where + ".size", 1,
                          std::numeric_limits<std::uint64_t>::max() - d.address);
  d.element_size = object.contains("element_size")
                       ? static_cast<std::uint32_t>(unsigned_field(
                             object.at("element_size"), where + ".element_size", 1, 1u << 20))
                       : 1;
  if (d.size % d.element_size != 0) {
    throw DescriptorError(where + ".size", std::to_string(d.size) +
                                               " bytes is not a whole number of " +
                                               std::to_string(d.element_size) + "-byte elements");
  }
  const std::uint64_t elements = d.size / d.element_size;
  const Dim3 linear{static_cast<std::uint32_t>(std::min<std::uint64_t>(
                        elements, std::numeric_limits<std::uint32_t>::max())),
                    1, 1};
  d.shape = dim3_field(object, "shape", where, linear, 1);
  if (d.shape.volume() != elements) {
    throw DescriptorError(where + ".shape", "holds " + std::to_string(d.shape.volume()) +
                                                " elements, but size / element_size is " +
                                                std::to_string(elements));
  }
  d.type = enum_field(object, "type", where, kTypes, LocalityType::kInterThread, true);
  d.data_tile = dim3_field(object, "data_tile", where, d.shape, 1);
  d.compute_tile = dim3_field(object, "compute_tile", where, std::nullopt, 1);
  d.compute_data_map = dim3_field(object, "compute_data_map", where, Dim3{1, 2, 3}, 0);
  d.sharing = enum_field(object, "sharing", where, kSharings, SharingType::kCoaccessed, false);
  d.pattern = enum_field(object, "pattern", where, kPatterns, AccessPattern::kRegular, false);
  if (object.contains("stride")) {
    const json& stride = object.at("stride");
    if (!stride.is_number_integer()) {
      throw DescriptorError(where + ".stride", "expected an integer (elements)");
    }
    d.stride = stride.get<std::int64_t>();
  }
  if (d.pattern == AccessPattern::kRegular && d.type == LocalityType::kInterThread &&
      d.sharing == SharingType::kCoaccessed && d.stride == 0) {
    throw DescriptorError(where + ".stride",
                          "a COACCESSED REGULAR descriptor needs a non-zero stride (elements)");
  }
  d.priority = object.contains("priority")
                   ? static_cast<std::uint32_t>(
                         unsigned_field(object.at("priority"), where + ".priority", 0, 1u << 30))
                   : 1;
  // The map's ranks: each of 1..n used once, n the number of traversed dimensions.
  const std::uint32_t ranks[3] = {d.compute_data_map.x, d.compute_data_map.y, d.compute_data_map.z};
  std::uint32_t used = 0;
  for (std::uint32_t r : ranks) {
    used += r != 0 ? 1 : 0;
  }
  for (std::uint32_t want = 1; want <= used; ++want) {
    if (std::count(std::begin(ranks), std::end(ranks), want) != 1) {
      throw DescriptorError(where + ".compute_data_map",
                            "expected the ranks 1.." + std::to_string(used) +
                                " once each (0 for a dimension not traversed)");
    }
  }
  if (used == 0) {
    throw DescriptorError(where + ".compute_data_map", "traverses no dimension");
  }
  return d;
}

DescriptorScope parse_scope(const json& object, const std::string& where) {
  DescriptorScope scope;
  if (object.contains("kernel")) {
    if (!object.at("kernel").is_string() || object.at("kernel").get<std::string>().empty()) {
      throw DescriptorError(where + ".kernel", "expected a kernel's name (a non-empty string)");
    }
    scope.kernel = object.at("kernel").get<std::string>();
  }
  if (object.contains("grid")) {
    scope.grid = dim3_field(object, "grid", where, std::nullopt, 1);
  }
  if (object.contains("block")) {
    scope.block = dim3_field(object, "block", where, std::nullopt, 1);
  }
  return scope;
}

json dim3_json(const Dim3& d) {
  return json::array({d.x, d.y, d.z});
}

std::uint32_t component(const Dim3& d, int i) {
  return i == 0 ? d.x : i == 1 ? d.y : d.z;
}

}  // namespace

std::string_view to_string(LocalityType type) {
  switch (type) {
    case LocalityType::kInterThread:
      return "INTER-THREAD";
    case LocalityType::kIntraThread:
      return "INTRA-THREAD";
    case LocalityType::kNoReuse:
      return "NO-REUSE";
  }
  return "?";
}

std::string_view to_string(SharingType sharing) {
  return sharing == SharingType::kCoaccessed ? "COACCESSED" : "NEARBY";
}

std::string_view to_string(AccessPattern pattern) {
  return pattern == AccessPattern::kRegular ? "REGULAR" : "IRREGULAR";
}

Dim3 LocalityDescriptor::data_tiles() const {
  const auto tiles = [](std::uint32_t extent, std::uint32_t tile) {
    return tile == 0 ? 0u : (extent + tile - 1) / tile;
  };
  return Dim3{tiles(shape.x, data_tile.x), tiles(shape.y, data_tile.y),
              tiles(shape.z, data_tile.z)};
}

std::vector<ScopedDescriptor> parse_descriptor_file(std::string_view json_text) {
  json document;
  try {
    document = json::parse(json_text);
  } catch (const json::exception& error) {  // parse_error; out_of_range: a number beyond a double
    throw DescriptorError("(file)", std::string("not JSON: ") + error.what());
  }
  if (!document.is_object() || !document.contains("descriptors") ||
      !document.at("descriptors").is_array()) {
    throw DescriptorError("descriptors", "expected {\"descriptors\": [ ... ]}");
  }
  std::vector<ScopedDescriptor> out;
  const json& list = document.at("descriptors");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "descriptors[" + std::to_string(i) + "]";
    LocalityDescriptor descriptor = parse_one(list[i], where, true);
    out.push_back({parse_scope(list[i], where), std::move(descriptor)});
  }
  return out;
}

std::vector<LocalityDescriptor> parse_descriptors(std::string_view json_text) {
  std::vector<LocalityDescriptor> out;
  for (ScopedDescriptor& entry : parse_descriptor_file(json_text)) {
    out.push_back(std::move(entry.descriptor));
  }
  return out;
}

std::vector<LocalityDescriptor> recorded_descriptors(std::string_view annotations_json,
                                                     std::uint32_t launch) {
  const json records = json::parse(annotations_json, nullptr, false);
  std::vector<LocalityDescriptor> out;
  if (!records.is_array()) {
    return out;
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    const json& record = records[i];
    const std::string where = "annotations[" + std::to_string(i) + "]";
    const std::string kind = record.is_object() ? record.value("kind", std::string()) : "";
    if ((kind != "locality_descriptor" && kind != "locality_descriptor_reset") ||
        !annotation_applies(record, launch, where)) {
      continue;
    }
    const json payload = record.value("payload", json());
    if (kind == "locality_descriptor_reset") {
      if (!payload.is_object() || !payload.contains("address")) {
        throw DescriptorError(where + ".payload.address", "missing");
      }
      const LocalityDescriptor probe = parse_one(
          json{{"address", payload.at("address")}, {"size", 1}, {"type", "NO-REUSE"},
               {"compute_tile", {1}}},
          where + ".payload");
      std::erase_if(out, [&](const LocalityDescriptor& d) { return d.address == probe.address; });
      continue;
    }
    LocalityDescriptor d = parse_one(payload, where + ".payload");
    const auto same = std::find_if(out.begin(), out.end(), [&](const LocalityDescriptor& e) {
      return e.address == d.address && e.type == d.type;
    });
    if (same != out.end()) {
      *same = std::move(d);
    } else {
      out.push_back(std::move(d));
    }
  }
  return out;
}

namespace {

nlohmann::ordered_json descriptor_json(
    const LocalityDescriptor& d, nlohmann::ordered_json entry = nlohmann::ordered_json::object()) {
  const auto dim3_ordered = [](const Dim3& v) {
    return nlohmann::ordered_json::array({v.x, v.y, v.z});
  };
  for (auto& [key, value] : std::vector<std::pair<std::string, nlohmann::ordered_json>>{
           {"name", d.name},
           {"address", d.address},
           {"size", d.size},
           {"element_size", d.element_size},
           {"shape", dim3_ordered(d.shape)},
           {"type", to_string(d.type)},
           {"data_tile", dim3_ordered(d.data_tile)},
           {"compute_tile", dim3_ordered(d.compute_tile)},
           {"compute_data_map", dim3_ordered(d.compute_data_map)},
           {"sharing", to_string(d.sharing)},
           {"pattern", to_string(d.pattern)},
           {"stride", d.stride},
           {"priority", d.priority}}) {
    entry[key] = std::move(value);
  }
  return entry;
}

}  // namespace

std::string descriptor_file_to_json(const std::vector<ScopedDescriptor>& descriptors) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ScopedDescriptor& scoped : descriptors) {
    nlohmann::ordered_json entry = nlohmann::ordered_json::object();
    if (!scoped.scope.kernel.empty()) {
      entry["kernel"] = scoped.scope.kernel;
    }
    if (scoped.scope.grid) {
      entry["grid"] = {scoped.scope.grid->x, scoped.scope.grid->y, scoped.scope.grid->z};
    }
    if (scoped.scope.block) {
      entry["block"] = {scoped.scope.block->x, scoped.scope.block->y, scoped.scope.block->z};
    }
    list.push_back(descriptor_json(scoped.descriptor, std::move(entry)));
  }
  return nlohmann::ordered_json{{"descriptors", list}}.dump(2) + "\n";
}

std::string descriptors_to_json(const std::vector<LocalityDescriptor>& descriptors) {
  json list = json::array();
  for (const LocalityDescriptor& d : descriptors) {
    json entry = {{"name", d.name},
                  {"address", d.address},
                  {"size", d.size},
                  {"element_size", d.element_size},
                  {"shape", dim3_json(d.shape)},
                  {"type", to_string(d.type)},
                  {"data_tile", dim3_json(d.data_tile)},
                  {"compute_tile", dim3_json(d.compute_tile)},
                  {"compute_data_map", dim3_json(d.compute_data_map)},
                  {"sharing", to_string(d.sharing)},
                  {"pattern", to_string(d.pattern)},
                  {"stride", d.stride},
                  {"priority", d.priority}};
    list.push_back(std::move(entry));
  }
  return json{{"descriptors", list}}.dump(2) + "\n";
}

void check_descriptors(const std::vector<LocalityDescriptor>& descriptors, const Dim3& grid,
                       const std::vector<Allocation>& allocations) {
  static const char* const kNames[3] = {"x", "y", "z"};
  for (std::size_t i = 0; i < descriptors.size(); ++i) {
    const LocalityDescriptor& d = descriptors[i];
    const std::string where = "descriptors[" + std::to_string(i) + "]";
    if (!allocations.empty()) {
      const bool inside =
          std::any_of(allocations.begin(), allocations.end(), [&](const Allocation& a) {
            return d.address >= a.base && d.address - a.base <= a.size &&
                   d.size <= a.size - (d.address - a.base);
          });
      if (!inside) {
        std::string names;
        for (std::size_t a = 0; a < allocations.size() && a < 8; ++a) {
          names += (names.empty() ? "" : ", ") + allocations[a].name;
        }
        if (allocations.size() > 8) {
          names += ", ...";
        }
        throw DescriptorError(
            where + ".address",
            (d.name.empty() ? std::string() : "'" + d.name + "' ") + "[" +
                std::to_string(d.address) + ", +" + std::to_string(d.size) +
                ") is not inside any allocation of the trace (allocations: " + names + ")");
      }
    }
    std::uint64_t compute_tiles = 1;
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t g = component(grid, k);
      const std::uint32_t c = component(d.compute_tile, k);
      if (c > g || g % c != 0) {
        throw DescriptorError(
            where + ".compute_tile." + kNames[k],
            std::to_string(c) + " CTAs do not divide the grid's " + std::to_string(g));
      }
      if (component(d.compute_data_map, k) == 0 && c != g) {
        throw DescriptorError(where + ".compute_tile." + kNames[k],
                              "the compute-data map does not traverse " + std::string(kNames[k]) +
                                  ", so the C-Tile must span the grid (" + std::to_string(g) +
                                  "), not " + std::to_string(c));
      }
      compute_tiles *= g / c;
      const std::uint32_t s = component(d.shape, k);
      const std::uint32_t t = component(d.data_tile, k);
      // The last D-Tile along a dimension may hold less (hotspot's 12-wide tiles of 256-wide
      // rows); a D-Tile larger than the shape is a mistake.
      if (t > s) {
        throw DescriptorError(where + ".data_tile." + kNames[k],
                              std::to_string(t) + " elements exceed the shape's " +
                                  std::to_string(s));
      }
    }
    const std::uint64_t data_tiles = d.data_tiles().volume();
    if (data_tiles != compute_tiles) {
      throw DescriptorError(where + ".data_tile", std::to_string(data_tiles) + " D-Tiles for " +
                                                      std::to_string(compute_tiles) +
                                                      " C-Tiles: the map is one to one");
    }
  }
}

std::vector<LocalityDescriptor> by_priority(std::vector<LocalityDescriptor> descriptors) {
  std::stable_sort(descriptors.begin(), descriptors.end(),
                   [](const LocalityDescriptor& a, const LocalityDescriptor& b) {
                     return a.priority > b.priority;
                   });
  return descriptors;
}

}  // namespace memcarlo::tracebuf
