// What goes into the output files: the probe-API prelude, #line directives, the embedded loads
// table, the mirrored layout of --output-dir, patches, and the all-or-nothing write.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "memcarlo/instrumenter/options.hpp"

namespace memcarlo::instrumenter {

/// 32-bit FNV-1a of the main file's absolute path: the translation unit's id in traces.
unsigned translation_unit_hash(const std::string& absolute_path);

/// `text` as a C++ string literal: quotes and backslashes escaped, newlines as \n.
std::string cpp_string_literal(const std::string& text);

struct OutputRequest {
  const InstrumentOptions& options;
  std::string main_file;                          // absolute path
  std::map<std::string, std::string> originals;   // absolute path -> original text
  std::map<std::string, std::string> rewritten;   // absolute path -> text with edits applied
  std::string loads_json;                         // embedded form, one entry per line
  std::string kernel_parameters_json;             // DeviceFacts::kernel_parameters_json
  bool kernel_thunks = false;  // a launch calls its kernel through memcarlo_kernel_signature
  /// Host backend: the unit's launch names (MEMCARLO_REGISTER_LAUNCHES, JSON); empty: none.
  std::string launches_json;
};

/// Output path -> content. On failure `errors` says why and the map is empty.
std::map<std::string, std::string> plan_outputs(const OutputRequest& request,
                                                std::vector<std::string>& errors);

/// Writes every file through a temporary and renames them all at the end; on failure removes
/// what it wrote. "-" means standard output.
bool write_outputs(const std::map<std::string, std::string>& outputs,
                   std::vector<std::string>& errors);

}  // namespace memcarlo::instrumenter
