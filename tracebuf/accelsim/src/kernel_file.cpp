// kernelslist.g resolution and .traceg header parsing. Header keys follow Accel-Sim's tracer
// (tracer versions 2 to 5); unknown keys are kept verbatim and otherwise ignored, as Accel-Sim
// does.
#include "kernel_file.hpp"

#include <charconv>
#include <filesystem>

namespace memcarlo::accelsim::detail {
namespace {

namespace fs = std::filesystem;

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool is_raw_trace(std::string_view name) {
  return ends_with(name, ".trace") || ends_with(name, ".trace.xz");
}

const char* const kRawTraceAdvice =
    "is raw NVBit tracer output (.trace); run Accel-Sim's post-traces-processing on it first and "
    "import the kernelslist.g it writes (with kernel-N.traceg files)";

template <class T>
std::optional<T> to_number(std::string_view text, int base = 10) {
  text = trim(text);
  if (base == 16 && text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
  }
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

/// "(x,y,z)", spaces allowed; all three at least 1.
std::optional<tracebuf::Dim3> to_dim3(std::string_view text) {
  text = trim(text);
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
    return std::nullopt;
  }
  text = text.substr(1, text.size() - 2);
  std::uint32_t parts[3];
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = i < 2 ? text.find(',') : text.size();
    if (comma == std::string_view::npos) {
      return std::nullopt;
    }
    const auto value = to_number<std::uint32_t>(text.substr(0, comma));
    if (!value || *value == 0) {
      return std::nullopt;
    }
    parts[i] = *value;
    text = i < 2 ? text.substr(comma + 1) : std::string_view{};
  }
  return tracebuf::Dim3{parts[0], parts[1], parts[2]};
}

}  // namespace

std::vector<KernelFile> resolve_kernel_files(const std::string& input, ImportStats& stats) {
  std::error_code error;
  if (!fs::exists(input, error)) {
    throw ImportError(input, 0, "no such file or directory");
  }
  std::string list_path = input;
  if (fs::is_directory(input, error)) {
    list_path = (fs::path(input) / "kernelslist.g").string();
    if (!fs::exists(list_path, error)) {
      throw ImportError(input, 0, "directory without a kernelslist.g");
    }
  } else if (ends_with(input, ".traceg") || ends_with(input, ".traceg.xz")) {
    return {KernelFile{input, {}, 0}};
  } else if (is_raw_trace(input)) {
    throw ImportError(input, 0, kRawTraceAdvice);
  }

  const fs::path directory = fs::path(list_path).parent_path();
  std::vector<KernelFile> files;
  LineSource source(list_path);
  std::string_view line;
  while (source.next(line)) {
    line = trim(line);
    if (line.empty() || line.front() == '#') {
      continue;
    }
    if (line.starts_with("Memcpy") || line.starts_with("memcpy")) {
      ++stats.memcpy_lines;  // "MemcpyHtoD,<address>,<bytes>": memcarlo traces carry no copies
      continue;
    }
    if (is_raw_trace(line)) {
      source.fail(std::string(line) + " " + kRawTraceAdvice);
    }
    fs::path path = fs::path(std::string(line));
    if (path.is_relative()) {
      path = directory / path;
    }
    if (!fs::exists(path, error)) {
      const fs::path compressed = path.string() + ".xz";
      if (!fs::exists(compressed, error)) {
        source.fail("kernel trace " + path.string() + " not found");
      }
      path = compressed;
    }
    files.push_back(KernelFile{path.string(), list_path, source.line_number()});
  }
  if (files.empty()) {
    throw ImportError(list_path, 0, "lists no kernel trace files");
  }
  if (stats.memcpy_lines > 0) {
    stats.notes.push_back(list_path + ": " + std::to_string(stats.memcpy_lines) +
                          " memcpy line(s) ignored (memcarlo traces do not model host-device "
                          "copies)");
  }
  return files;
}

KernelHeader read_header(LineSource& source, std::string_view& first_body_line) {
  KernelHeader header;
  bool have_name = false, have_grid = false, have_block = false, have_line_info = false;
  bool format_mentions_line_info = false;
  std::string_view line;
  first_body_line = {};
  while (source.next(line)) {
    const std::string_view text = trim(line);
    if (text.empty()) {
      continue;
    }
    if (text.starts_with("#traces format")) {
      format_mentions_line_info = text.find("line_num") != std::string_view::npos;
      continue;
    }
    if (text.front() != '-') {
      first_body_line = line;
      break;
    }
    const std::size_t equals = text.find('=');
    if (equals == std::string_view::npos) {
      source.fail("header line without '=': expected '-key = value'");
    }
    const std::string key(trim(text.substr(1, equals - 1)));
    const std::string_view value = trim(text.substr(equals + 1));
    header.fields.emplace_back(key, std::string(value));
    auto bad = [&](const char* expected) {
      source.fail("header '-" + key + "': expected " + expected + ", got '" + std::string(value) +
                  "'");
    };
    auto number = [&](auto& out, int base = 10) {
      using T = std::remove_reference_t<decltype(out)>;
      const auto parsed = to_number<T>(value, base);
      if (!parsed) {
        bad(base == 16 ? "a hexadecimal number" : "a decimal number");
      }
      out = *parsed;
    };
    if (key == "kernel name") {
      header.kernel_name = std::string(value);
      have_name = true;
    } else if (key == "grid dim" || key == "block dim") {
      const auto dim = to_dim3(value);
      if (!dim) {
        bad("(x,y,z) with positive integers");
      }
      (key == "grid dim" ? header.grid : header.block) = *dim;
      (key == "grid dim" ? have_grid : have_block) = true;
    } else if (key == "shmem") {
      number(header.shared_bytes);
    } else if (key == "nregs") {
      number(header.registers);
    } else if (key == "kernel id") {
      std::uint64_t id = 0;
      number(id);
      header.kernel_id = id;
    } else if (key == "accelsim tracer version") {
      std::uint32_t version = 0;
      number(version);
      header.tracer_version = version;
    } else if (key == "enable lineinfo") {
      std::uint32_t enabled = 0;
      number(enabled);
      header.layout.line_info = enabled != 0;
      have_line_info = true;
    } else if (key == "shmem base_addr") {
      number(header.shared_window_base, 16);
    } else if (key == "local mem base_addr") {
      number(header.local_window_base, 16);
    } else if (key == "memcarlo rmw pcs") {
      for (std::string_view rest = value; !trim(rest).empty();) {
        const std::size_t comma = rest.find(',');
        std::uint64_t pc = 0;
        const auto parsed = to_number<std::uint64_t>(rest.substr(0, comma), 16);
        if (!parsed) {
          bad("a comma-separated list of hexadecimal PCs");
        }
        pc = *parsed;
        header.rmw_pcs.push_back(pc);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      }
    }
  }
  if (!have_line_info) {
    header.layout.line_info = format_mentions_line_info;
  }
  header.layout.block_prefix = header.tracer_version && *header.tracer_version < 3;
  const char* missing = !have_name    ? "-kernel name"
                        : !have_grid  ? "-grid dim"
                        : !have_block ? "-block dim"
                                      : nullptr;
  if (missing != nullptr) {
    throw ImportError(source.path(), 0,
                      std::string("the kernel header has no '") + missing + " = ...' line");
  }
  return header;
}

std::uint64_t count_blocks(LineSource& source, std::string_view first_body_line,
                           const std::function<void()>& progress) {
  std::uint64_t blocks = first_body_line.starts_with("#BEGIN_TB") ? 1 : 0;
  std::string_view line;
  std::uint64_t lines = 0;
  while (source.next(line)) {
    if (line.starts_with("#BEGIN_TB")) {
      ++blocks;
    }
    if ((++lines & 0xFFFF) == 0) {
      progress();
    }
  }
  return blocks;
}

}  // namespace memcarlo::accelsim::detail
