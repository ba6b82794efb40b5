// The name a launch through a function pointer gives the runtime (`k<<<g, b>>>(d)` with
// `void (*k)(float*) = scale`): what `k` points to is only known when the launch runs, so the
// name is chosen then, among the kernels of the translation unit that have the pointer's type.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace memcarlo::instrumenter {

class KernelPointerNames {
 public:
  explicit KernelPointerNames(clang::ASTContext& context) : context_(context) {}

  /// For a launch callee that is a pointer to a kernel rather than a kernel (a variable, an
  /// array element, `*k`): `(k == scale ? "scale" : k == shift ? "shift" : "k")`, comparing the
  /// callee as `spelled` with each kernel of its type (`"k"`, the spelling, when none matches).
  /// nullopt when the callee names a kernel, when evaluating it twice could change the program,
  /// or when no kernel (or more than a line's worth) has its type.
  std::optional<std::string> name(const clang::Expr* callee, const std::string& spelled);

 private:
  void collect();

  clang::ASTContext& context_;
  bool collected_ = false;
  std::vector<const clang::FunctionDecl*> kernels_;  // user kernels, in source order
};

}  // namespace memcarlo::instrumenter
