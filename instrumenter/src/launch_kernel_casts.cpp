// The untyped kernel argument of cudaLaunchKernel, made typed again for the host backend.
#include "launch_kernel_casts.hpp"

#include <set>
#include <utility>

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

namespace {
/// The kernel an expression names, through parentheses, implicit conversions and `&`.
const clang::FunctionDecl* named_kernel(const clang::Expr* expr) {
  expr = expr->IgnoreParenImpCasts();
  if (const auto* address = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
    if (address->getOpcode() == clang::UO_AddrOf) expr = address->getSubExpr()->IgnoreParens();
  }
  const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(expr);
  if (reference == nullptr) return nullptr;
  const auto* function = llvm::dyn_cast<clang::FunctionDecl>(reference->getDecl());
  return function != nullptr && function->hasAttr<clang::CUDAGlobalAttr>() ? function : nullptr;
}

class CastFinder : public clang::RecursiveASTVisitor<CastFinder> {
 public:
  CastFinder(clang::ASTContext& context, const std::string& toolkit, EditSet& edits)
      : context_(context), sources_(context.getSourceManager()), toolkit_(toolkit), edits_(edits) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(clang::CallExpr* call) {
    if (callee_name(call) != "cudaLaunchKernel" || call->getNumArgs() == 0) return true;
    const auto* cast =
        llvm::dyn_cast<clang::ExplicitCastExpr>(call->getArg(0)->IgnoreParenImpCasts());
    if (cast == nullptr || !is_user_file(sources_, cast->getBeginLoc(), toolkit_)) return true;
    const clang::Expr* kernel = cast->getSubExprAsWritten();
    if (named_kernel(kernel) == nullptr) return true;
    const std::optional<FileRange> whole =
        rewritable_range(sources_, context_.getLangOpts(), cast->getSourceRange());
    const std::optional<FileRange> inner =
        rewritable_range(sources_, context_.getLangOpts(), kernel->getSourceRange());
    if (!whole || !inner || whole->file != inner->file) return true;
    const std::string origin = "cudaLaunchKernel at " + describe_location(sources_,
                                                                          cast->getBeginLoc());
    // Two deletions around the kernel, so that edits inside it (none today) could still nest.
    edits_.replace(whole->file, whole->begin, inner->begin - whole->begin, "", origin);
    if (whole->end > inner->end) {
      edits_.replace(whole->file, inner->end, whole->end - inner->end, "", origin);
    }
    rewritten_.insert({whole->file, whole->begin});
    return true;
  }

  [[nodiscard]] unsigned rewritten() const { return static_cast<unsigned>(rewritten_.size()); }

 private:
  clang::ASTContext& context_;
  const clang::SourceManager& sources_;
  const std::string& toolkit_;
  EditSet& edits_;
  std::set<std::pair<std::string, unsigned>> rewritten_;
};
}  // namespace

unsigned rewrite_launch_kernel_casts(clang::ASTContext& context, const std::string& toolkit,
                                     EditSet& edits) {
  CastFinder finder(context, toolkit, edits);
  finder.TraverseDecl(context.getTranslationUnitDecl());
  return finder.rewritten();
}

}  // namespace memcarlo::instrumenter
