// The pattern registry and the library entry points: option checks common to every pattern,
// default resolution, the canonical command line, and generate(). Adding a pattern: its .cpp
// file, one line in kPatterns below, its declaration in pattern.hpp, one CMake line, tests, docs.
#include <array>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "memcarlo/synth/synth.hpp"
#include "pattern.hpp"
#include "trace_builder.hpp"

namespace memcarlo::synth {
namespace {

using PatternGetter = const PatternDefinition& (*)();

// The registry, in the order `memcarlo synth --help` lists the patterns.
constexpr std::array<PatternGetter, 10> kPatterns = {
    &stream_pattern, &stride_pattern,    &gather_pattern, &reuse_pattern, &spmv_pattern,
    &matmul_pattern, &stencil2d_pattern, &chain_pattern,  &rows_pattern,  &syrk_pattern,
};

constexpr std::uint32_t kMaxThreads = 1024;
constexpr std::uint32_t kMaxBlocks = std::uint32_t{1} << 24;
constexpr std::uint32_t kMaxIterations = std::uint32_t{1} << 24;
constexpr std::uint32_t kMaxNnzPerRow = std::uint32_t{1} << 16;
constexpr std::uint32_t kMaxSize = std::uint32_t{1} << 16;

using Json = nlohmann::ordered_json;

struct OptionName {
  std::uint32_t bit;
  const char* flag;                    // as spelled on the command line
  const char* key;                     // in properties.parameters
  Json (*value)(const Parameters& p);  // its resolved value
};
std::string chain_text(const std::vector<std::int64_t>& chain) {
  std::string text;
  for (const std::int64_t stride : chain) {
    text += (text.empty() ? "" : ",") + std::to_string(stride);
  }
  return text;
}

constexpr std::array<OptionName, 9> kOptionNames = {{
    {kUsesIterations, "--iterations", "iterations",
     [](const Parameters& p) { return Json(p.iterations); }},
    {kUsesStride, "--stride", "stride", [](const Parameters& p) { return Json(p.stride); }},
    {kUsesFootprint, "--footprint", "footprint",
     [](const Parameters& p) { return Json(p.footprint); }},
    {kUsesNnzPerRow, "--nnz-per-row", "nnz_per_row",
     [](const Parameters& p) { return Json(p.nnz_per_row); }},
    {kUsesMatrix, "--matrix", "matrix",
     [](const Parameters& p) { return Json(std::string(to_string(p.matrix))); }},
    {kUsesSize, "--size", "size", [](const Parameters& p) { return Json(p.size); }},
    {kUsesBlockWidth, "--block-width", "block_width",
     [](const Parameters& p) { return Json(p.block_width); }},
    {kUsesChain, "--chain", "chain", [](const Parameters& p) { return Json(chain_text(p.chain)); }},
    {kUsesLoopStride, "--loop-stride", "loop_stride",
     [](const Parameters& p) { return Json(p.loop_stride); }},
}};

std::string pattern_names() {
  std::string names;
  for (PatternGetter get : kPatterns) {
    names += (names.empty() ? "" : ", ") + std::string(get().info.name);
  }
  return names;
}

const PatternDefinition& find_pattern(const std::string& name) {
  if (name.empty()) {
    throw OptionError("--pattern is required; allowed patterns: " + pattern_names());
  }
  for (PatternGetter get : kPatterns) {
    if (get().info.name == name) {
      return get();
    }
  }
  throw OptionError("unknown pattern '" + name + "'; allowed patterns: " + pattern_names());
}

std::string flags_of(std::uint32_t bits) {
  std::string flags;
  for (const OptionName& option : kOptionNames) {
    if ((bits & option.bit) != 0) {
      flags += (flags.empty() ? "" : ", ") + std::string(option.flag);
    }
  }
  return flags.empty() ? "no pattern-specific options" : flags;
}

void require_range(std::uint64_t value, std::uint64_t low, std::uint64_t high, const char* flag) {
  if (value < low || value > high) {
    throw OptionError(std::string(flag) + " must be between " + std::to_string(low) + " and " +
                      std::to_string(high) + ", got " + std::to_string(value));
  }
}

/// Options with every default applied and every value checked.
Parameters resolve(const SynthOptions& options, const PatternDefinition*& definition) {
  definition = &find_pattern(options.pattern);
  const std::uint32_t given =
      (options.iterations ? kUsesIterations : 0u) | (options.stride ? kUsesStride : 0u) |
      (options.footprint ? kUsesFootprint : 0u) | (options.nnz_per_row ? kUsesNnzPerRow : 0u) |
      (options.matrix ? kUsesMatrix : 0u) | (options.size ? kUsesSize : 0u) |
      (options.block_width ? kUsesBlockWidth : 0u) | (options.chain ? kUsesChain : 0u) |
      (options.loop_stride ? kUsesLoopStride : 0u);
  for (const OptionName& option : kOptionNames) {
    if ((given & option.bit) != 0 && (definition->options & option.bit) == 0) {
      throw OptionError(std::string(option.flag) + " does not apply to pattern '" +
                        options.pattern + "' (it takes " + flags_of(definition->options) + ")");
    }
  }

  Parameters p = definition->defaults;
  p.pattern = options.pattern;
  require_range(options.threads, 1, kMaxThreads, "--threads");
  p.threads = options.threads;
  if (options.element_size != 1 && options.element_size != 2 && options.element_size != 4 &&
      options.element_size != 8 && options.element_size != 16) {
    throw OptionError("--elem-size must be one of 1, 2, 4, 8, 16 (bytes), got " +
                      std::to_string(options.element_size));
  }
  p.element_size = options.element_size;
  p.seed = options.seed;
  if (options.blocks) {
    require_range(*options.blocks, 1, kMaxBlocks, "--blocks");
    p.blocks = *options.blocks;
  }
  if (options.iterations) {
    require_range(*options.iterations, 1, kMaxIterations, "--iterations");
    p.iterations = *options.iterations;
  }
  if (options.stride) {
    require_range(*options.stride, 1, std::uint32_t{1} << 30, "--stride");
    p.stride = *options.stride;
  }
  if (options.footprint) {
    if (*options.footprint < p.element_size) {
      throw OptionError("--footprint must be at least the element size (" +
                        std::to_string(p.element_size) + " bytes), got " +
                        std::to_string(*options.footprint));
    }
    check_array_size(*options.footprint, "the array", "--footprint");
    p.footprint = *options.footprint;
  }
  if (options.nnz_per_row) {
    require_range(*options.nnz_per_row, 1, kMaxNnzPerRow, "--nnz-per-row");
    p.nnz_per_row = *options.nnz_per_row;
  }
  if (options.matrix) {
    p.matrix = *options.matrix;
  }
  if (options.size) {
    require_range(*options.size, 1, kMaxSize, "--size");
    p.size = *options.size;
  }
  if (options.block_width) {
    require_range(*options.block_width, 1, kMaxThreads, "--block-width");
    p.block_width = *options.block_width;
  }
  if (options.chain) {
    p.chain = *options.chain;
  }
  if (options.loop_stride) {
    require_range(*options.loop_stride, 0, std::uint64_t{1} << 30, "--loop-stride");
    p.loop_stride = *options.loop_stride;
  }
  definition->resolve(p);
  return p;
}

/// The resolved options in command-line order: the common ones, then those the pattern uses.
std::vector<std::pair<const OptionName*, Json>> resolved_options(const Parameters& p,
                                                                 const PatternDefinition& pattern) {
  static constexpr OptionName kBlocks = {0, "--blocks", "blocks", nullptr};
  static constexpr OptionName kThreads = {0, "--threads", "threads", nullptr};
  static constexpr OptionName kElementSize = {0, "--elem-size", "elem_size", nullptr};
  static constexpr OptionName kSeed = {0, "--seed", "seed", nullptr};
  std::vector<std::pair<const OptionName*, Json>> options = {{&kBlocks, p.blocks},
                                                             {&kThreads, p.threads},
                                                             {&kElementSize, p.element_size},
                                                             {&kSeed, p.seed}};
  for (const OptionName& option : kOptionNames) {
    if ((pattern.options & option.bit) != 0) {
      options.emplace_back(&option, option.value(p));
    }
  }
  return options;
}

std::string command_line(const Parameters& p, const PatternDefinition& pattern) {
  std::string line = "memcarlo synth --pattern " + p.pattern;
  for (const auto& [option, value] : resolved_options(p, pattern)) {
    line += std::string(" ") + option->flag + " " +
            (value.is_string() ? value.get<std::string>() : value.dump());
  }
  return line;
}

std::string parameters_json(const Parameters& p, const PatternDefinition& pattern) {
  Json parameters = Json::object();
  for (const auto& [option, value] : resolved_options(p, pattern)) {
    parameters[option->key] = value;
  }
  return parameters.dump();
}

}  // namespace

std::string_view to_string(MatrixLayout layout) {
  return layout == MatrixLayout::kBlockDiagonal ? "block-diagonal" : "random";
}

std::optional<MatrixLayout> matrix_layout_from_string(std::string_view text) {
  if (text == "random") {
    return MatrixLayout::kRandom;
  }
  if (text == "block-diagonal") {
    return MatrixLayout::kBlockDiagonal;
  }
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> parse_chain(std::string_view text) {
  std::vector<std::int64_t> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item(text.substr(at, comma - at));
    std::size_t used = 0;
    try {
      out.push_back(std::stoll(item, &used));
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (used != item.size()) {
      return std::nullopt;
    }
    at = comma + 1;
  }
  return out;
}

std::span<const PatternInfo> patterns() {
  static const std::array<PatternInfo, kPatterns.size()> infos = [] {
    std::array<PatternInfo, kPatterns.size()> result;
    for (std::size_t i = 0; i < kPatterns.size(); ++i) {
      result[i] = kPatterns[i]().info;
    }
    return result;
  }();
  return infos;
}

std::uint64_t checked_multiply(std::uint64_t a, std::uint64_t b, const char* what) {
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    throw OptionError(std::string(what) + " overflows 64 bits; reduce the options that size it");
  }
  return product;
}

void check_array_size(std::uint64_t bytes, const char* array, const char* sized_by) {
  if (bytes > kMaxArrayBytes) {
    throw OptionError(std::string(array) + " would need " + std::to_string(bytes) +
                      " bytes, more than the 1 TiB a synthetic array may have; reduce " + sized_by);
  }
}

void validate(const SynthOptions& options) {
  const PatternDefinition* definition = nullptr;
  resolve(options, definition);
}

std::string canonical_command(const SynthOptions& options) {
  const PatternDefinition* definition = nullptr;
  const Parameters p = resolve(options, definition);
  return command_line(p, *definition);
}

SynthSummary generate(const SynthOptions& options, const std::string& output_path) {
  const PatternDefinition* definition = nullptr;
  const Parameters p = resolve(options, definition);
  TraceBuilder trace(output_path, p.pattern, command_line(p, *definition),
                     parameters_json(p, *definition));
  definition->generate(p, trace);
  return trace.finish();
}

}  // namespace memcarlo::synth
