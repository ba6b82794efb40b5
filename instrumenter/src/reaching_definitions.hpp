// Which assignment of a local variable reaches the current point of the evaluation-order walk:
// the last one, unless a branch or a loop body in between may have assigned it differently, or a
// variable its value was computed from changed since. Lets `x = ...; a[x]; x = ...; b[x]` give
// both accesses an index form although x has several definitions.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace memcarlo::instrumenter {

class ReachingDefinitions {
 public:
  /// `var` now holds `value`; nullptr when its value is not an expression we can substitute
  /// (compound assignment, ++, a call through a reference).
  void define(const clang::VarDecl* var, const clang::Expr* value);
  /// Branches and loop bodies: what they assign is ambiguous once they are left.
  void push_region() { regions_.emplace_back(); }
  void pop_region();
  /// nullopt: no definition seen yet; nullptr: several definitions may reach; else the value.
  [[nodiscard]] std::optional<const clang::Expr*> lookup(const clang::VarDecl* var) const;

 private:
  struct Definition {
    const clang::Expr* value = nullptr;
    std::set<const clang::VarDecl*> uses;  // variables `value` reads
  };
  void invalidate_users_of(const clang::VarDecl* var);

  std::map<const clang::VarDecl*, Definition> current_;
  std::vector<std::set<const clang::VarDecl*>> regions_;
};

}  // namespace memcarlo::instrumenter
