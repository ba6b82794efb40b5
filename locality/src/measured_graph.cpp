// The locality graph of a traced launch (measured_graph.hpp).
#include "memcarlo/locality/measured_graph.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace memcarlo::locality {

MeasuredGraph measured_graph(const tracebuf::LaunchStreams& launch,
                             const std::optional<std::set<std::uint32_t>>& only_loads) {
  MeasuredGraph result;
  result.first_block = launch.info.snapshot_first_block;
  result.block_count = launch.info.snapshot_block_count;
  const std::uint64_t blocks = launch.info.grid.volume();
  GraphBuilder elements(blocks);
  GraphBuilder lines(blocks);
  // Warps are sorted by (block, warp): gather one block's keys, then hand them over as intervals,
  // so memory holds one block's addresses at a time.
  std::map<std::uint32_t, std::vector<std::int64_t>> element_keys;  // per element size
  std::vector<std::int64_t> line_keys;
  const auto flush = [&](std::uint32_t block) {
    for (auto& [size, keys] : element_keys) {
      if (!keys.empty())
        elements.add(size, block, intervals_of_keys(keys));
      keys.clear();
    }
    if (!line_keys.empty())
      lines.add(0, block, intervals_of_keys(line_keys));
    line_keys.clear();
  };
  std::optional<std::uint32_t> current;
  for (const tracebuf::WarpStream& warp : launch.warps) {
    if (warp.block >= blocks) {
      throw std::runtime_error("launch " + std::to_string(launch.info.index) + ": block " +
                               std::to_string(warp.block) + " is outside the grid of " +
                               std::to_string(blocks) + " blocks");
    }
    if (current && *current != warp.block)
      flush(*current);
    current = warp.block;
    warp.for_each([&](const tracebuf::RecordView& record) {
      if (record.kind() != tracebuf::AccessKind::kRead)
        return;
      if (only_loads && !only_loads->contains(record.static_id()))
        return;
      result.loads.insert(record.static_id());
      const std::uint32_t size = record.element_size() == 0 ? 1 : record.element_size();
      std::vector<std::int64_t>& keys = element_keys[size];
      record.for_each_address([&](unsigned, std::uint64_t address) {
        keys.push_back(static_cast<std::int64_t>(address / size));
        line_keys.push_back(static_cast<std::int64_t>(address / 128));
      });
    });
  }
  if (current)
    flush(*current);
  result.elements = elements.finish();
  result.lines = lines.finish();
  return result;
}

}  // namespace memcarlo::locality
