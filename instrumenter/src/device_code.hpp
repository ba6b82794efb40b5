// Which functions of a translation unit are device code to instrument (user __device__ and
// __global__ functions, template patterns once, lambdas in device code) and which kernels reach
// each of them through the call graph (instantiations included).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace memcarlo::instrumenter {

class DeviceCode {
 public:
  DeviceCode(clang::ASTContext& context, const std::string& toolkit_dir);

  /// User device functions with bodies, in translation-unit order; patterns, not instantiations.
  [[nodiscard]] const std::vector<const clang::FunctionDecl*>& functions() const {
    return functions_;
  }
  /// True when `function` (or the pattern it was instantiated from) is instrumented here.
  [[nodiscard]] bool instrumented(const clang::FunctionDecl* function) const;
  /// Names of the kernels whose call graph reaches `function`.
  [[nodiscard]] std::set<std::string> kernels_reaching(const clang::FunctionDecl* function) const;

  /// The declaration that stands for every instantiation of `function`.
  static const clang::FunctionDecl* pattern_of(const clang::FunctionDecl* function);

 private:
  std::vector<const clang::FunctionDecl*> functions_;
  std::set<const clang::FunctionDecl*> instrumented_;
  std::map<const clang::FunctionDecl*, std::set<std::string>> kernels_;
};

}  // namespace memcarlo::instrumenter
