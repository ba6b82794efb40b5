// The descriptors each launch runs with (descriptors.hpp).
#include "descriptors.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::sim::ldesc {

using tracebuf::DescriptorError;
using tracebuf::LocalityDescriptor;

std::optional<std::vector<LocalityDescriptor>> file_descriptors(const HierarchyConfig& config) {
  const auto path =
      nlohmann::json::parse(config.params.text(kDescriptorsFile)).get<std::string>();
  if (path.empty()) {
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw DescriptorError(path, "cannot be read (ldesc.descriptors / --descriptors)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return tracebuf::parse_descriptors(text.str());
  } catch (const DescriptorError& error) {
    throw DescriptorError(path + ": " + error.field(),
                          std::string(error.what()).substr(error.field().size() + 2));
  }
}

std::vector<LocalityDescriptor> launch_descriptors(
    const tracebuf::TraceReader& reader, std::uint32_t launch,
    const std::optional<std::vector<LocalityDescriptor>>& from_file,
    const std::string& file_name) {
  const std::string source = from_file ? file_name : reader.path();
  const tracebuf::LaunchInfo& info = reader.launches().at(launch).info;
  const std::string at_launch =
      " (launch " + std::to_string(launch) + ", " + info.kernel + ")";
  try {
    std::vector<LocalityDescriptor> descriptors =
        from_file ? *from_file : tracebuf::recorded_descriptors(reader.annotations_json(), launch);
    tracebuf::check_descriptors(descriptors, info.grid, reader.allocations());
    return tracebuf::by_priority(std::move(descriptors));
  } catch (const DescriptorError& error) {
    throw DescriptorError(source + ": " + error.field(),
                          std::string(error.what()).substr(error.field().size() + 2) + at_launch);
  } catch (const tracebuf::MetadataError& error) {  // a malformed "launch" / "since_launch"
    throw DescriptorError(source, error.what() + at_launch);
  }
}

}  // namespace memcarlo::sim::ldesc
