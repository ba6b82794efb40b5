// Unified diffs (`--patch`) between an original file and its instrumented text.
#pragma once

#include <string>

namespace memcarlo::instrumenter {

/// A unified diff with three lines of context; empty when the texts are equal. `label` names
/// the file in the ---/+++ header lines (patch -p0 applies it in place).
std::string unified_diff(const std::string& label, const std::string& original,
                         const std::string& rewritten);

}  // namespace memcarlo::instrumenter
