// Which launches an annotation record applies to (annotations.hpp).
#include "memcarlo/tracebuf/annotations.hpp"

#include <nlohmann/json.hpp>

#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::tracebuf {

bool annotation_applies(const nlohmann::json& record, std::uint32_t launch,
                        const std::string& where) {
  const auto launch_field = [&](const char* key) -> std::uint64_t {
    const nlohmann::json& value = record.at(key);
    if (!value.is_number_unsigned()) {
      throw MetadataError(where + "." + key + ": expected a launch index (an integer >= 0)");
    }
    return value.get<std::uint64_t>();
  };
  if (!record.is_object()) {
    return false;
  }
  if (record.contains("launch") && launch_field("launch") != launch) {
    return false;
  }
  return !record.contains("since_launch") || launch_field("since_launch") <= launch;
}

}  // namespace memcarlo::tracebuf
