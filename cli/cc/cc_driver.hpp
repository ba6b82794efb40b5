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
  // What compiling an instrumented source and linking a program need, per backend (empty when
  // that runtime is not part of this build).
  std::vector<std::string> host_compile_flags;
  std::vector<std::string> host_link_inputs;
  std::vector<std::string> cuda_compile_flags;
  std::vector<std::string> cuda_link_inputs;
  std::string installed_prefix;  // empty: running from the build tree
};

/// Where the runtimes and tools are: beside `executable_directory` when it is the bin directory
/// of an installed tree (<prefix>/bin with <prefix>/include/memcarlo/probe_api.h), else in the
/// build tree that built memcarlo-cc (cc_config.hpp.in).
DriverOptions default_driver_options(const std::string& executable_directory);

/// The backend memcarlo-cc picks without --backend: cuda when a GPU is visible and the cuda
/// runtime was built, else host.
Backend default_backend();

/// What a program whose objects memcarlo-cc compiled for `options.backend` must be linked with
/// when another command (g++, a Makefile's $(CXX)) links it: the runtime libraries and what they
/// need, in link order, shell-quoted and separated by spaces.
std::string print_link_flags(const DriverOptions& options);

/// What a C++ file that calls the CUDA runtime API must be compiled with to use the host
/// backend's emulation (cuda backend: the probe API's include directory and macros).
std::string print_compile_flags(const DriverOptions& options);

/// What a host-backend compile of C++ adds for Thrust: `-isystem` the CUDA toolkit's Thrust and
/// libcu++ headers (CUDA 13: include/cccl), found beside `nvcc`, under $CUDA_PATH or
/// /usr/local/cuda, so that they are searched after the emulation's (whose <cub/...> and Thrust
/// memory resource come first), and Thrust's C++ device system unless `user_flags` chose a device
/// system. Empty when no toolkit with Thrust is found.
std::vector<std::string> host_thrust_flags(const std::string& nvcc,
                                           const std::vector<std::string>& user_flags);

/// Builds what `invocation` asks for. Returns the exit status (0 on success); messages go to
/// stderr prefixed with "memcarlo-cc:".
int run_driver(const CcInvocation& invocation, const DriverOptions& options);

/// Kernels' registers and static shared memory from `nvcc --resource-usage` output, in the
/// MEMCARLO_KERNEL_RESOURCES format "name:registers:shared_bytes,..." (names demangled, without
/// their parameter lists, as the runtime names launches).
std::string parse_resource_usage(const std::string& ptxas_output);

}  // namespace memcarlo::cli::cc
