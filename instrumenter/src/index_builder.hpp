// Builds the index form of an access from the AST: the address as a root (array, pointer or
// loaded value) plus a byte offset polynomial, converted to elements where it divides exactly.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"

#include "function_facts.hpp"
#include "index_form.hpp"
#include "reaching_definitions.hpp"

namespace memcarlo::instrumenter {

class IndexBuilder {
 public:
  /// `load_sites` maps memory lvalues (parens stripped) that are reads to their site indexes;
  /// their values appear in forms as "load:<index>" symbols.
  IndexBuilder(const clang::ASTContext& context, const FunctionFacts& facts,
               const std::map<const clang::Expr*, std::size_t>& load_sites,
               const ReachingDefinitions& reaching)
      : context_(context), facts_(facts), load_sites_(load_sites), reaching_(reaching) {}

  /// The form of the access `lvalue` inside the loops `loops` (outermost first).
  IndexForm for_lvalue(const clang::Expr* lvalue, const std::vector<const clang::Stmt*>& loops);
  /// The form of the object `pointer` points to (atomics, __ldg).
  IndexForm for_pointer(const clang::Expr* pointer, clang::QualType element,
                        const std::vector<const clang::Stmt*>& loops);

  /// Placeholder symbol name of a load site.
  static std::string load_symbol(std::size_t site) { return "load:" + std::to_string(site); }

 private:
  struct Address {
    std::string root;
    SymbolicValue offset;  // bytes
  };

  IndexForm finish(Address address, clang::QualType element);
  SymbolicValue value(const clang::Expr* expr);
  SymbolicValue variable(const clang::VarDecl* var, const std::string& name);
  SymbolicValue substitute(const clang::VarDecl* var, const clang::Expr* value);
  SymbolicValue size_of(clang::QualType type);
  std::optional<SymbolicValue> loaded(const clang::Expr* lvalue);
  Address address_of_lvalue(const clang::Expr* lvalue);
  Address pointer_value(const clang::Expr* pointer);
  Address pointer_variable(const clang::VarDecl* var);
  SymbolicValue add_symbol(const std::string& name, SymbolKind kind);

  const clang::ASTContext& context_;
  const FunctionFacts& facts_;
  const std::map<const clang::Expr*, std::size_t>& load_sites_;
  const ReachingDefinitions& reaching_;
  IndexForm* form_ = nullptr;
  std::vector<const clang::Stmt*> loops_;
  std::set<const clang::VarDecl*> visiting_;
  std::set<const clang::VarDecl*> inductions_done_;
};

}  // namespace memcarlo::instrumenter
