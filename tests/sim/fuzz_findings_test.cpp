// What coverage-guided fuzzing found in the hierarchy loader (tests/fuzz/regressions/hierarchy):
// a --set argument that is not UTF-8 text, and a number beyond a double's range in a hierarchy
// file, escaped as nlohmann::json exceptions instead of ConfigError naming the input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "memcarlo/sim/hierarchy_loader.hpp"

namespace {

using memcarlo::sim::ConfigError;
using memcarlo::sim::load_hierarchy;

std::string message_of(const std::string& name, const std::vector<std::string>& overrides) {
  try {
    (void)load_hierarchy(name, overrides);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(accepted)";
}

TEST(HierarchyFuzzFindings, ASetArgumentThatIsNotUtf8IsAConfigError) {
  const std::string message = message_of("fermi-c2050", {"l1.size=48K\xa9n"});
  EXPECT_NE(message.find("--set: an argument is not UTF-8 text"), std::string::npos) << message;
}

TEST(HierarchyFuzzFindings, ANumberBeyondADoubleIsAConfigErrorNamingTheFile) {
  const auto path = std::filesystem::temp_directory_path() / "memcarlo-fuzz-finding-1e999.json";
  std::ofstream(path) << R"({"base": "fermi-c2050", "l1.size": 16381e3084})";
  const std::string message = message_of(path.string(), {});
  EXPECT_NE(message.find(path.string() + ": not valid JSON"), std::string::npos) << message;
  EXPECT_NE(message.find("number overflow"), std::string::npos) << message;
  // As a --set value it is a word like any other, refused as a size.
  const std::string set = message_of("fermi-c2050", {"l1.size=1e999"});
  EXPECT_NE(set.find("l1.size"), std::string::npos) << set;
}

}  // namespace
