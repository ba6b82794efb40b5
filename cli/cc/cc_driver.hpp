// memcarlo-cc: a drop-in for nvcc that instruments every .cu file and builds for the host backend
// (CUDA emulated on the CPU) or the cuda backend (a real GPU). It never breaks a build over
// instrumentation: a file that cannot be instrumented is compiled as written, with a warning.
#pragma once

#include <string>
#include <vector>

#include "nvcc_args.hpp"

namespace memcarlo::cli::cc {

enum class Backend { kHost, kCuda };

struct DriverOptions {
  Backend backend = Backend::kHost;
  bool verbose = false;          // print every command
  bool keep_temporaries = false;
  bool resources = true;         // ask nvcc --resource-usage for registers per kernel
  std::string instrument_tool;   // memcarlo-instrument
  std::string host_compiler;     // c++
  std::string nvcc;              // empty: not available
};

/// Where the runtimes and tools are (from the build, see cc_config.hpp.in).
DriverOptions default_driver_options();

/// The backend memcarlo-cc picks without --backend: cuda when a GPU is visible and the cuda
/// runtime was built, else host.
Backend default_backend();

/// Builds what `invocation` asks for. Returns the exit status (0 on success); messages go to
/// stderr prefixed with "memcarlo-cc:".
int run_driver(const CcInvocation& invocation, const DriverOptions& options);

/// Kernels' registers and static shared memory from `nvcc --resource-usage` output, in the
/// MEMCARLO_KERNEL_RESOURCES format "name:registers:shared_bytes,..." (names demangled, without
/// their parameter lists, as the runtime names launches).
std::string parse_resource_usage(const std::string& ptxas_output);

}  // namespace memcarlo::cli::cc
