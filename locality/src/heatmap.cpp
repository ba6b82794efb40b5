// HTML heatmap of locality graphs (heatmap.hpp).
#include "memcarlo/locality/heatmap.hpp"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

namespace memcarlo::locality {
namespace {

constexpr std::int64_t kMaxBins = 512;

nlohmann::json panel_json(const HeatmapPanel& panel, std::int64_t blocks) {
  const std::int64_t bins = std::min(blocks, kMaxBins);
  const std::int64_t per_bin = (blocks + bins - 1) / bins;
  std::map<std::pair<std::int64_t, std::int64_t>, Weight> cells;
  for (std::int64_t row = 0; row < panel.graph->outerSize(); ++row) {
    for (SparseGraph::InnerIterator it(*panel.graph, row); it; ++it) {
      if (it.value() != 0)
        cells[{row / per_bin, it.col() / per_bin}] += it.value();
    }
  }
  nlohmann::json entries = nlohmann::json::array();
  Weight max = 0;
  for (const auto& [cell, weight] : cells) {
    entries.push_back({cell.first, cell.second, weight});
    max = std::max(max, weight);
  }
  return {{"title", panel.title},        {"bins", (blocks + per_bin - 1) / per_bin},
          {"per_bin", per_bin},          {"max", max},
          {"cells", std::move(entries)}, {"pattern", ""}};
}

std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '&') {
      out += "&amp;";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string heatmap_html(const std::string& title, const tracebuf::Dim3& grid,
                         const std::vector<HeatmapPanel>& panels) {
  const auto blocks = static_cast<std::int64_t>(grid.volume());
  nlohmann::json data = nlohmann::json::array();
  for (const HeatmapPanel& panel : panels) {
    nlohmann::json entry = panel_json(panel, blocks);
    entry["pattern"] = graph_pattern(*panel.graph, grid);
    data.push_back(std::move(entry));
  }
  // The JSON goes into a <script> element: "</" must not end it early.
  std::string payload = data.dump();
  for (std::size_t at = payload.find("</"); at != std::string::npos; at = payload.find("</", at)) {
    payload.replace(at, 2, "<\\/");
  }
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escaped(title) +
         "</title>\n<style>body{font-family:sans-serif;margin:1em}figure{display:inline-block;"
         "margin:0 2em 2em 0;vertical-align:top}canvas{border:1px solid #888;"
         "image-rendering:pixelated}</style></head><body>\n<h1>" +
         escaped(title) +
         "</h1>\n<p>Lower triangle of L(i, j): block i down (increasing), block j across; the "
         "deeper the red, the more the two blocks share. Grid " +
         std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" + std::to_string(grid.z) +
         ", " + std::to_string(blocks) +
         " blocks.</p>\n<div id=\"panels\"></div>\n<script>\nconst panels = " + payload +
         ";\nfor (const p of panels) {\n"
         "  const figure = document.createElement('figure');\n"
         "  const caption = document.createElement('figcaption');\n"
         "  caption.textContent = p.title + ' (' + p.pattern + '; max ' + p.max +\n"
         "      (p.per_bin > 1 ? ', bins of ' + p.per_bin + ' blocks' : '') + ')';\n"
         "  const canvas = document.createElement('canvas');\n"
         "  const scale = Math.max(1, Math.floor(512 / p.bins));\n"
         "  canvas.width = canvas.height = p.bins * scale;\n"
         "  const g = canvas.getContext('2d');\n"
         "  g.fillStyle = '#fff';\n"
         "  g.fillRect(0, 0, canvas.width, canvas.height);\n"
         "  for (const [i, j, w] of p.cells) {\n"
         "    const a = p.max > 0 ? 0.15 + 0.85 * w / p.max : 0;\n"
         "    g.fillStyle = 'rgba(200,0,0,' + a + ')';\n"
         "    g.fillRect(j * scale, i * scale, scale, scale);\n"
         "  }\n"
         "  figure.appendChild(canvas);\n"
         "  figure.appendChild(caption);\n"
         "  document.getElementById('panels').appendChild(figure);\n"
         "}\n</script>\n</body></html>\n";
}

}  // namespace memcarlo::locality
