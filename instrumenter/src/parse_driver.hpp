// Runs Clang on one side (host or device) of a translation unit, trying the parse setups in
// order until one parses without errors, and hands the AST to a callback.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"

#include "parse_setup.hpp"

namespace memcarlo::instrumenter {

struct ParseAttempt {
  ParseSetup setup = ParseSetup::kToolkit;
  std::vector<std::string> errors;  // "file:line:col: error: message"
};

struct SideParseResult {
  bool ok = false;
  ParseSetup setup = ParseSetup::kToolkit;  // the setup that parsed, when ok
  std::vector<ParseAttempt> failures;       // every setup that did not parse, in order
};

using AstCallback = std::function<void(clang::ASTContext&)>;
/// Runs before the file is preprocessed (to add PPCallbacks); may be empty.
using PreprocessorHook = std::function<void(clang::Preprocessor&)>;

/// Parses `file` for `side`. The callback runs inside the parse (the AST does not outlive it)
/// for the first setup that produced no error. The toolkit setup is skipped without a toolkit.
SideParseResult parse_side(Side side, const std::vector<ParseSetup>& order,
                           const std::string& toolkit, const UserFlags& flags,
                           const std::string& file, const AstCallback& callback,
                           const PreprocessorHook& preprocessor_hook = {});

}  // namespace memcarlo::instrumenter
