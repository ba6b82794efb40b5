// cudaLaunchKernel((void*)kernel, grid, block, args, ...): CUDA takes the kernel as an untyped
// pointer, but the host emulation must know its parameter types to unpack `args`, so its
// cudaLaunchKernel takes the kernel itself. For the host backend the cast is removed.
#pragma once

#include <string>

#include "clang/AST/ASTContext.h"

#include "edit_set.hpp"

namespace memcarlo::instrumenter {

/// Replaces, in user files of the host-side AST, each explicit cast of a kernel (`(void*)k`,
/// `(const void*)&k`, `reinterpret_cast<void*>(k<float>)`) that is the first argument of
/// cudaLaunchKernel by the kernel as spelled under the cast. Returns how many were rewritten.
unsigned rewrite_launch_kernel_casts(clang::ASTContext& context, const std::string& toolkit,
                                     EditSet& edits);

}  // namespace memcarlo::instrumenter
