// When no parse setup parses a translation unit cleanly: may it be instrumented anyway? Yes when
// every error lies in the body of a host function, away from device code and from kernel
// launches (classic programs call host APIs that a current toolkit lacks around kernels that
// parse fine).
#pragma once

#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"

#include "parse_driver.hpp"

namespace memcarlo::instrumenter {

/// An ErrorTolerance: "" when each error (all semantic, as parse_side guarantees) is in the body
/// of a host-only function outside system headers, no enclosing function is device code, no
/// error lies inside a kernel launch, and every `<<<` spelled in such a function is still a
/// launch in the AST. Otherwise the first error that fails, with the reason.
std::string check_host_errors(clang::ASTContext& context, const std::vector<ParseError>& errors);

}  // namespace memcarlo::instrumenter
