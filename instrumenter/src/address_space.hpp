// Which expressions designate memory through a pointer or array, and which address space that
// memory provably lives in (paper §4.1: a dataflow over pointer definitions; unresolved pointers
// are conservatively treated as possibly global).
#pragma once

#include <set>
#include <string>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include "function_facts.hpp"

namespace memcarlo::instrumenter {

struct MemoryClass {
  bool is_memory = false;      // the lvalue is a location in memory reached by a pointer/array
  std::string space = "unknown";  // global | unknown | shared | local | constant | param
  std::string base;               // the array or pointer variable, as written
  const clang::ValueDecl* root = nullptr;
  bool root_is_restrict = false;
};

class AddressSpaceAnalysis {
 public:
  AddressSpaceAnalysis(const clang::FunctionDecl& function, const FunctionFacts& facts)
      : function_(function), facts_(facts) {}

  /// Classifies an lvalue expression (a[i], *p, p->f, s.f, a device variable, a reference).
  [[nodiscard]] MemoryClass classify_lvalue(const clang::Expr* lvalue) const;
  /// Classifies where a pointer value points to.
  [[nodiscard]] MemoryClass classify_pointer(const clang::Expr* pointer) const;

 private:
  MemoryClass storage_of(const clang::Expr* lvalue) const;
  MemoryClass variable_storage(const clang::VarDecl* variable) const;
  MemoryClass pointer_variable(const clang::VarDecl* variable) const;
  static MemoryClass join(const MemoryClass& a, const MemoryClass& b);

  const clang::FunctionDecl& function_;
  const FunctionFacts& facts_;
  mutable std::set<const clang::VarDecl*> visiting_;
};

/// True for spaces that are provably not global memory (never probed).
bool is_non_global(const std::string& space);

}  // namespace memcarlo::instrumenter
