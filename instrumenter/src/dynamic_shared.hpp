// Host backend: dynamic shared memory (`extern __shared__ T name[];`) spelled the way the CUDA
// emulation runtime needs it, `MEMCARLO_DYNAMIC_SHARED(T, name);` (docs/host-runtime.md).
#pragma once

#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include "device_code.hpp"
#include "edit_set.hpp"

namespace memcarlo::instrumenter {

/// `MEMCARLO_DYNAMIC_SHARED(T, name)` for the array `var` (no trailing `;`). An element type whose
/// spelling holds a comma (`Pair<int, float>`) goes through a local alias first, since the macro
/// would split it.
std::string dynamic_shared_declaration(const clang::ASTContext& context, const clang::VarDecl& var);

/// Namespace-scope `extern __shared__` arrays: the emulation runtime can only give a block its
/// dynamic shared memory inside a function, so the declaration becomes a no-op `static_assert`
/// and every device function that uses the array declares it at the top of its body. Unsupported
/// forms (several declarators, macros) are reported in `errors`.
void rewrite_file_scope_dynamic_shared(clang::ASTContext& context, const DeviceCode& device,
                                       const std::string& toolkit, std::vector<Edit>& edits,
                                       std::vector<std::string>& errors);

}  // namespace memcarlo::instrumenter
