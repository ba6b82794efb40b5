// The cuda runtime's options: the MEMCARLO_* variables of the host backend (same names, same
// parser, docs/host-runtime.md "Environment") plus the cuda backend's own buffer budget.
#pragma once

#include <cstdint>

#include "buffer_geometry.hpp"
#include "memcarlo/host/control.hpp"

namespace memcarlo::cuda::detail {

struct CudaRuntimeOptions {
  host::RuntimeOptions common;
  std::uint64_t buffer_bytes = kDefaultBufferBytes;  // MEMCARLO_CUDA_BUFFER_MB
};

/// Reads the variables through `lookup` (std::getenv in the runtime). A malformed value ends the
/// program with a message naming the variable (exit status 78).
CudaRuntimeOptions cuda_options_from(const char* (*lookup)(const char* name));

}  // namespace memcarlo::cuda::detail
