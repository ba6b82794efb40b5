// The compiler flags needed to compile instrumented output (`--print-include-flags`).
#pragma once

#include <string>

#include "memcarlo/instrumenter/options.hpp"

namespace memcarlo::instrumenter {

/// Flags as `pkg-config --cflags` would print them, e.g. `-I/opt/memcarlo/include
/// -DMEMCARLO_BACKEND_CUDA`. `executable_path` locates an installed tree: when
/// <exe dir>/../<includedir>/memcarlo/probe_api.h exists that include directory is used,
/// otherwise the source tree's.
std::string include_flags(Backend backend, const std::string& executable_path);

/// The running executable's path, given main()'s argv[0].
std::string executable_path(const char* argv0);

}  // namespace memcarlo::instrumenter
