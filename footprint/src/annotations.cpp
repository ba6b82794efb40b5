// The TAFE annotations a trace records for a launch (footprint.hpp): the scalar kernel arguments
// and the taf_register calls of the paper's API (docs/footprints.md, "Annotations").
#include <nlohmann/json.hpp>

#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/tracebuf/metadata.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::footprint {

std::map<std::string, std::int64_t> recorded_arguments(const tracebuf::TraceReader& reader,
                                                       std::uint32_t launch) {
  std::map<std::string, std::int64_t> out;
  const nlohmann::json annotations =
      nlohmann::json::parse(reader.annotations_json(), nullptr, false);
  if (!annotations.is_array())
    return out;
  for (const nlohmann::json& annotation : annotations) {
    if (!annotation.is_object() || annotation.value("kind", std::string()) != "kernel_arguments") {
      continue;
    }
    if (annotation.contains("launch") && (!annotation["launch"].is_number_unsigned() ||
                                          annotation["launch"].get<std::uint32_t>() != launch)) {
      continue;
    }
    const nlohmann::json payload = annotation.value("payload", nlohmann::json::object());
    const std::string path = reader.path() + ": annotation kernel_arguments";
    if (!payload.is_object()) {
      throw tracebuf::MetadataError(path + ".payload: expected an object {name: integer}");
    }
    for (const auto& [name, value] : payload.items()) {
      if (!value.is_number_integer()) {
        throw tracebuf::MetadataError(path + ".payload." + name + ": expected an integer");
      }
      out[name] = value.get<std::int64_t>();
    }
  }
  return out;
}

std::vector<TafRegistration> recorded_registrations(const tracebuf::TraceReader& reader,
                                                    std::uint32_t launch) {
  std::vector<TafRegistration> out;
  const nlohmann::json annotations =
      nlohmann::json::parse(reader.annotations_json(), nullptr, false);
  if (!annotations.is_array())
    return out;
  for (std::size_t i = 0; i < annotations.size(); ++i) {
    const nlohmann::json& annotation = annotations[i];
    if (!annotation.is_object())
      continue;
    const std::string kind = annotation.value("kind", std::string());
    if (kind != "taf_register" && kind != "taf_reset")
      continue;
    if (annotation.contains("launch") && (!annotation["launch"].is_number_unsigned() ||
                                          annotation["launch"].get<std::uint32_t>() != launch)) {
      continue;
    }
    const std::string path =
        reader.path() + ": annotations[" + std::to_string(i) + "] (" + kind + ")";
    const nlohmann::json payload = annotation.value("payload", nlohmann::json());
    const auto integer = [&](const char* key) -> std::int64_t {
      if (!payload.is_object() || !payload.contains(key) || !payload[key].is_number_integer()) {
        throw tracebuf::MetadataError(path + ".payload." + key + ": expected an integer");
      }
      return payload[key].get<std::int64_t>();
    };
    if (kind == "taf_reset") {
      const auto base = static_cast<std::uint64_t>(integer("base"));
      std::erase_if(out, [&](const TafRegistration& r) { return r.base == base; });
      continue;
    }
    TafRegistration r;
    r.type = payload.is_object() ? payload.value("type", std::string()) : std::string();
    if (r.type != "TID_DEP" && r.type != "INDIR" && r.type != "INDIR_RANGE") {
      throw tracebuf::MetadataError(path + ".payload.type: expected TID_DEP, INDIR or INDIR_RANGE");
    }
    r.base = static_cast<std::uint64_t>(integer("base"));
    r.size = static_cast<std::uint64_t>(integer("size"));
    r.element_size = static_cast<std::uint32_t>(integer("element_size"));
    if (r.element_size == 0) {
      throw tracebuf::MetadataError(path + ".payload.element_size: expected a positive integer");
    }
    if (r.type == "TID_DEP") {
      if (!payload.contains("m") || !payload["m"].is_array() || payload["m"].size() != 6) {
        throw tracebuf::MetadataError(path + ".payload.m: expected 6 integers");
      }
      for (int k = 0; k < 6; ++k) {
        if (!payload["m"][k].is_number_integer()) {
          throw tracebuf::MetadataError(path + ".payload.m: expected 6 integers");
        }
        r.m[k] = payload["m"][k].get<std::int64_t>();
      }
      r.c = integer("c");
      r.ofs = payload.contains("ofs") ? integer("ofs") : 0;
      r.n = payload.contains("n") ? integer("n") : 0;
    } else if (r.type == "INDIR") {
      r.pbase = static_cast<std::uint64_t>(integer("pbase"));
      r.m[0] = integer("m");
      r.c = integer("c");
      if (r.m[0] == 0)
        throw tracebuf::MetadataError(path + ".payload.m: expected non-zero");
    } else {
      r.pbase = static_cast<std::uint64_t>(integer("pbase_s"));
      r.c = integer("c_s");
      r.pbase_end = static_cast<std::uint64_t>(integer("pbase_e"));
      r.c_end = integer("c_e");
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace memcarlo::footprint
