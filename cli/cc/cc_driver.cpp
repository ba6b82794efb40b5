// memcarlo-cc's build steps: instrument, compile per backend, fall back to the original source
// when instrumentation fails, collect kernel resources from nvcc, link with the runtime.
#include "cc_driver.hpp"

#include <cxxabi.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string_view>

#include "../process.hpp"
#include "cc_config.hpp"

namespace memcarlo::cli::cc {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ';')) {
    if (!item.empty()) {
      out.push_back(item);
    }
  }
  return out;
}

void append(std::vector<std::string>& to, const std::vector<std::string>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

/// Runs a command, capturing its combined output into `output`.
int run_capture(const std::vector<std::string>& argv, std::string& output, bool verbose) {
  if (verbose) {
    std::cerr << "memcarlo-cc: " << quote_command(argv) << "\n";
  }
  const std::string command = quote_command(argv) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    output = "cannot run " + argv.front();
    return 127;
  }
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    output.append(buffer, n);
  }
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int run_visible(const std::vector<std::string>& argv, bool verbose) {
  if (verbose) {
    std::cerr << "memcarlo-cc: " << quote_command(argv) << "\n";
  }
  const ProcessResult result = run_process(argv);
  if (!result.started) {
    std::cerr << "memcarlo-cc: error: " << result.error << "\n";
    return 127;
  }
  return result.shell_status();
}

/// The file of the rewritten tree that is `source` (mirrored relative to a common directory).
std::string find_mirrored(const fs::path& tree, const fs::path& source) {
  const fs::path absolute = fs::absolute(source).lexically_normal();
  std::vector<fs::path> parts(absolute.begin(), absolute.end());
  for (std::size_t first = 1; first < parts.size(); ++first) {
    fs::path suffix;
    for (std::size_t i = first; i < parts.size(); ++i) {
      suffix /= parts[i];
    }
    if (fs::exists(tree / suffix)) {
      return (tree / suffix).string();  // the longest suffix that exists
    }
  }
  return {};
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  return line.size() > 300 ? line.substr(0, 300) + "..." : line;
}

class Driver {
 public:
  Driver(const CcInvocation& invocation, const DriverOptions& options)
      : in_(invocation), options_(options) {}

  int run() {
    if (in_.inputs.empty()) {
      std::cerr << "memcarlo-cc: error: no input files\n";
      return 1;
    }
    char pattern[] = "/tmp/memcarlo-cc-XXXXXX";
    if (const char* dir = ::mkdtemp(pattern)) {
      temp_ = dir;
    } else {
      std::cerr << "memcarlo-cc: error: cannot create a temporary directory\n";
      return 1;
    }
    const int status = build();
    if (!options_.keep_temporaries) {
      std::error_code ignored;
      fs::remove_all(temp_, ignored);
    } else {
      std::cerr << "memcarlo-cc: kept temporaries in " << temp_ << "\n";
    }
    return status;
  }

 private:
  bool host() const { return options_.backend == Backend::kHost; }

  int build() {
    if (in_.compile_only && !in_.output.empty() && sources() > 1) {
      std::cerr << "memcarlo-cc: error: -o with -c and several sources\n";
      return 1;
    }
    if (host() && options_.verbose) {
      for (const auto& note : in_.notes) {
        std::cerr << "memcarlo-cc: note: " << note << "\n";
      }
    }
    std::vector<std::string> objects;
    std::string resources;
    int unit = 0;
    for (const Input& input : in_.inputs) {
      if (input.kind == InputKind::kObject) {
        objects.push_back(input.path);
        merge_resources(resources, read_resources(input.path));
        continue;
      }
      const std::string object =
          in_.compile_only ? (in_.output.empty() ? default_object_name(input.path) : in_.output)
                           : (fs::path(temp_) / ("unit" + std::to_string(unit) + ".o")).string();
      ++unit;
      const int status = input.kind == InputKind::kCuda ? compile_cuda(input.path, object, unit)
                                                        : compile_plain(input, object);
      if (status != 0) {
        return status;
      }
      if (input.kind == InputKind::kCuda && options_.resources && !options_.nvcc.empty()) {
        const std::string found = resource_usage(input.path);
        merge_resources(resources, found);
        if (in_.compile_only && !found.empty()) {
          std::ofstream(object + ".memcarlo-resources") << found << "\n";
        }
      }
      objects.push_back(object);
    }
    if (in_.compile_only) {
      return 0;
    }
    const std::string output = in_.output.empty() ? "a.out" : in_.output;
    const int status = link(objects, output);
    if (status == 0 && !resources.empty()) {
      std::ofstream(output + ".memcarlo-resources") << resources << "\n";
    }
    return status;
  }

  std::size_t sources() const {
    std::size_t n = 0;
    for (const Input& input : in_.inputs) {
      n += input.kind == InputKind::kObject ? 0 : 1;
    }
    return n;
  }

  std::vector<std::string> user_flags() const {
    std::vector<std::string> flags = in_.preprocessor;
    append(flags, in_.optimization);
    append(flags, in_.host_compiler_flags);
    return flags;
  }

  std::string standard() const {
    // The emulation needs C++20; a newer standard the user asks for is kept.
    if (host()) {
      const std::string& s = in_.standard;
      return s == "c++23" || s == "c++2b" || s == "gnu++23" ? "-std=" + s : "-std=c++20";
    }
    return in_.standard.empty() ? "" : "-std=" + in_.standard;
  }

  /// Instruments `source` into its own tree; returns the rewritten main file or "" on failure.
  std::string instrument(const std::string& source, int unit) {
    if (options_.instrument_tool.empty()) {
      std::cerr << "memcarlo-cc: warning: " << source
                << ": memcarlo-instrument is not available in this build; compiling it "
                   "without probes\n";
      return {};
    }
    const fs::path tree = fs::path(temp_) / ("tree" + std::to_string(unit));
    std::vector<std::string> argv = {options_.instrument_tool, source, "--output-dir",
                                     tree.string(), "--backend", host() ? "host" : "cuda", "--"};
    append(argv, in_.preprocessor);
    if (!in_.standard.empty()) {
      argv.push_back("-std=" + in_.standard);
    }
    append(argv, in_.gpu);
    std::string output;
    const int status = run_capture(argv, output, options_.verbose);
    if (status != 0) {
      std::cerr << "memcarlo-cc: warning: could not instrument " << source << " (exit "
                << status << "): " << first_line(output)
                << "\nmemcarlo-cc: warning: compiling " << source
                << " as written: its accesses will not be traced\n";
      if (options_.verbose) {
        std::cerr << output;
      }
      return {};
    }
    if (options_.verbose) {
      std::cerr << output;
    }
    const std::string main = find_mirrored(tree, source);
    if (main.empty()) {
      std::cerr << "memcarlo-cc: warning: memcarlo-instrument wrote no file for " << source
                << "; compiling it as written\n";
    }
    return main;
  }

  int compile_cuda(const std::string& source, const std::string& object, int unit) {
    const std::string rewritten = instrument(source, unit);
    const std::string original_dir = fs::absolute(source).parent_path().string();
    if (host()) {
      std::vector<std::string> argv = {options_.host_compiler};
      append(argv, split_list(config::kHostCompileFlags));
      argv.push_back(standard());
      argv.push_back("-iquote");
      argv.push_back(original_dir);
      // nvcc optimizes device code whatever -O says (only -G turns that off), and here the device
      // code runs on the CPU: without an -O of the user's, emulate at -O2 rather than GCC's -O0.
      const bool has_level = std::any_of(in_.optimization.begin(), in_.optimization.end(),
                                         [](const std::string& f) { return f.rfind("-O", 0) == 0; });
      if (!has_level) {
        argv.push_back("-O2");
      }
      append(argv, user_flags());
      argv.insert(argv.end(), {"-c", rewritten.empty() ? source : rewritten, "-o", object});
      const int status = run_visible(argv, options_.verbose);
      if (status != 0 && rewritten.empty()) {
        std::cerr << "memcarlo-cc: error: " << source
                  << " could not be instrumented, and the host backend cannot compile it as "
                     "written (kernel launches <<<...>>> and extern __shared__ need the "
                     "instrumenter's rewrite). Build with --backend cuda, or see the warning "
                     "above for what the instrumenter could not handle\n";
      } else if (status != 0) {
        std::cerr << "memcarlo-cc: error: the host backend could not compile the instrumented "
                  << source
                  << " (compiler messages above point at the original lines). The CPU emulation "
                     "provides the CUDA runtime API, not the CUDA libraries (Thrust, CUB, cuBLAS, "
                     "cuRAND, ...) nor toolkit-only headers; build such programs with --backend "
                     "cuda\n";
      }
      return status;
    }
    std::vector<std::string> argv = {options_.nvcc};
    append(argv, split_list(config::kCudaCompileFlags));
    if (!standard().empty()) {
      argv.push_back(standard());
    }
    argv.push_back("-I" + original_dir);
    append(argv, in_.preprocessor);
    append(argv, in_.optimization);
    for (const std::string& flag : in_.host_compiler_flags) {
      argv.push_back("-Xcompiler=" + flag);
    }
    append(argv, in_.gpu);
    append(argv, in_.cuda_only);
    argv.insert(argv.end(), {"-c", rewritten.empty() ? source : rewritten, "-o", object});
    return run_visible(argv, options_.verbose);
  }

  int compile_plain(const Input& input, const std::string& object) {
    std::vector<std::string> argv;
    if (host()) {
      argv.push_back(input.kind == InputKind::kC ? "cc" : options_.host_compiler);
      if (input.kind != InputKind::kC) {
        // C++ host code sees the CUDA runtime API of the emulation through <cuda_runtime.h>.
        for (const std::string& flag : split_list(config::kHostCompileFlags)) {
          if (flag.rfind("-I", 0) == 0 || flag.rfind("-D", 0) == 0) {
            argv.push_back(flag);
          }
        }
        argv.push_back(standard());
      }
      append(argv, user_flags());
    } else {
      argv.push_back(options_.nvcc);
      append(argv, in_.preprocessor);
      append(argv, in_.optimization);
      if (!standard().empty()) {
        argv.push_back(standard());
      }
      for (const std::string& flag : in_.host_compiler_flags) {
        argv.push_back("-Xcompiler=" + flag);
      }
    }
    argv.insert(argv.end(), {"-c", input.path, "-o", object});
    return run_visible(argv, options_.verbose);
  }

  int link(const std::vector<std::string>& objects, const std::string& output) {
    std::vector<std::string> argv;
    if (host()) {
      argv.push_back(options_.host_compiler);
      append(argv, objects);
      append(argv, in_.linker);
      append(argv, split_list(config::kHostLinkInputs));
      for (const std::string& flag : in_.host_compiler_flags) {
        if (flag.rfind("-fsanitize", 0) == 0 || flag == "-pthread" || flag == "-shared") {
          argv.push_back(flag);
        }
      }
    } else {
      argv.push_back(options_.nvcc);
      argv.push_back("-rdc=true");
      append(argv, in_.gpu);
      append(argv, objects);
      append(argv, in_.linker);
      append(argv, split_list(config::kCudaLinkInputs));
    }
    argv.insert(argv.end(), {"-o", output});
    return run_visible(argv, options_.verbose);
  }

  std::string resource_usage(const std::string& source) {
    std::vector<std::string> argv = {options_.nvcc, "--resource-usage", "-c", source, "-o",
                                     (fs::path(temp_) / "resources.o").string(),
                                     "-Wno-deprecated-gpu-targets"};
    append(argv, in_.preprocessor);
    if (!in_.standard.empty()) {
      argv.push_back("-std=" + in_.standard);
    }
    append(argv, in_.gpu);
    std::string output;
    if (run_capture(argv, output, options_.verbose) != 0) {
      if (options_.verbose) {
        std::cerr << "memcarlo-cc: note: nvcc --resource-usage failed for " << source
                  << "; the runtime will assume its default registers per thread\n";
      }
      return {};
    }
    return parse_resource_usage(output);
  }

  static std::string read_resources(const std::string& object) {
    std::ifstream in(object + ".memcarlo-resources");
    std::string line;
    std::getline(in, line);
    return line;
  }

  static void merge_resources(std::string& into, const std::string& more) {
    if (more.empty()) {
      return;
    }
    into += (into.empty() ? "" : ",") + more;
  }

  const CcInvocation& in_;
  DriverOptions options_;
  std::string temp_;
};

}  // namespace

DriverOptions default_driver_options() {
  DriverOptions options;
  options.host_compiler = config::kHostCompiler;
  options.instrument_tool = config::kInstrumentTool;
  if (!options.instrument_tool.empty() && !fs::exists(options.instrument_tool)) {
    options.instrument_tool.clear();
  }
  options.nvcc = config::kNvcc;
  if (!options.nvcc.empty() && !fs::exists(options.nvcc)) {
    options.nvcc.clear();
  }
  return options;
}

Backend default_backend() {
  const bool gpu = fs::exists("/dev/nvidia0") || fs::exists("/dev/nvidiactl");
  const bool runtime = std::string(config::kCudaLinkInputs).size() > 0;
  return gpu && runtime ? Backend::kCuda : Backend::kHost;
}

int run_driver(const CcInvocation& invocation, const DriverOptions& options) {
  return Driver(invocation, options).run();
}

std::string parse_resource_usage(const std::string& ptxas_output) {
  // ptxas info    : Function properties for _Z4spmvPKfPf
  // ptxas info    : Used 18 registers, 2048 bytes smem, 376 bytes cmem[0]
  // std::regex is avoided on purpose: GCC 12 reports false maybe-uninitialized warnings inside
  // <regex> under -fsanitize, which -Werror turns into a failed build.
  std::map<std::string, std::pair<unsigned, unsigned>> kernels;
  std::string current;
  std::istringstream lines(ptxas_output);
  std::string line;
  const auto number_before = [](const std::string& text, std::size_t end, unsigned& value) {
    std::size_t begin = end;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(text[begin - 1])) != 0) {
      --begin;
    }
    if (begin == end) {
      return false;
    }
    value = static_cast<unsigned>(std::stoul(text.substr(begin, end - begin)));
    return true;
  };
  while (std::getline(lines, line)) {
    static constexpr std::string_view kFunction = "Function properties for ";
    if (const auto at = line.find(kFunction); at != std::string::npos) {
      const auto begin = at + kFunction.size();
      const auto end = line.find_first_of(" \t\r", begin);
      current = line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
      continue;
    }
    const auto used = line.find("Used ");
    const auto reg = line.find(" registers", used == std::string::npos ? 0 : used);
    unsigned registers = 0;
    if (current.empty() || used == std::string::npos || reg == std::string::npos ||
        !number_before(line, reg, registers)) {
      continue;
    }
    {
      unsigned shared = 0;
      if (const auto smem = line.find(" bytes smem", reg); smem != std::string::npos) {
        number_before(line, smem, shared);
      }
      int status = 0;
      std::unique_ptr<char, decltype(&std::free)> demangled(
          abi::__cxa_demangle(current.c_str(), nullptr, nullptr, &status), &std::free);
      std::string name = status == 0 && demangled ? demangled.get() : current;
      // "void kernel<float>(float*, int)" -> "kernel<float>"
      const auto paren = name.find('(');
      if (paren != std::string::npos) {
        name = name.substr(0, paren);
      }
      int depth = 0;
      std::size_t start = 0;
      for (std::size_t i = 0; i < name.size(); ++i) {
        depth += name[i] == '<' ? 1 : name[i] == '>' ? -1 : 0;
        if (name[i] == ' ' && depth == 0) {
          start = i + 1;
        }
      }
      name = name.substr(start);
      auto& entry = kernels[name];
      entry.first = std::max(entry.first, registers);
      entry.second = std::max(entry.second, shared);
      current.clear();
    }
  }
  std::string out;
  for (const auto& [name, resources] : kernels) {
    if (name.find_first_of(":,") != std::string::npos) {
      continue;  // the runtime's list format cannot carry these; the default applies
    }
    out += (out.empty() ? "" : ",") + name + ":" + std::to_string(resources.first) + ":" +
           std::to_string(resources.second);
  }
  return out;
}

}  // namespace memcarlo::cli::cc
