// memcarlo-cc's build steps: instrument (stopping with the instrumenter's diagnostics, or for the
// cuda backend falling back to the original source), dependency files for the original sources,
// compile per backend, collect kernel resources from nvcc, link with the runtime.
#include "cc_driver.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "../process.hpp"

namespace memcarlo::cli::cc {
namespace fs = std::filesystem;
namespace {

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

/// -I flags for the rewritten tree's copies of the user's include directories, to go before the
/// user's own: a rewritten file that the program includes with <...> through its -I (Rodinia's
/// `#include <srad_kernel.cu>` with -I.) must be found in the tree, not as the original. `tree`
/// mirrors the source directory that `rewritten` (the tree's copy of `source`) is relative to.
std::vector<std::string> mirrored_include_flags(const fs::path& tree, const std::string& source,
                                                const std::string& rewritten,
                                                const std::vector<std::string>& preprocessor) {
  if (rewritten.empty()) {
    return {};  // compiled as written
  }
  fs::path root = fs::absolute(source).lexically_normal();
  for (const auto& part : fs::path(rewritten).lexically_relative(tree)) {
    static_cast<void>(part);
    root = root.parent_path();
  }
  std::vector<std::string> flags;
  for (const std::string& flag : preprocessor) {
    if (flag.rfind("-I", 0) != 0 || flag.size() == 2) {
      continue;
    }
    const fs::path relative =
        fs::absolute(flag.substr(2)).lexically_normal().lexically_relative(root);
    if (relative.empty() || *relative.begin() == "..") {
      continue;
    }
    const fs::path mirror = (tree / relative).lexically_normal();
    if (fs::is_directory(mirror)) {
      flags.push_back("-I" + mirror.string());
    }
  }
  return flags;
}

/// -lcudart, -lcudart_static, -lcudadevrt, -lcuda: what the host backend's emulation replaces.
bool is_cuda_runtime_library(const std::string& flag) {
  return flag == "-lcudart" || flag == "-lcudart_static" || flag == "-lcudadevrt" ||
         flag == "-lcuda";
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

  /// The directory unit `unit`'s rewritten files are written to.
  [[nodiscard]] fs::path tree_of(int unit) const {
    return fs::path(temp_) / ("tree" + std::to_string(unit));
  }

  /// Instruments `source` into its own tree. `rewritten` is the rewritten main file; empty when
  /// the source is to be compiled as written (the cuda backend's fallback). Returns false when
  /// the build must stop (the host backend cannot compile a source it could not instrument).
  bool instrument(const std::string& source, int unit, std::string& rewritten) {
    rewritten.clear();
    if (options_.instrument_tool.empty()) {
      if (host()) {
        std::cerr << "memcarlo-cc: error: " << source
                  << ": memcarlo-instrument is not available in this build, and the host backend "
                     "needs the instrumented source\n";
        return false;
      }
      std::cerr << "memcarlo-cc: warning: " << source
                << ": memcarlo-instrument is not available in this build; compiling it "
                   "without probes\n";
      return true;
    }
    const fs::path tree = tree_of(unit);
    std::vector<std::string> argv = {
        options_.instrument_tool, source, "--output-dir", tree.string(), "--backend",
        host() ? "host" : "cuda", "--"};
    append(argv, in_.preprocessor);
    if (!in_.standard.empty()) {
      argv.push_back("-std=" + in_.standard);
    }
    append(argv, in_.gpu);
    std::string output;
    const int status = run_capture(argv, output, options_.verbose);
    if (status != 0) {
      // The instrumenter's own diagnostics (Clang's errors with file:line:col) say what to fix.
      std::cerr << "memcarlo-cc: " << (host() ? "error" : "warning") << ": could not instrument "
                << source << " (memcarlo-instrument exit " << status << "):\n"
                << output;
      if (!output.empty() && output.back() != '\n') {
        std::cerr << "\n";
      }
      if (host()) {
        std::cerr << "memcarlo-cc: error: the host backend compiles only instrumented sources "
                     "(kernel launches <<<...>>> are not C++): "
                  << advice_for_uninstrumentable(source) << "\n";
        return false;
      }
      std::cerr << "memcarlo-cc: warning: compiling " << source
                << " as written: its accesses will not be traced\n";
      return true;
    }
    // The summary line is for --memcarlo-verbose; warnings (host-side errors that were
    // tolerated) are always shown.
    const auto warning = output.find("memcarlo-instrument: warning:");
    if (options_.verbose) {
      std::cerr << output;
    } else if (warning != std::string::npos) {
      std::cerr << output.substr(warning);
    }
    rewritten = find_mirrored(tree, source);
    if (rewritten.empty()) {
      std::cerr << "memcarlo-cc: " << (host() ? "error" : "warning")
                << ": memcarlo-instrument wrote no file for " << source << "\n";
      return !host();
    }
    return true;
  }

  /// Dependency-file options (-MD, -MF x, ...): generated from the original source by the
  /// preprocessor, since the compile itself reads a rewritten copy in a temporary directory.
  static bool is_dependency_flag(const std::string& flag) {
    return flag.size() >= 2 && flag.compare(0, 2, "-M") == 0;
  }

  std::vector<std::string> without_dependency_flags(const std::vector<std::string>& flags) const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < flags.size(); ++i) {
      if (flags[i] == "-MF" || flags[i] == "-MT" || flags[i] == "-MQ") {
        ++i;
      } else if (!is_dependency_flag(flags[i])) {
        out.push_back(flags[i]);
      }
    }
    return out;
  }

  /// Writes the dependency file the user's -MD/-MMD asked for (make syntax, targets and
  /// prerequisites as the original command would have named them).
  int write_dependencies(const std::string& source, const std::string& object) {
    std::vector<std::string> requested;
    bool wanted = false;
    for (std::size_t i = 0; i < in_.host_compiler_flags.size(); ++i) {
      const std::string& flag = in_.host_compiler_flags[i];
      if (!is_dependency_flag(flag)) {
        continue;
      }
      wanted = wanted || flag == "-MD" || flag == "-MMD";
      requested.push_back(flag);
      if ((flag == "-MF" || flag == "-MT" || flag == "-MQ") &&
          i + 1 < in_.host_compiler_flags.size()) {
        requested.push_back(in_.host_compiler_flags[++i]);
      }
    }
    if (!wanted) {
      return 0;
    }
    const auto named = [&](const char* option) {
      return std::find(requested.begin(), requested.end(), option) != requested.end();
    };
    if (!named("-MF")) {
      requested.push_back("-MF");
      requested.push_back(fs::path(object).replace_extension(".d").string());
    }
    if (!named("-MT") && !named("-MQ")) {
      requested.push_back("-MT");
      requested.push_back(object);
    }
    std::vector<std::string> argv = {options_.host_compiler};
    if (host()) {
      append(argv, options_.host_compile_flags);
      argv.push_back(standard());
      append(argv, in_.preprocessor);
      append(argv, requested);
      argv.insert(argv.end(), {"-E", source, "-o", "/dev/null"});
    } else {
      // nvcc refuses -MD with -E; -M (-MM) writes the same file without compiling.
      argv = {options_.nvcc, "-x", "cu"};
      if (!standard().empty()) {
        argv.push_back(standard());
      }
      append(argv, in_.preprocessor);
      for (const std::string& flag : requested) {
        argv.push_back(flag == "-MD" ? "-M" : flag == "-MMD" ? "-MM" : flag);
      }
      argv.push_back(source);
    }
    return run_visible(argv, options_.verbose);
  }

  int compile_cuda(const std::string& source, const std::string& object, int unit) {
    std::string rewritten;
    if (!instrument(source, unit, rewritten)) {
      return 1;
    }
    if (const int status = write_dependencies(source, object); status != 0) {
      return status;
    }
    const std::string original_dir = fs::absolute(source).parent_path().string();
    if (host()) {
      std::vector<std::string> argv = {options_.host_compiler};
      append(argv, options_.host_compile_flags);
      argv.push_back(standard());
      argv.push_back("-iquote");
      argv.push_back(original_dir);
      // nvcc optimizes device code whatever -O says (only -G turns that off), and here the device
      // code runs on the CPU: without an -O of the user's, emulate at -O2 rather than GCC's -O0.
      const bool has_level =
          std::any_of(in_.optimization.begin(), in_.optimization.end(),
                      [](const std::string& f) { return f.rfind("-O", 0) == 0; });
      if (!has_level) {
        argv.push_back("-O2");
      }
      append(argv, mirrored_include_flags(tree_of(unit), source, rewritten, in_.preprocessor));
      append(argv, without_dependency_flags(user_flags()));
      append(argv, host_thrust_flags(options_.nvcc, user_flags()));
      argv.insert(argv.end(), {"-c", rewritten, "-o", object});
      const int status = run_visible(argv, options_.verbose);
      if (status != 0) {
        std::cerr << "memcarlo-cc: error: the host backend could not compile the instrumented "
                  << source
                  << " (compiler messages above point at the original lines). The CPU emulation "
                     "provides the CUDA runtime API, CUB's block, warp and device-wide algorithms "
                     "and Thrust (on the CPU, from the CUDA toolkit's headers"
                  << (host_thrust_flags(options_.nvcc, {}).empty() ? ", which were not found" : "")
                  << "), not the other CUDA libraries (cuBLAS, cuFFT, cuSPARSE, cuRAND, ...) nor "
                     "toolkit-only headers; build such programs with --backend cuda\n";
      }
      return status;
    }
    std::vector<std::string> argv = {options_.nvcc};
    append(argv, options_.cuda_compile_flags);
    if (!standard().empty()) {
      argv.push_back(standard());
    }
    argv.push_back("-I" + original_dir);
    append(argv, mirrored_include_flags(tree_of(unit), source, rewritten, in_.preprocessor));
    append(argv, in_.preprocessor);
    append(argv, in_.optimization);
    for (const std::string& flag : without_dependency_flags(in_.host_compiler_flags)) {
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
        for (const std::string& flag : options_.host_compile_flags) {
          if (flag.rfind("-I", 0) == 0 || flag.rfind("-D", 0) == 0) {
            argv.push_back(flag);
          }
        }
        argv.push_back(standard());
      }
      append(argv, user_flags());
      if (input.kind != InputKind::kC) {
        append(argv, host_thrust_flags(options_.nvcc, user_flags()));
      }
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
      for (const std::string& flag : in_.linker) {
        // The emulation is the CUDA runtime here; the toolkit's may not even be installed.
        if (is_cuda_runtime_library(flag)) {
          if (options_.verbose) {
            std::cerr << "memcarlo-cc: note: " << flag
                      << " dropped: the host backend links its own CUDA runtime\n";
          }
          continue;
        }
        argv.push_back(flag);
      }
      append(argv, options_.host_link_inputs);
      // nvcc hands the host compiler's flags (-Xcompiler) to the link as well, which is what
      // makes `-Xcompiler -fopenmp` on a one-line compile-and-link link libgomp; dependency
      // output flags are for compiles only.
      for (const std::string& flag : in_.host_compiler_flags) {
        if (flag.rfind("-M", 0) != 0 && flag.rfind("-Wp,", 0) != 0) {
          argv.push_back(flag);
        }
      }
    } else {
      argv.push_back(options_.nvcc);
      argv.push_back("-rdc=true");
      append(argv, in_.gpu);
      append(argv, objects);
      append(argv, in_.linker);
      append(argv, options_.cuda_link_inputs);
    }
    argv.insert(argv.end(), {"-o", output});
    return run_visible(argv, options_.verbose);
  }

  /// What to do about a source the instrumenter could not parse, checked with nvcc when this
  /// build knows one: an error nvcc reports too is the source's, and no backend builds it as it is.
  std::string advice_for_uninstrumentable(const std::string& source) {
    if (options_.nvcc.empty()) {
      return "fix what memcarlo-instrument reports above; if nvcc compiles the file as it is, "
             "--backend cuda builds it as written (untraced)";
    }
    std::string output;
    if (run_capture(nvcc_compile(source, "nvcc-check.o", {}), output, options_.verbose) != 0) {
      const auto first_error = output.find("error");
      const auto line_begin =
          first_error == std::string::npos ? std::string::npos : output.rfind('\n', first_error);
      const auto begin = line_begin == std::string::npos ? 0 : line_begin + 1;
      const std::string first = first_error == std::string::npos
                                    ? ""
                                    : output.substr(begin, output.find('\n', begin) - begin);
      return "nvcc rejects " + source + " too" + (first.empty() ? "" : " (" + first + ")") +
             ", so the errors above are in the source: fix them (neither backend builds it as it "
             "is)";
    }
    return "nvcc compiles " + source +
           " as it is, so this is a limit of memcarlo-instrument: --backend cuda builds it as "
           "written (untraced on the CPU), and the errors above say what the host backend could "
           "not parse";
  }

  /// nvcc compiling the original `source` with the user's preprocessor, standard and GPU flags
  /// into the temporary `object` (for checks: resource usage, whether nvcc accepts it). `phase`
  /// is `-c` (host and device code) or `-fatbin` (the device code only, for every GPU target).
  std::vector<std::string> nvcc_compile(const std::string& source, const std::string& object,
                                        const std::vector<std::string>& extra,
                                        const std::string& phase = "-c") const {
    std::vector<std::string> argv = {options_.nvcc};
    append(argv, extra);
    argv.insert(argv.end(), {phase, source, "-o", (fs::path(temp_) / object).string(),
                             "-Wno-deprecated-gpu-targets"});
    append(argv, in_.preprocessor);
    if (!in_.standard.empty()) {
      argv.push_back("-std=" + in_.standard);
    }
    append(argv, in_.gpu);
    return argv;
  }

  std::string resource_usage(const std::string& source) {
    std::string output;
    // ptxas reports the resources; the host half of a full compile would cost twice as much again.
    if (run_capture(nvcc_compile(source, "resources.fatbin", {"--resource-usage"}, "-fatbin"),
                    output, options_.verbose) != 0) {
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

int run_driver(const CcInvocation& invocation, const DriverOptions& options) {
  return Driver(invocation, options).run();
}

}  // namespace memcarlo::cli::cc
