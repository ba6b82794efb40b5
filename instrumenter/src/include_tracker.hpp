// Records the quoted #includes of user files that were resolved relative to the including file's
// directory. When the including file is written somewhere else (an instrumented copy), those
// includes must name the original file instead, or they would no longer resolve.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clang/Lex/Preprocessor.h"

namespace memcarlo::instrumenter {

struct RelativeInclude {
  std::string includer;  // absolute path of the file holding the directive
  unsigned begin = 0;    // the "file name" token, quotes included
  unsigned end = 0;
  std::string target;    // absolute path of the included file
};

/// Adds preprocessor callbacks that append to `includes` (which must outlive the parse).
void track_relative_includes(clang::Preprocessor& preprocessor, const std::string& toolkit,
                             std::vector<RelativeInclude>& includes);

}  // namespace memcarlo::instrumenter
