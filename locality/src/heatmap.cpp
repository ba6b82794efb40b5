// HTML heatmap of locality graphs (heatmap.hpp): the page, its style and its drawing script.
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

const std::string kStyle =
    "body{font-family:system-ui,'DejaVu Sans',sans-serif;margin:1em 2em;color:#1d232a}"
    "h1{font-size:20px}.note{color:#5b6570;max-width:70em}"
    "figure{display:inline-block;margin:0 2em 2em 0;vertical-align:top}"
    "figcaption{font-size:13px;max-width:640px}canvas{display:block}";

// The page's script (a raw string: it holds quotes and backslashes).
const std::string kScript = R"js(
// Each panel: the heatmap with its block axes (ticks at round block numbers, the last block
// included), axis titles, and the colour scale under it. What was drawn, with the box of every
// text, goes into render-status for the browser test.
const status = { done: false, panels: [], errors: [] };
window.addEventListener('error', (event) => { status.errors.push(String(event.message)); });
function niceStep(span, count) {
  const raw = Math.max(1, span / count);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}
// Ticks at multiples of a round step and at `last`, which replaces the tick before it when the
// two would stand closer than `gap` pixels (`pixels` pixels per unit).
function ticksOf(last, count, pixels, gap) {
  const step = niceStep(last, count);
  const ticks = [];
  for (let v = 0; v <= last; v += step) ticks.push(v);
  if (ticks[ticks.length - 1] !== last) {
    if (ticks.length > 1 && (last - ticks[ticks.length - 1]) * pixels < gap) ticks.pop();
    ticks.push(last);
  }
  return ticks;
}
function colour(w, max) {
  return w <= 0 || max <= 0 ? '#fff' : 'rgba(200,0,0,' + (0.15 + 0.85 * w / max) + ')';
}
try {
  for (const p of panels) {
    const font = '12px system-ui, "DejaVu Sans", sans-serif';
    // About 480 pixels a side: a bin of cell pixels (a fraction when the bins do not divide 480).
    const cell = 480 / p.bins;
    const size = 480;
    const plot = size;
    const edge = (k) => Math.round(k * cell);
    const left = 96, top = 48, bottom = 86, right = 40;
    const canvas = document.createElement('canvas');
    const ratio = window.devicePixelRatio || 1;
    const width = left + plot + right, height = top + size + bottom;
    canvas.width = width * ratio;
    canvas.height = height * ratio;
    canvas.style.width = width + 'px';
    canvas.style.height = height + 'px';
    const g = canvas.getContext('2d');
    g.scale(ratio, ratio);
    g.font = font;
    const texts = [];
    const text = (t, x, y, align, baseline, kind) => {
      g.textAlign = align;
      g.textBaseline = baseline;
      g.fillStyle = '#1d232a';
      g.fillText(t, x, y);
      const w = g.measureText(t).width;
      const x0 = align === 'center' ? x - w / 2 : align === 'right' ? x - w : x;
      const y0 = baseline === 'middle' ? y - 6 : baseline === 'bottom' ? y - 12 : y;
      texts.push({ text: t, kind: kind, left: x0, top: y0, right: x0 + w, bottom: y0 + 12 });
    };
    g.fillStyle = '#fff';
    g.fillRect(0, 0, width, height);
    for (const [i, j, w] of p.cells) {
      g.fillStyle = colour(w, p.max);
      g.fillRect(left + edge(j), top + edge(i), edge(j + 1) - edge(j), edge(i + 1) - edge(i));
    }
    g.strokeStyle = '#888';
    g.strokeRect(left - 0.5, top - 0.5, size + 1, size + 1);
    // Block axes: a block's tick at the middle of its bin.
    const last = p.blocks - 1;
    const ticks = ticksOf(last, 8, size / Math.max(1, p.blocks), 40);
    const at = (block) => (Math.floor(block / p.per_bin) + 0.5) * cell;
    g.strokeStyle = '#1d232a';
    for (const b of ticks) {
      g.beginPath();
      g.moveTo(left + at(b), top - 4); g.lineTo(left + at(b), top);
      g.moveTo(left - 4, top + at(b)); g.lineTo(left, top + at(b));
      g.stroke();
      text(String(b), left + at(b), top - 6, 'center', 'bottom', 'x-tick');
      text(String(b), left - 6, top + at(b), 'right', 'middle', 'y-tick');
    }
    text('block j', left + size / 2, top - 26, 'center', 'bottom', 'x-title');
    text('block i', left - 44, top + size / 2, 'right', 'middle', 'y-title');
    // The colour scale: white for 0, then the heatmap's red from 1 to the largest cell.
    const barTop = top + size + 28, barWidth = plot, barHeight = 12;
    const gradient = g.createLinearGradient(left, 0, left + barWidth, 0);
    gradient.addColorStop(0, '#fff');
    gradient.addColorStop(0.001, colour(1e-9, 1));
    gradient.addColorStop(1, colour(1, 1));
    g.fillStyle = gradient;
    g.fillRect(left, barTop, barWidth, barHeight);
    g.strokeStyle = '#888';
    g.strokeRect(left - 0.5, barTop - 0.5, barWidth + 1, barHeight + 1);
    const scaleTicks = p.max > 0 ? ticksOf(p.max, 5, barWidth / p.max, 60) : [0];
    for (const v of scaleTicks) {
      const x = left + (p.max > 0 ? v / p.max : 0) * barWidth;
      g.beginPath(); g.moveTo(x, barTop + barHeight); g.lineTo(x, barTop + barHeight + 4); g.stroke();
      text(String(v), x, barTop + barHeight + 6, 'center', 'top', 'scale-tick');
    }
    const unit = /lines/.test(p.title) ? 'lines' : 'elements';
    text('shared ' + unit + ' per block pair' + (p.per_bin > 1 ? ' (sum over a bin)' : ''),
         left, barTop - 4, 'left', 'bottom', 'scale-title');
    const figure = document.createElement('figure');
    const caption = document.createElement('figcaption');
    caption.textContent = p.title + ' (' + p.pattern + '; max ' + p.max +
        (p.per_bin > 1 ? ', bins of ' + p.per_bin + ' blocks' : '') + ')';
    figure.appendChild(caption);
    figure.appendChild(canvas);
    document.getElementById('panels').appendChild(figure);
    status.panels.push({ title: p.title, blocks: p.blocks, bins: p.bins, max: p.max,
                         x_ticks: ticks, y_ticks: ticks, scale_ticks: scaleTicks,
                         width: width, height: height, texts: texts });
  }
  status.done = true;
} catch (error) {
  status.errors.push('render failed: ' + error);
}
document.getElementById('render-status').textContent = JSON.stringify(status);
)js";

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
    entry["blocks"] = blocks;
    data.push_back(std::move(entry));
  }
  // The JSON goes into a <script> element: "</" must not end it early.
  std::string payload = data.dump();
  for (std::size_t at = payload.find("</"); at != std::string::npos; at = payload.find("</", at)) {
    payload.replace(at, 2, "<\\/");
  }
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
         escaped(title) + "</title>\n<style>" + kStyle + "</style></head><body>\n<h1>" +
         escaped(title) +
         "</h1>\n<p class=\"note\">Lower triangle of L(i, j): block i down, block j across "
         "(linear block ids, x fastest); the deeper the red, the more the two blocks share; "
         "white: nothing shared. Grid " +
         std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" + std::to_string(grid.z) +
         ", " + std::to_string(blocks) +
         " blocks.</p>\n<div id=\"panels\"></div>\n<pre id=\"render-status\" hidden></pre>\n"
         "<script>\nconst panels = " +
         payload + ";\n" + kScript + "</script>\n</body></html>\n";
}

}  // namespace memcarlo::locality
