// The TAFE annotations a trace records for a launch (footprint.hpp): the scalar kernel arguments
// and the taf_register calls of the paper's API (docs/footprints.md, "Annotations"). Which records
// apply to a launch ("launch", "since_launch") is tracebuf::annotation_applies.
#include <nlohmann/json.hpp>

#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/tracebuf/annotations.hpp"
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
  for (std::size_t i = 0; i < annotations.size(); ++i) {
    const nlohmann::json& annotation = annotations[i];
    if (!annotation.is_object() || annotation.value("kind", std::string()) != "kernel_arguments") {
      continue;
    }
    const std::string path =
        reader.path() + ": annotations[" + std::to_string(i) + "] (kernel_arguments)";
    if (!tracebuf::annotation_applies(annotation, launch, path)) {
      continue;
    }
    const nlohmann::json payload = annotation.value("payload", nlohmann::json::object());
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
  bool any_ready_call = false;
  const nlohmann::json annotations =
      nlohmann::json::parse(reader.annotations_json(), nullptr, false);
  if (!annotations.is_array())
    return out;
  for (std::size_t i = 0; i < annotations.size(); ++i) {
    const nlohmann::json& annotation = annotations[i];
    if (!annotation.is_object())
      continue;
    const std::string kind = annotation.value("kind", std::string());
    if (kind != "taf_register" && kind != "taf_reset" && kind != "taf_setRdy")
      continue;
    const std::string path =
        reader.path() + ": annotations[" + std::to_string(i) + "] (" + kind + ")";
    if (!tracebuf::annotation_applies(annotation, launch, path)) {
      continue;
    }
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
    if (kind == "taf_setRdy") {
      // Sets the R bit of the array's registrations made so far (TAFE's APD entry).
      const auto base = static_cast<std::uint64_t>(integer("base"));
      any_ready_call = true;
      for (TafRegistration& r : out) {
        r.ready = r.ready || r.base == base;
      }
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
  if (!any_ready_call) {
    // Annotations written without TAFE's readiness calls: every registration stands.
    for (TafRegistration& r : out) {
      r.ready = true;
    }
  }
  return out;
}

std::optional<LaunchShape> recorded_param_setup(const tracebuf::TraceReader& reader,
                                                std::uint32_t launch) {
  std::optional<LaunchShape> out;
  const nlohmann::json annotations =
      nlohmann::json::parse(reader.annotations_json(), nullptr, false);
  if (!annotations.is_array())
    return out;
  for (std::size_t i = 0; i < annotations.size(); ++i) {
    const nlohmann::json& annotation = annotations[i];
    if (!annotation.is_object() || annotation.value("kind", std::string()) != "taf_paramSetup")
      continue;
    const std::string path =
        reader.path() + ": annotations[" + std::to_string(i) + "] (taf_paramSetup)";
    if (!tracebuf::annotation_applies(annotation, launch, path))
      continue;
    const nlohmann::json payload = annotation.value("payload", nlohmann::json());
    LaunchShape shape;
    for (const char* key : {"block", "grid"}) {
      if (!payload.is_object() || !payload.contains(key) || !payload[key].is_array() ||
          payload[key].size() != 3) {
        throw tracebuf::MetadataError(path + ".payload." + key + ": expected 3 integers");
      }
      for (int d = 0; d < 3; ++d) {
        if (!payload[key][d].is_number_unsigned()) {
          throw tracebuf::MetadataError(path + ".payload." + key + ": expected 3 integers");
        }
        (std::string(key) == "block" ? shape.block : shape.grid)[d] =
            payload[key][d].get<std::uint32_t>();
      }
    }
    out = shape;
  }
  return out;
}

}  // namespace memcarlo::footprint
