// Runs Clang on one side (host or device) of a translation unit, trying the parse setups in
// order until one parses without errors, and hands the AST to a callback. When none does, an
// optional tolerance check may accept the setup with the fewest errors (host code whose errors
// touch neither device code nor launches).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"

#include "parse_setup.hpp"

namespace memcarlo::instrumenter {

/// One error diagnostic of a parse.
struct ParseError {
  std::string text;                // "file:line:col: error: message"
  clang::SourceLocation location;  // only meaningful inside the parse (for an ErrorTolerance)
  bool semantic = false;           // Clang's "Semantic Issue": the parser went on as written
  bool fatal = false;
};

struct ParseAttempt {
  ParseSetup setup = ParseSetup::kToolkit;
  std::vector<std::string> errors;  // "file:line:col: error: message"
  bool only_semantic_errors = false;  // none fatal, none a syntax or preprocessor error
};

struct SideParseResult {
  bool ok = false;
  ParseSetup setup = ParseSetup::kToolkit;  // the setup that parsed, when ok
  std::vector<ParseAttempt> failures;       // every setup that did not parse, in order
  std::vector<std::string> tolerated;       // errors of the accepted parse (ErrorTolerance)
  std::string not_tolerated;                // why the tolerance check refused, when it ran
};

using AstCallback = std::function<void(clang::ASTContext&)>;
/// Runs before the file is preprocessed (to add PPCallbacks); may be empty.
using PreprocessorHook = std::function<void(clang::Preprocessor&)>;
/// Called inside a parse that produced only semantic errors: returns "" to have the callback
/// run on that AST anyway, else the reason for refusing.
using ErrorTolerance =
    std::function<std::string(clang::ASTContext&, const std::vector<ParseError>&)>;

/// Parses `file` for `side`. The callback runs inside the parse (the AST does not outlive it)
/// for the first setup that produced no error. The toolkit setup is skipped without a toolkit.
/// When no setup parses cleanly and `tolerance` is given, the setups whose errors are all
/// semantic are parsed again, fewest errors first, and the first one `tolerance` accepts is
/// used (`tolerated` lists its errors).
SideParseResult parse_side(Side side, const std::vector<ParseSetup>& order,
                           const std::string& toolkit, const UserFlags& flags,
                           const std::string& file, const AstCallback& callback,
                           const PreprocessorHook& preprocessor_hook = {},
                           const ErrorTolerance& tolerance = {});

}  // namespace memcarlo::instrumenter
