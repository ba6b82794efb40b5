// A minimal PNG reader for the browser test's screenshots: 8-bit RGB or RGBA, not interlaced (what
// Chromium writes), decoded with zlib; and the figures that tell a drawn page from a blank one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace memcarlo::test_support {

struct PngImage {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint32_t> pixels;  // 0xRRGGBB, row by row
};

/// Throws std::runtime_error naming what is wrong (not a PNG, a layout it does not read, ...).
PngImage read_png(const std::string& path);

struct ImageFigures {
  std::size_t distinct_colours = 0;
  double non_white_share = 0;       // of the pixels
  std::size_t coloured_pixels = 0;  // clearly not grey: max channel - min channel > 60
};

ImageFigures image_figures(const PngImage& image);

}  // namespace memcarlo::test_support
