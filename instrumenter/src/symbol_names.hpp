// Device symbols named by strings: before CUDA 5.0, cudaMemcpyToSymbol("coefficients", ...) took
// the variable's name; current runtimes (and the host backend) take the variable itself, and
// treat a string as the address of its characters. The string becomes the variable.
#pragma once

#include <string>

#include "clang/AST/ASTContext.h"

#include "edit_set.hpp"

namespace memcarlo::instrumenter {

/// Replaces, in user files of the host-side AST, each string literal that names a namespace-scope
/// __device__ or __constant__ variable as the symbol argument of cudaMemcpyToSymbol(Async),
/// cudaMemcpyFromSymbol(Async), cudaGetSymbolAddress or cudaGetSymbolSize by that name. Returns
/// how many calls were rewritten.
unsigned rewrite_symbol_names(clang::ASTContext& context, const std::string& toolkit,
                              EditSet& edits);

}  // namespace memcarlo::instrumenter
