// The record of one memory access found in device code, filled in by the access walker and turned
// into a loads-table entry and a probe edit after all translation-unit facts are known.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include "ast_helpers.hpp"
#include "index_form.hpp"

namespace memcarlo::instrumenter {

enum class AccessKind { kRead, kWrite, kReadModifyWrite, kAtomic };

/// kLvalue: `E` -> `(*memcarlo_probe(tu, id, &(E)))`;
/// kPointerArgument: the pointer argument `P` of an atomic/__ldg -> `memcarlo_probe(tu, id, P)`.
enum class ProbeStyle { kLvalue, kPointerArgument };

std::string to_string(AccessKind kind);

struct AccessSite {
  // Valid only while the AST that produced the site is alive.
  const clang::Expr* expr = nullptr;
  const clang::ValueDecl* root_decl = nullptr;
  bool root_is_restrict = false;

  std::optional<FileRange> range;  // where the probe goes; empty when not rewritable
  ProbeStyle style = ProbeStyle::kLvalue;
  AccessKind kind = AccessKind::kRead;
  std::string skip_reason;                // empty: probe it
  std::optional<std::size_t> redundant_of;  // index of the site it repeats
  std::string function;
  std::set<std::string> kernels;
  std::string file;  // as Clang names it, for the table
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string location;  // file:line:col for messages
  std::string expression;
  std::string element_type;
  std::uint32_t element_size = 0;
  std::string base;
  std::string address_space = "unknown";  // global | unknown | shared | local | constant | param
  std::uint32_t loop_depth = 0;
  std::int64_t sequence = -1;
  std::set<std::size_t> depends_on;  // indexes of sites whose loaded values feed the address
  /// Writes and read-modify-writes of a plain or compound assignment: indexes of the sites whose
  /// loaded values feed the value stored (a compound assignment's own load excluded); nullopt
  /// where the walk does not follow the value (calls, ++, operator= of classes).
  std::optional<std::set<std::size_t>> value_depends_on;
  IndexForm index;
};

}  // namespace memcarlo::instrumenter
