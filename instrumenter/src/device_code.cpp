// Device-function discovery and the kernel call graph.
#include "device_code.hpp"

#include <deque>

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

namespace {
using Graph = std::map<const clang::FunctionDecl*, std::set<const clang::FunctionDecl*>>;

/// Collects calls (and lambda definitions) inside one function body.
class CallCollector : public clang::RecursiveASTVisitor<CallCollector> {
 public:
  explicit CallCollector(std::set<const clang::FunctionDecl*>& callees) : callees_(callees) {}
  bool VisitCallExpr(clang::CallExpr* call) {
    if (const clang::FunctionDecl* callee = call->getDirectCallee()) {
      callees_.insert(DeviceCode::pattern_of(callee));
    }
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
    callees_.insert(DeviceCode::pattern_of(construct->getConstructor()));
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr* lambda) {
    callees_.insert(DeviceCode::pattern_of(lambda->getCallOperator()));
    return true;
  }
  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr* lookup) {
    // Calls in templates that are resolved per instantiation: every candidate may be called.
    for (const clang::NamedDecl* candidate : lookup->decls()) {
      if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(candidate)) {
        callees_.insert(DeviceCode::pattern_of(function));
      } else if (const auto* templated = llvm::dyn_cast<clang::FunctionTemplateDecl>(candidate)) {
        callees_.insert(DeviceCode::pattern_of(templated->getTemplatedDecl()));
      }
    }
    return true;
  }
  bool TraverseLambdaExpr(clang::LambdaExpr* lambda) {
    WalkUpFromLambdaExpr(lambda);  // the body is a function of its own
    return true;
  }

 private:
  std::set<const clang::FunctionDecl*>& callees_;
};

class FunctionFinder : public clang::RecursiveASTVisitor<FunctionFinder> {
 public:
  FunctionFinder(clang::ASTContext& context, const std::string& toolkit,
                 std::vector<const clang::FunctionDecl*>& functions, Graph& graph)
      : context_(context), toolkit_(toolkit), functions_(functions), graph_(graph) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    note(function);
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr* lambda) {
    note(lambda->getCallOperator());
    return true;
  }

 private:
  void note(const clang::FunctionDecl* function) {
    if (!function->doesThisDeclarationHaveABody() || !is_device_function(function)) return;
    const clang::FunctionDecl* pattern = DeviceCode::pattern_of(function);
    std::set<const clang::FunctionDecl*>& callees = graph_[pattern];
    CallCollector(callees).TraverseStmt(function->getBody());
    if (const auto* constructor = llvm::dyn_cast<clang::CXXConstructorDecl>(function)) {
      for (const clang::CXXCtorInitializer* initializer : constructor->inits()) {
        CallCollector(callees).TraverseStmt(initializer->getInit());
      }
    }
    if (function != pattern || !seen_.insert(function).second) return;
    if (function->isImplicit() ||
        !is_user_file(context_.getSourceManager(), function->getLocation(), toolkit_)) {
      return;
    }
    functions_.push_back(function);
  }

  clang::ASTContext& context_;
  const std::string& toolkit_;
  std::vector<const clang::FunctionDecl*>& functions_;
  Graph& graph_;
  std::set<const clang::FunctionDecl*> seen_;
};
}  // namespace

const clang::FunctionDecl* DeviceCode::pattern_of(const clang::FunctionDecl* function) {
  const clang::FunctionDecl* current = function;
  for (int guard = 0; guard < 16; ++guard) {
    const clang::FunctionDecl* pattern = current->getTemplateInstantiationPattern();
    if (pattern == nullptr || pattern == current) break;
    current = pattern;
  }
  if (const clang::FunctionDecl* definition = current->getDefinition()) return definition;
  return current->getCanonicalDecl();
}

DeviceCode::DeviceCode(clang::ASTContext& context, const std::string& toolkit_dir) {
  Graph graph;
  FunctionFinder(context, toolkit_dir, functions_, graph)
      .TraverseDecl(context.getTranslationUnitDecl());
  instrumented_.insert(functions_.begin(), functions_.end());
  for (const auto& [function, callees] : graph) {
    if (!function->hasAttr<clang::CUDAGlobalAttr>()) continue;
    const std::string kernel = function_name(function);
    std::deque<const clang::FunctionDecl*> queue = {function};
    std::set<const clang::FunctionDecl*> reached = {function};
    while (!queue.empty()) {
      const clang::FunctionDecl* current = queue.front();
      queue.pop_front();
      kernels_[current].insert(kernel);
      const auto edges = graph.find(current);
      if (edges == graph.end()) continue;
      for (const clang::FunctionDecl* callee : edges->second) {
        if (reached.insert(callee).second) queue.push_back(callee);
      }
    }
  }
}

bool DeviceCode::instrumented(const clang::FunctionDecl* function) const {
  return function != nullptr && instrumented_.count(pattern_of(function)) != 0;
}

std::set<std::string> DeviceCode::kernels_reaching(const clang::FunctionDecl* function) const {
  const auto it = kernels_.find(pattern_of(function));
  return it == kernels_.end() ? std::set<std::string>{} : it->second;
}

}  // namespace memcarlo::instrumenter
