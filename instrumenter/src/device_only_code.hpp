// Code a kernel holds only for the device: `#if __CUDA_ARCH__ >= 700` (or `#ifdef __CUDA_ARCH__`)
// with no #else inside a __global__ function. The host backend compiles kernels as host code,
// where __CUDA_ARCH__ is not defined, so such code does not run there: the kernel's results and
// its trace would silently lack it. Found in the host-side parse and named in a warning.
#pragma once

#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"

namespace memcarlo::instrumenter {

/// A conditional block the host side skipped, whose condition names __CUDA_ARCH__ and which has
/// no #else or #elif.
struct DeviceOnlyBlock {
  std::string file;  // absolute path
  unsigned begin = 0;
  unsigned end = 0;
  unsigned line = 0;      // of the #if
  std::string condition;  // as written, e.g. "__CUDA_ARCH__ >= 700"
};

/// Adds preprocessor callbacks that append to `blocks` (which must outlive the parse).
void track_device_only_blocks(clang::Preprocessor& preprocessor, const std::string& toolkit,
                              std::vector<DeviceOnlyBlock>& blocks);

/// One warning per kernel of a user file whose body holds such a block.
std::vector<std::string> device_only_kernel_warnings(clang::ASTContext& context,
                                                     const std::vector<DeviceOnlyBlock>& blocks);

}  // namespace memcarlo::instrumenter
