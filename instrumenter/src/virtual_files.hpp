// Files the parse setups need that are not on disk: memcarlo's CUDA declarations header, the
// empty texture_fetch_functions.h and the compatibility header for new toolkits, and stand-ins
// for the toolkit's headers.
#pragma once

#include <string>
#include <string_view>

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace memcarlo::instrumenter {

/// Root of the in-memory directory tree; never a real path.
inline constexpr std::string_view kVirtualRoot = "/memcarlo-virtual";
/// Put first on the include path by the toolkit setup (holds texture_fetch_functions.h).
inline constexpr std::string_view kCompatIncludeDir = "/memcarlo-virtual/compat";
/// Include directory of the builtin setup (declarations header and cuda_runtime.h stand-ins).
inline constexpr std::string_view kBuiltinIncludeDir = "/memcarlo-virtual/builtin";
/// Searched last by both setups: headers host code includes that Clang's search path may lack
/// (omp.h, which nvcc's host compiler finds in GCC's own include directory).
inline constexpr std::string_view kFallbackIncludeDir = "/memcarlo-virtual/fallback";
/// The declarations header, force-included by the builtin setup.
inline constexpr std::string_view kDeclarationsHeader =
    "/memcarlo-virtual/builtin/memcarlo_cuda_decls.h";
/// Force-included by the toolkit setup: what nvcc's headers include and CUDA 12/13 removed.
inline constexpr std::string_view kToolkitCompatHeader =
    "/memcarlo-virtual/compat/memcarlo_cuda_toolkit_compat.h";

/// The real file system with the virtual files laid over it; `main_file` (an absolute path) and
/// the .cu and .cuh files it includes read with split launch chevrons rejoined
/// (split_chevrons.hpp).
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> make_parse_file_system(
    const std::string& main_file);

/// Whether the parse reads `path` with its split launch chevrons rejoined: the main file, .cu and
/// .cuh files. The files written out get the same treatment, so that the edits' offsets match.
bool rejoins_chevrons(const std::string& path, const std::string& main_file);

}  // namespace memcarlo::instrumenter
