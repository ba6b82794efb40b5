// Kernel launches: `k<<<g, b, s, st>>>(args)` becomes `memcarlo_launch("k", k, g, b, s, st, args)`
// (host backend: a C++ compiler has no <<<; launches in device code too) or is wrapped in
// memcarlo_launch_begin/end hooks (cuda backend; host code only).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"

#include "edit_set.hpp"
#include "memcarlo/instrumenter/instrument.hpp"
#include "memcarlo/instrumenter/options.hpp"

namespace memcarlo::instrumenter {

struct LaunchFacts {
  unsigned rewritten = 0;
  std::vector<SkippedAccess> skipped;  // launches left as they are, with the reason
  std::vector<std::string> errors;     // launches the backend cannot do without (fatal)
  std::vector<std::string> warnings;   // launches rewritten that will not run as on a GPU
  bool kernel_thunks = false;  // some launch calls its kernel through memcarlo_kernel_signature
  /// Host backend: the names the runtime sees at the launches this unit can run (outside
  /// uninstantiated templates), e.g. `fill`, `block_sum<128, int>`, `k<BS>` (a launch in a host
  /// function template, as spelled), `cudaLaunchKernel`; `launch_names_complete` is false when a
  /// launch names its kernel only at run time (through a function pointer or a macro parameter).
  std::set<std::string> launch_names;
  bool launch_names_complete = true;
};

/// Finds the launches of the host-side AST in user files and adds their edits to `edits`.
LaunchFacts rewrite_launches(clang::ASTContext& context, Backend backend,
                             const std::string& toolkit, EditSet& edits);

}  // namespace memcarlo::instrumenter
