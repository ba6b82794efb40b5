// The locality graph as a self-contained HTML page: the lower triangle as a heatmap (LocalityGuru
// Figure 4: block i down, block j across, the colour's intensity the shared count), with block
// axes and a colour scale per panel. Graphs of more than 512 blocks are drawn in bins of
// consecutive blocks, each the sum of its pairs. After drawing, the page writes what it drew (per
// panel its ticks and the box of every text) into the element render-status, for browser tests.
#pragma once

#include <string>
#include <vector>

#include "memcarlo/locality/graph.hpp"

namespace memcarlo::locality {

struct HeatmapPanel {
  std::string title;  // e.g. "static, elements"
  const SparseGraph* graph = nullptr;
};

std::string heatmap_html(const std::string& title, const tracebuf::Dim3& grid,
                         const std::vector<HeatmapPanel>& panels);

}  // namespace memcarlo::locality
