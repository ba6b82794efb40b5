// The device-side pass over one AST: every access of every instrumented function, as plain data
// that outlives the AST, plus the table building that merges sites into loads-table entries and
// probe edits.
#pragma once

#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"

#include "access_site.hpp"
#include "edit_set.hpp"
#include "memcarlo/instrumenter/instrument.hpp"
#include "memcarlo/instrumenter/options.hpp"

namespace memcarlo::instrumenter {

struct DeviceFacts {
  std::vector<AccessSite> sites;  // AST pointers cleared
  std::vector<std::string> errors;
  std::vector<SkippedAccess> other_skips;
  std::vector<Edit> declaration_edits;
  /// The kernels' parameter names, JSON `[{"kernel": name, "parameters": [...]}]` ("" when no
  /// kernel has parameters): the runtimes record each traced launch's integer and pointer
  /// arguments under these names (MEMCARLO_REGISTER_KERNEL_PARAMETERS).
  std::string kernel_parameters_json;
};

DeviceFacts analyze_device_code(clang::ASTContext& context, Backend backend,
                                const std::string& toolkit);

struct TableResult {
  std::vector<LoadEntry> entries;
  unsigned probed = 0;
  std::vector<SkippedAccess> skipped;
};

/// Merges sites that share a source range (macro arguments used twice, headers included twice),
/// numbers the table entries in source order, turns sequences and dependences into ids and adds
/// one probe edit per probed entry.
TableResult build_table(const std::vector<AccessSite>& sites, EditSet& edits);

}  // namespace memcarlo::instrumenter
