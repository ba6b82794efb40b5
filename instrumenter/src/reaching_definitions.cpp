// Reaching definitions along the access walk (see the header).
#include "reaching_definitions.hpp"

#include "clang/AST/Expr.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

void ReachingDefinitions::invalidate_users_of(const clang::VarDecl* var) {
  for (auto& [other, definition] : current_) {
    if (other != var && definition.uses.count(var) != 0) {
      definition.value = nullptr;
      definition.uses.clear();
    }
  }
}

void ReachingDefinitions::define(const clang::VarDecl* var, const clang::Expr* value) {
  Definition definition;
  definition.value = value;
  collect_variables(value, definition.uses);
  if (definition.uses.count(var) != 0) definition.value = nullptr;  // x = x + 1
  current_[var] = std::move(definition);
  invalidate_users_of(var);
  for (std::set<const clang::VarDecl*>& region : regions_) region.insert(var);
}

void ReachingDefinitions::pop_region() {
  const std::set<const clang::VarDecl*> assigned = std::move(regions_.back());
  regions_.pop_back();
  for (const clang::VarDecl* var : assigned) {
    current_[var] = Definition{};
    invalidate_users_of(var);
  }
}

std::optional<const clang::Expr*> ReachingDefinitions::lookup(const clang::VarDecl* var) const {
  const auto it = current_.find(var);
  if (it == current_.end()) return std::nullopt;
  return it->second.value;
}

}  // namespace memcarlo::instrumenter
