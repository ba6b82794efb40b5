// Locality Descriptors in JSON: the histo descriptor of the paper's Figure 9 read and written
// back, defaults, and bad descriptors refused with the field named.
#include <gtest/gtest.h>

#include <string>

#include "memcarlo/tracebuf/locality_descriptor.hpp"

namespace {

using namespace memcarlo::tracebuf;

// histo (Figure 9): sm_mappings, X_len x Y_len uchar4, INTER-THREAD, D-Tile (X_tile, Y_len, 1),
// C-Tile (1, GridDim.y, 1), map (1, 0, 0), COACCESSED REGULAR with stride X_len, priority 1.
// Here X_len = 64, Y_len = 32, X_tile = 16, grid 4 x 8.
const char* const kHisto = R"({"descriptors": [{
  "name": "sm_mappings", "address": "0x10000", "size": 8192, "element_size": 4,
  "shape": [64, 32], "type": "INTER-THREAD", "data_tile": [16, 32, 1],
  "compute_tile": [1, 8, 1], "compute_data_map": [1, 0, 0],
  "sharing": "COACCESSED", "pattern": "REGULAR", "stride": 64, "priority": 1}]})";

TEST(LocalityDescriptorJson, HistoReadsBackAsWritten) {
  const auto descriptors = parse_descriptors(kHisto);
  ASSERT_EQ(descriptors.size(), 1u);
  const LocalityDescriptor& d = descriptors[0];
  EXPECT_EQ(d.name, "sm_mappings");
  EXPECT_EQ(d.address, 0x10000u);
  EXPECT_EQ(d.shape, (Dim3{64, 32, 1}));
  EXPECT_EQ(d.type, LocalityType::kInterThread);
  EXPECT_EQ(d.compute_data_map, (Dim3{1, 0, 0}));
  EXPECT_EQ(d.data_tiles(), (Dim3{4, 1, 1}));
  EXPECT_NO_THROW(check_descriptors(descriptors, {4, 8, 1}, {{0, 0x10000, 8192, "sm_mappings"}}));
  EXPECT_EQ(parse_descriptors(descriptors_to_json(descriptors)), descriptors);
}

TEST(LocalityDescriptorJson, DefaultsAndSpellings) {
  const auto d = parse_descriptors(R"({"descriptors": [{"address": 4096, "size": 400,
    "element_size": 4, "type": "no_reuse", "compute_tile": [2]}]})")[0];
  EXPECT_EQ(d.shape, (Dim3{100, 1, 1}));      // size / element_size
  EXPECT_EQ(d.data_tile, (Dim3{100, 1, 1}));  // the whole structure
  EXPECT_EQ(d.compute_tile, (Dim3{2, 1, 1}));
  EXPECT_EQ(d.compute_data_map, (Dim3{1, 2, 3}));
  EXPECT_EQ(d.type, LocalityType::kNoReuse);
  EXPECT_EQ(d.priority, 1u);
}

// A descriptor file's entries say which launches they are for: a kernel, and the grid and block
// of the launches it was proposed for.
TEST(LocalityDescriptorJson, AFilesEntriesNameTheirKernelAndLaunchShape) {
  const std::string text = R"({"descriptors": [{"kernel": "histo_main", "grid": [4, 8],
    "block": [256], "address": 4096, "size": 400, "element_size": 4, "type": "NO-REUSE",
    "compute_tile": [4, 8]}, {"address": 4096, "size": 400, "type": "NO-REUSE",
    "compute_tile": [1]}]})";
  const std::vector<ScopedDescriptor> file = parse_descriptor_file(text);
  ASSERT_EQ(file.size(), 2u);
  EXPECT_EQ(file[0].scope.kernel, "histo_main");
  EXPECT_EQ(file[0].scope.grid, (Dim3{4, 8, 1}));
  EXPECT_EQ(file[0].scope.block, (Dim3{256, 1, 1}));
  EXPECT_TRUE(file[1].scope.kernel.empty());
  EXPECT_FALSE(file[1].scope.grid.has_value());
  EXPECT_EQ(parse_descriptor_file(descriptor_file_to_json(file)), file);
  EXPECT_EQ(parse_descriptors(text).size(), 2u);
  // Refused: a kernel that is not a name, a grid of zero blocks.
  for (const auto& [entry, field] : std::vector<std::pair<std::string, std::string>>{
           {R"("kernel": 3, )", "descriptors[0].kernel"},
           {R"("kernel": "", )", "descriptors[0].kernel"},
           {R"("grid": [0], )", "descriptors[0].grid.x"}}) {
    try {
      parse_descriptor_file(
          R"({"descriptors": [{)" + entry +
          R"("address": 4096, "size": 400, "type": "NO-REUSE", "compute_tile": [1]}]})");
      ADD_FAILURE() << "accepted " << entry;
    } catch (const DescriptorError& error) {
      EXPECT_EQ(error.field(), field) << error.what();
    }
  }
  // A trace's annotation payload is one descriptor, not a file's entry: no scope there.
  try {
    recorded_descriptors(
        R"([{"kind": "locality_descriptor", "payload": {"kernel": "k", "address": 4096,
          "size": 400, "type": "NO-REUSE", "compute_tile": [1]}}])",
        0);
    ADD_FAILURE() << "a payload with a kernel was accepted";
  } catch (const DescriptorError& error) {
    EXPECT_EQ(error.field(), "annotations[0].payload.kernel") << error.what();
  }
}

void expect_refused(const std::string& text, const std::string& field, const std::string& words) {
  try {
    parse_descriptors(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const DescriptorError& error) {
    EXPECT_EQ(error.field(), field) << error.what();
    EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
  }
}

std::string one(const std::string& fields) {
  return R"({"descriptors": [{)" + fields + "}]}";
}

TEST(LocalityDescriptorJson, BadFieldsAreNamed) {
  const std::string base = R"("address": 0, "size": 64, "element_size": 4, "type": "INTRA-THREAD")";
  expect_refused("[]", "descriptors", "expected {\"descriptors\"");
  expect_refused("{\"descriptors\": [", "(file)", "not JSON");
  expect_refused(one(base), "descriptors[0].compute_tile", "missing");
  expect_refused(one(base + R"(, "compute_tile": [1], "colour": 1)"), "descriptors[0].colour",
                 "unknown key");
  expect_refused(one(base + R"(, "compute_tile": [1], "sharing": "SOMETIMES")"),
                 "descriptors[0].sharing", "'SOMETIMES' is not one of COACCESSED, NEARBY");
  expect_refused(one(base + R"(, "compute_tile": [0])"), "descriptors[0].compute_tile.x",
                 "outside [1,");
  expect_refused(one(base + R"(, "compute_tile": [1], "shape": [4, 5])"), "descriptors[0].shape",
                 "holds 20 elements, but size / element_size is 16");
  expect_refused(
      one(R"("address": 0, "size": 6, "element_size": 4, "type": "NO-REUSE", "compute_tile": [1])"),
      "descriptors[0].size", "not a whole number of 4-byte elements");
  expect_refused(one(base + R"(, "compute_tile": [1], "compute_data_map": [1, 1, 0])"),
                 "descriptors[0].compute_data_map", "ranks 1..2 once each");
  expect_refused(one(R"("address": "0xZZ", "size": 64, "type": "NO-REUSE", "compute_tile": [1])"),
                 "descriptors[0].address", "not an address");
  expect_refused(one(R"("address": 0, "size": 64, "type": "INTER-THREAD", "compute_tile": [1])"),
                 "descriptors[0].stride", "needs a non-zero stride");
}

void expect_check_refused(const std::string& text, Dim3 grid,
                          const std::vector<Allocation>& allocations, const std::string& field,
                          const std::string& words) {
  try {
    check_descriptors(parse_descriptors(text), grid, allocations);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const DescriptorError& error) {
    EXPECT_EQ(error.field(), field) << error.what();
    EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
  }
}

TEST(LocalityDescriptorCheck, TilesMustDivideAndAddressesLieInAnAllocation) {
  // C-Tile of 3 CTAs in a grid of 4.
  expect_check_refused(kHisto, {4, 9, 1}, {}, "descriptors[0].compute_tile.y",
                       "8 CTAs do not divide the grid's 9");
  // The map does not traverse Y, so the C-Tile must span it.
  expect_check_refused(kHisto, {4, 16, 1}, {}, "descriptors[0].compute_tile.y",
                       "must span the grid (16)");
  // 4 D-Tiles but 8 C-Tiles.
  expect_check_refused(kHisto, {8, 8, 1}, {}, "descriptors[0].data_tile",
                       "4 D-Tiles for 8 C-Tiles");
  // Outside every allocation (one that ends a byte early).
  expect_check_refused(kHisto, {4, 8, 1}, {{0, 0x10000, 8191, "sm_mappings"}},
                       "descriptors[0].address", "not inside any allocation");
  // D-Tiles of 24 elements in a shape of 64: three, the last of 16, for four C-Tiles.
  std::string bad = kHisto;
  bad.replace(bad.find("[16, 32, 1]"), 11, "[24, 32, 1]");
  expect_check_refused(bad, {4, 8, 1}, {}, "descriptors[0].data_tile",
                       "3 D-Tiles for 4 C-Tiles");
  // A D-Tile wider than the shape.
  std::string wide = kHisto;
  wide.replace(wide.find("[16, 32, 1]"), 11, "[80, 32, 1]");
  expect_check_refused(wide, {4, 8, 1}, {}, "descriptors[0].data_tile.x",
                       "80 elements exceed the shape's 64");
}

// The last D-Tile along a dimension may hold less: 22 tiles 12 wide over rows of 256 (the last 4
// wide), one per CTA of a grid of 22, are accepted.
TEST(LocalityDescriptorCheck, TheLastDataTileMayHoldLess) {
  const auto d = parse_descriptors(R"({"descriptors": [
    {"name": "temp", "address": 0, "size": 262144, "element_size": 4, "shape": [256, 256, 1],
     "type": "INTER-THREAD", "data_tile": [12, 12, 1], "compute_tile": [1, 1, 1],
     "compute_data_map": [1, 2, 0], "sharing": "NEARBY", "priority": 1}]})");
  EXPECT_NO_THROW(check_descriptors(d, {22, 22, 1}, {}));
  EXPECT_EQ(d[0].data_tiles(), (Dim3{22, 22, 1}));
  EXPECT_THROW(check_descriptors(d, {21, 22, 1}, {}), DescriptorError);  // 22 tiles, 21 CTAs
}

TEST(LocalityDescriptorCheck, PriorityOrderIsStable) {
  auto d = parse_descriptors(R"({"descriptors": [
    {"name": "a", "address": 0, "size": 4, "type": "NO-REUSE", "compute_tile": [1], "priority": 1},
    {"name": "b", "address": 0, "size": 4, "type": "NO-REUSE", "compute_tile": [1], "priority": 3},
    {"name": "c", "address": 0, "size": 4, "type": "NO-REUSE", "compute_tile": [1], "priority": 1}]})");
  const auto ordered = by_priority(d);
  EXPECT_EQ(ordered[0].name, "b");
  EXPECT_EQ(ordered[1].name, "a");
  EXPECT_EQ(ordered[2].name, "c");
}

}  // namespace
