// The round-trip check shared by the interop tests: an exported-then-imported trace must hold the
// same records as the original, warp by warp, with static ids mapped back through the PC.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "interop_test_util.hpp"
#include "memcarlo/accelsim/accelsim.hpp"

namespace memcarlo::accelsim::testing {

inline void expect_same_records(const std::string& original_path, const std::string& back_path) {
  const auto original = tracebuf::TraceReader::open(original_path);
  const auto back = tracebuf::TraceReader::open(back_path);
  EXPECT_NO_THROW(tracebuf::check_invariants(back));
  ASSERT_EQ(original.launches().size(), back.launches().size());

  // Imported static id -> original static id, through the PC the exporter gave each id.
  std::vector<std::uint32_t> original_id;
  for (const auto& load : back.loads()) {
    const auto pc = nlohmann::json::parse(load.extra_json).at("accelsim_pc").get<std::uint64_t>();
    ASSERT_EQ(pc % 0x20, 0u) << load.expression;
    original_id.push_back(static_cast<std::uint32_t>(pc / 0x20));
    ASSERT_LT(original_id.back(), original.loads().size());
    EXPECT_EQ(load.kind, original.loads()[original_id.back()].kind) << load.expression;
  }

  std::uint64_t compared = 0;
  for (std::size_t l = 0; l < original.launches().size(); ++l) {
    const auto& before = original.launches()[l];
    const auto& after = back.launches()[l];
    EXPECT_EQ(after.info.kernel, before.info.kernel);
    EXPECT_EQ(after.info.snapshot_block_count, before.info.snapshot_block_count);
    // Imported blocks are numbered by position: original block b is b - snapshot_first_block.
    std::map<std::pair<std::uint64_t, std::uint32_t>, const tracebuf::WarpStream*> streams;
    for (const auto& stream : after.warps) {
      streams[{stream.block, stream.warp}] = &stream;
    }
    ASSERT_EQ(after.warps.size(), before.warps.size()) << "launch " << l;
    for (const auto& stream : before.warps) {
      const auto it = streams.find({stream.block - before.info.snapshot_first_block, stream.warp});
      ASSERT_NE(it, streams.end()) << "launch " << l << " block " << stream.block << " warp "
                                   << stream.warp << " did not come back";
      std::vector<tracebuf::WarpRecord> expected, actual;
      stream.for_each([&](const tracebuf::RecordView& r) { expected.push_back(r.to_record()); });
      it->second->for_each([&](const tracebuf::RecordView& r) { actual.push_back(r.to_record()); });
      ASSERT_EQ(actual.size(), expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto& e = expected[i];
        const auto& a = actual[i];
        SCOPED_TRACE("launch " + std::to_string(l) + " block " + std::to_string(stream.block) +
                     " warp " + std::to_string(stream.warp) + " record " + std::to_string(i));
        EXPECT_EQ(original_id.at(a.static_id), e.static_id);
        EXPECT_EQ(a.kind, e.kind);
        EXPECT_EQ(a.element_size, e.element_size);
        EXPECT_EQ(a.barriers, e.barriers);
        EXPECT_EQ(a.active_mask, e.active_mask);
        EXPECT_EQ(active_addresses(a), active_addresses(e));
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, original.total_records());
  EXPECT_EQ(back.total_records(), original.total_records());
}

}  // namespace memcarlo::accelsim::testing
