// Per-function facts gathered before the access walk: every definition and modification of each
// local variable, which variables have their address taken, the loop nest, and loop induction
// variables (one definition before the loop, one constant-step update inside it).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace memcarlo::instrumenter {

struct Modification {
  enum class Kind { kInit, kAssign, kCompound, kIncrement, kDecrement, kOther };
  Kind kind = Kind::kOther;
  const clang::Expr* value = nullptr;  // initializer or right-hand side
  clang::BinaryOperatorKind op = clang::BO_Assign;
  const clang::Stmt* loop = nullptr;  // innermost loop holding the modification
};

struct LoopInfo {
  const clang::Stmt* parent = nullptr;  // enclosing loop
  unsigned depth = 1;
  const clang::Expr* condition = nullptr;
};

/// `for (v = init; v < bound; v += step)` and its while/do equivalents.
struct InductionFacts {
  const clang::Expr* init = nullptr;
  const clang::Expr* step = nullptr;  // nullptr with step_value set for ++/--
  std::int64_t step_value = 0;        // +1/-1 for ++/--, sign for += / -= with `step`
  const clang::Expr* bound = nullptr;
  std::string comparison;
};

class FunctionFacts {
 public:
  explicit FunctionFacts(const clang::FunctionDecl& function);

  [[nodiscard]] const std::vector<Modification>& modifications(const clang::VarDecl* var) const;
  [[nodiscard]] bool address_taken(const clang::VarDecl* var) const {
    return address_taken_.count(var) != 0;
  }
  [[nodiscard]] const LoopInfo* loop(const clang::Stmt* loop) const;
  /// True when `inner` is `outer` or nested in it (nullptr is outside every loop).
  [[nodiscard]] bool loop_contains(const clang::Stmt* outer, const clang::Stmt* inner) const;
  /// The induction facts of `var` in `loop`, if it is one of its induction variables.
  [[nodiscard]] std::optional<InductionFacts> induction(const clang::VarDecl* var,
                                                        const clang::Stmt* loop) const;
  [[nodiscard]] const clang::FunctionDecl& function() const { return function_; }

 private:
  void walk(const clang::Stmt* statement);
  void note_argument(const clang::Expr* argument, const clang::ParmVarDecl* parameter);
  void note_modification(const clang::Expr* target, Modification modification);

  const clang::FunctionDecl& function_;
  std::map<const clang::VarDecl*, std::vector<Modification>> modifications_;
  std::set<const clang::VarDecl*> address_taken_;
  std::map<const clang::Stmt*, LoopInfo> loops_;
  std::vector<const clang::Stmt*> loop_stack_;
};

/// The variable an expression names directly (through parens and implicit casts), if any.
const clang::VarDecl* named_variable(const clang::Expr* expr);

}  // namespace memcarlo::instrumenter
