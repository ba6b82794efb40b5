// The untyped kernel argument of cudaLaunchKernel and cudaLaunchCooperativeKernel, made typed
// again for the host backend.
#include "launch_kernel_casts.hpp"

#include <set>
#include <utility>

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

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

}  // namespace

std::optional<std::string> launch_api_kernel_name(const clang::CallExpr* call,
                                                  const clang::ASTContext& context) {
  const std::string callee = callee_name(call);
  if ((callee != "cudaLaunchKernel" && callee != "cudaLaunchCooperativeKernel") ||
      call->getNumArgs() == 0) {
    return std::nullopt;
  }
  const clang::Expr* argument = call->getArg(0)->IgnoreParenImpCasts();
  const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(argument);
  const clang::Expr* kernel = cast != nullptr ? cast->getSubExprAsWritten() : argument;
  if (named_kernel(kernel) == nullptr) return std::nullopt;
  const llvm::StringRef text = clang::Lexer::getSourceText(
      clang::CharSourceRange::getTokenRange(kernel->getSourceRange()), context.getSourceManager(),
      context.getLangOpts());
  std::string name;
  for (const char c : text) {
    if (c != '&' && c != ' ' && c != '\t' && c != '\n' && c != '(' && c != ')') name += c;
  }
  if (name.empty()) return std::nullopt;
  return name;
}

namespace {

class CastFinder : public clang::RecursiveASTVisitor<CastFinder> {
 public:
  CastFinder(clang::ASTContext& context, const std::string& toolkit, EditSet& edits)
      : context_(context), sources_(context.getSourceManager()), toolkit_(toolkit), edits_(edits) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(clang::CallExpr* call) {
    const std::string callee = callee_name(call);
    const std::optional<std::string> name = launch_api_kernel_name(call, context_);
    if (!name) return true;
    const clang::Expr* argument = call->getArg(0)->IgnoreParenImpCasts();
    if (!is_user_file(sources_, argument->getBeginLoc(), toolkit_)) return true;
    const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(argument);
    const clang::Expr* kernel = cast != nullptr ? cast->getSubExprAsWritten() : argument;
    const std::optional<FileRange> whole =
        rewritable_range(sources_, context_.getLangOpts(), argument->getSourceRange());
    const std::optional<FileRange> inner =
        rewritable_range(sources_, context_.getLangOpts(), kernel->getSourceRange());
    if (!whole || !inner || whole->file != inner->file) return true;
    const std::string origin =
        callee + " at " + describe_location(sources_, argument->getBeginLoc());
    // The cast's text replaced around the kernel, so that edits inside it (none today) could still
    // nest: `(void*)k` -> `memcarlo_named_kernel("k", k)`.
    std::string literal;
    for (const char c : *name) {
      if (c == '"' || c == '\\') literal += '\\';
      literal += c;
    }
    edits_.replace(whole->file, whole->begin, inner->begin - whole->begin,
                   "memcarlo_named_kernel(\"" + literal + "\", ", origin);
    edits_.replace(whole->file, inner->end, whole->end - inner->end, ")", origin);
    if (cast != nullptr) rewritten_.insert({whole->file, whole->begin});
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
