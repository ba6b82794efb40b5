// Entry point of memcarlo-cc, the nvcc drop-in: memcarlo's own options, then nvcc's. Also a
// compiler launcher (CMake's CMAKE_CUDA_COMPILER_LAUNCHER): given `nvcc ARGS` it builds as that
// nvcc would.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cc/cc_driver.hpp"
#include "cc/nvcc_args.hpp"
#include "process.hpp"

namespace {

constexpr const char* kUsage =
    "usage: memcarlo-cc [--backend host|cuda] [--memcarlo-verbose] [--memcarlo-keep]\n"
    "                   [--memcarlo-no-resources] <nvcc arguments...>\n"
    "       memcarlo-cc [--backend host|cuda] --print-link-flags | --print-compile-flags\n"
    "       memcarlo-cc [--backend host|cuda] /path/to/nvcc ARGS...  (as a compiler launcher)\n"
    "\n"
    "A drop-in for nvcc (make NVCC=memcarlo-cc): instruments every .cu file with\n"
    "memcarlo-instrument and compiles for\n"
    "  --backend host   the CUDA emulation runtime: kernels run on the CPU, no GPU needed;\n"
    "                   CUB's block and warp primitives are traced, CUB's device-wide calls\n"
    "                   and Thrust (the toolkit's, on its C++ device system) run untraced;\n"
    "                   other CUDA libraries (cuBLAS, cuFFT, ...) are not provided\n"
    "  --backend cuda   nvcc and a real GPU, with warp-buffered probes\n"
    "(default: cuda when a GPU is visible and the cuda runtime was built, else host).\n"
    "Accepts -o -c -dc -I -D -U -include -L -l -std= -O -g -arch -gencode -x cu -Xcompiler\n"
    "-Xlinker -ccbin -MD -MF -MT, several sources, .cpp and .o inputs. With the host backend a\n"
    ".cu file that cannot be instrumented stops the build with memcarlo-instrument's messages;\n"
    "with the cuda backend it is compiled as written, with a warning.\n"
    "Link with memcarlo-cc, or add $(memcarlo-cc --print-link-flags) after the objects when\n"
    "g++ links; compile C++ files that call the CUDA API with $(memcarlo-cc\n"
    "--print-compile-flags) (host backend). CMake: -DCMAKE_CUDA_COMPILER_LAUNCHER=memcarlo-cc\n"
    "-DCMAKE_CUDA_STANDARD_LIBRARIES=\"$(memcarlo-cc --print-link-flags)\" (docs/building-\n"
    "projects.md). Run the result with `memcarlo run -- ./app`.\n";

/// A compiler launcher's first argument: a program (nvcc, c++), not an option or an input file.
bool is_launched_program(const std::string& argument) {
  namespace fs = std::filesystem;
  if (argument.empty() || argument[0] == '-')
    return false;
  const std::string extension = fs::path(argument).extension().string();
  for (const char* input : {".cu", ".cpp", ".cc", ".cxx", ".c", ".C", ".o", ".a", ".so", ".obj"}) {
    if (extension == input)
      return false;
  }
  std::error_code error;
  return fs::is_regular_file(argument, error) && ::access(argument.c_str(), X_OK) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace memcarlo::cli::cc;
  DriverOptions options = default_driver_options(memcarlo::cli::executable_directory());
  options.backend = default_backend();
  bool print_link = false;
  bool print_compile = false;
  bool launcher = false;
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (launcher) {
      rest.push_back(a);  // the launched nvcc's arguments, verbatim
    } else if (a == "--backend" || a.rfind("--backend=", 0) == 0) {
      std::string value = a == "--backend" ? (i + 1 < argc ? argv[++i] : "") : a.substr(10);
      if (value == "host") {
        options.backend = Backend::kHost;
      } else if (value == "cuda") {
        options.backend = Backend::kCuda;
      } else {
        std::cerr << "memcarlo-cc: error: --backend expects host or cuda, got '" << value << "'\n";
        return 1;
      }
    } else if (a == "--memcarlo-verbose") {
      options.verbose = true;
    } else if (a == "--memcarlo-keep") {
      options.keep_temporaries = true;
    } else if (a == "--memcarlo-no-resources") {
      options.resources = false;
    } else if (a == "--print-link-flags") {
      print_link = true;
    } else if (a == "--print-compile-flags") {
      print_compile = true;
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--version") {
      std::cout << "memcarlo-cc " << MEMCARLO_VERSION << "\n";
      return 0;
    } else {
      launcher = rest.empty() && is_launched_program(a);
      rest.push_back(a);
    }
  }
  if (print_link || print_compile) {
    const std::string flags = print_link ? print_link_flags(options) : print_compile_flags(options);
    if (flags.empty()) {
      std::cerr << "memcarlo-cc: error: the "
                << (options.backend == Backend::kHost ? "host" : "cuda")
                << " runtime is not part of this build\n";
      return 1;
    }
    std::cout << flags << "\n";
    return 0;
  }
  if (options.backend == Backend::kCuda && options.nvcc.empty()) {
    std::cerr << "memcarlo-cc: error: --backend cuda needs nvcc, which this build did not find\n";
    return 1;
  }
  if (launcher) {
    // CMAKE_CUDA_COMPILER_LAUNCHER: the command is `nvcc ARGS`; build as that nvcc would.
    if (std::filesystem::path(rest.front()).filename().string().find("nvcc") == std::string::npos) {
      std::cerr << "memcarlo-cc: error: as a compiler launcher memcarlo-cc runs in place of "
                   "nvcc, not of "
                << rest.front() << "\n";
      return 1;
    }
    rest.erase(rest.begin());
  }
  try {
    return run_driver(parse_nvcc_arguments(rest), options);
  } catch (const std::invalid_argument& e) {
    std::cerr << "memcarlo-cc: error: " << e.what() << "\n" << kUsage;
    return 1;
  }
}
