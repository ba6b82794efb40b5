// PNG decoding for the browser test (see png_image.hpp); the format is RFC 2083 / ISO 15948.
#include "browser/png_image.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <unordered_set>

namespace memcarlo::test_support {
namespace {

std::uint32_t big_endian(const unsigned char* bytes) {
  return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
         (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]};
}

/// The Paeth predictor of the PNG filter type 4.
unsigned char paeth(int left, int up, int up_left) {
  const int estimate = left + up - up_left;
  const int to_left = std::abs(estimate - left);
  const int to_up = std::abs(estimate - up);
  const int to_up_left = std::abs(estimate - up_left);
  if (to_left <= to_up && to_left <= to_up_left) {
    return static_cast<unsigned char>(left);
  }
  return static_cast<unsigned char>(to_up <= to_up_left ? up : up_left);
}

}  // namespace

PngImage read_png(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  constexpr std::array<unsigned char, 8> kSignature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (file.size() < 8 || !std::equal(kSignature.begin(), kSignature.end(), file.begin())) {
    throw std::runtime_error(path + ": not a PNG file");
  }
  PngImage image;
  unsigned channels = 0;
  std::vector<unsigned char> compressed;
  for (std::size_t at = 8; at + 12 <= file.size();) {
    const std::uint32_t length = big_endian(&file[at]);
    const std::string type(reinterpret_cast<const char*>(&file[at + 4]), 4);
    if (at + 12 + length > file.size()) {
      throw std::runtime_error(path + ": chunk " + type + " runs past the end of the file");
    }
    const unsigned char* data = &file[at + 8];
    if (type == "IHDR") {
      image.width = big_endian(data);
      image.height = big_endian(data + 4);
      const unsigned bit_depth = data[8];
      const unsigned colour_type = data[9];
      const unsigned interlace = data[12];
      channels = colour_type == 2 ? 3 : colour_type == 6 ? 4 : 0;
      if (bit_depth != 8 || channels == 0 || interlace != 0) {
        throw std::runtime_error(path + ": only 8-bit RGB or RGBA without interlacing is read");
      }
    } else if (type == "IDAT") {
      compressed.insert(compressed.end(), data, data + length);
    } else if (type == "IEND") {
      break;
    }
    at += 12 + length;
  }
  if (channels == 0) {
    throw std::runtime_error(path + ": no IHDR chunk");
  }
  const std::size_t stride = std::size_t{image.width} * channels;
  std::vector<unsigned char> raw((stride + 1) * image.height);
  uLongf raw_size = static_cast<uLongf>(raw.size());
  if (::uncompress(raw.data(), &raw_size, compressed.data(),
                   static_cast<uLong>(compressed.size())) != Z_OK ||
      raw_size != raw.size()) {
    throw std::runtime_error(path + ": the image data does not inflate to its size");
  }
  // Undo each row's filter in place (filters work on bytes, `channels` bytes to a pixel).
  std::vector<unsigned char> previous(stride, 0);
  image.pixels.resize(std::size_t{image.width} * image.height);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    unsigned char* row = &raw[y * (stride + 1) + 1];
    const unsigned filter = row[-1];
    for (std::size_t x = 0; x < stride; ++x) {
      const int left = x >= channels ? row[x - channels] : 0;
      const int up = previous[x];
      const int up_left = x >= channels ? previous[x - channels] : 0;
      int predicted = 0;
      switch (filter) {
        case 0:
          break;
        case 1:
          predicted = left;
          break;
        case 2:
          predicted = up;
          break;
        case 3:
          predicted = (left + up) / 2;
          break;
        case 4:
          predicted = paeth(left, up, up_left);
          break;
        default:
          throw std::runtime_error(path + ": unknown row filter " + std::to_string(filter));
      }
      row[x] = static_cast<unsigned char>(row[x] + predicted);
    }
    std::copy(row, row + stride, previous.begin());
    for (std::uint32_t x = 0; x < image.width; ++x) {
      const unsigned char* pixel = row + std::size_t{x} * channels;
      image.pixels[std::size_t{y} * image.width + x] =
          (std::uint32_t{pixel[0]} << 16) | (std::uint32_t{pixel[1]} << 8) | pixel[2];
    }
  }
  return image;
}

ImageFigures image_figures(const PngImage& image) {
  ImageFigures figures;
  std::unordered_set<std::uint32_t> colours;
  std::size_t non_white = 0;
  for (const std::uint32_t pixel : image.pixels) {
    colours.insert(pixel);
    const int r = static_cast<int>((pixel >> 16) & 255);
    const int g = static_cast<int>((pixel >> 8) & 255);
    const int b = static_cast<int>(pixel & 255);
    non_white += (r < 245 || g < 245 || b < 245) ? 1 : 0;
    figures.coloured_pixels += std::max({r, g, b}) - std::min({r, g, b}) > 60 ? 1 : 0;
  }
  figures.distinct_colours = colours.size();
  figures.non_white_share = image.pixels.empty() ? 0.0
                                                 : static_cast<double>(non_white) /
                                                       static_cast<double>(image.pixels.size());
  return figures;
}

}  // namespace memcarlo::test_support
