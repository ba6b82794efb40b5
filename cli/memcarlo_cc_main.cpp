// Entry point of memcarlo-cc, the nvcc drop-in: memcarlo's own options, then nvcc's.
#include <iostream>
#include <string>
#include <vector>

#include "cc/cc_driver.hpp"
#include "cc/nvcc_args.hpp"

namespace {

constexpr const char* kUsage =
    "usage: memcarlo-cc [--backend host|cuda] [--memcarlo-verbose] [--memcarlo-keep]\n"
    "                   [--memcarlo-no-resources] <nvcc arguments...>\n"
    "\n"
    "A drop-in for nvcc (make NVCC=memcarlo-cc): instruments every .cu file with\n"
    "memcarlo-instrument and compiles for\n"
    "  --backend host   the CUDA emulation runtime: kernels run on the CPU, no GPU needed\n"
    "  --backend cuda   nvcc and a real GPU, with warp-buffered probes\n"
    "(default: cuda when a GPU is visible and the cuda runtime was built, else host).\n"
    "Accepts -o -c -dc -I -D -U -include -L -l -std= -O -g -arch -gencode -x cu -Xcompiler\n"
    "-Xlinker -ccbin, several sources, .cpp and .o inputs. A file that cannot be instrumented is\n"
    "compiled as written, with a warning. Run the result with `memcarlo run -- ./app`.\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace memcarlo::cli::cc;
  DriverOptions options = default_driver_options();
  options.backend = default_backend();
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--backend" || a.rfind("--backend=", 0) == 0) {
      std::string value = a == "--backend" ? (i + 1 < argc ? argv[++i] : "") : a.substr(10);
      if (value == "host") {
        options.backend = Backend::kHost;
      } else if (value == "cuda") {
        options.backend = Backend::kCuda;
      } else {
        std::cerr << "memcarlo-cc: error: --backend expects host or cuda, got '" << value
                  << "'\n";
        return 1;
      }
    } else if (a == "--memcarlo-verbose") {
      options.verbose = true;
    } else if (a == "--memcarlo-keep") {
      options.keep_temporaries = true;
    } else if (a == "--memcarlo-no-resources") {
      options.resources = false;
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--version") {
      std::cout << "memcarlo-cc " << MEMCARLO_VERSION << "\n";
      return 0;
    } else {
      rest.push_back(a);
    }
  }
  if (options.backend == Backend::kCuda && options.nvcc.empty()) {
    std::cerr << "memcarlo-cc: error: --backend cuda needs nvcc, which this build did not find\n";
    return 1;
  }
  try {
    return run_driver(parse_nvcc_arguments(rest), options);
  } catch (const std::invalid_argument& e) {
    std::cerr << "memcarlo-cc: error: " << e.what() << "\n" << kUsage;
    return 1;
  }
}
