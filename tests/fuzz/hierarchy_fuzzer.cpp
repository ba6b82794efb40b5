// libFuzzer harness: a hierarchy file with --set overrides. The input is the overrides, one
// "key=value" per line, then a line "---", then the JSON file; without the marker all of it is
// the file. Refusals must be sim::ConfigError or sim::UnknownPolicy (a policy name no registry
// has); a loaded hierarchy must also print (hierarchy_to_json) and load back from that text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/policy_registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memcarlo;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto [set_lines, json] = fuzz::split_at_marker(text, "---");
  std::vector<std::string> overrides;
  std::size_t at = 0;
  while (at < set_lines.size()) {
    const std::size_t end = set_lines.find('\n', at);
    const std::string_view line =
        set_lines.substr(at, end == std::string_view::npos ? set_lines.npos : end - at);
    if (!line.empty()) {
      overrides.emplace_back(line);
    }
    at = end == std::string_view::npos ? set_lines.size() : end + 1;
  }
  const fuzz::InputFile file(json, ".json");
  try {
    const sim::HierarchyConfig config = sim::load_hierarchy(file.path(), overrides);
    // What a report writes must load back.
    const fuzz::InputFile again(sim::hierarchy_to_json(config), ".again.json");
    (void)sim::load_hierarchy(again.path());
  } catch (const sim::ConfigError&) {
  } catch (const sim::UnknownPolicy&) {
  }
  return 0;
}
