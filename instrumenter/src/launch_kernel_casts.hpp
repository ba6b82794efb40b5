// cudaLaunchKernel((void*)kernel, grid, block, args, ...): CUDA takes the kernel as an untyped
// pointer, but the host emulation must know its parameter types to unpack `args`, so its
// cudaLaunchKernel takes the kernel itself, with its name. For the host backend the cast is
// removed and the kernel named.
#pragma once

#include <optional>
#include <string>

#include "clang/AST/ASTContext.h"

#include "edit_set.hpp"

namespace memcarlo::instrumenter {

/// The kernel that cudaLaunchKernel or cudaLaunchCooperativeKernel `call` launches, as spelled
/// (`k`, `ns::k<float>`, without `&`, a cast or spaces), when its first argument names one;
/// the host backend names the launch by it.
std::optional<std::string> launch_api_kernel_name(const clang::CallExpr* call,
                                                  const clang::ASTContext& context);

/// Replaces, in user files of the host-side AST, the first argument of each cudaLaunchKernel and
/// cudaLaunchCooperativeKernel that names a kernel, cast (`(void*)k`, `(const void*)&k`,
/// `reinterpret_cast<void*>(k<float>)`) or not, by `memcarlo_named_kernel("k", k)`: the kernel
/// typed again and its name for the launch. Returns how many casts were removed.
unsigned rewrite_launch_kernel_casts(clang::ASTContext& context, const std::string& toolkit,
                                     EditSet& edits);

}  // namespace memcarlo::instrumenter
