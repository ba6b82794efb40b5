// Run-time kernel names for launches through function pointers.
#include "kernel_pointer_names.hpp"

#include "output_writer.hpp"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

namespace memcarlo::instrumenter {

namespace {
/// A conditional with more candidates than this is no longer a readable line of the output.
constexpr std::size_t kMaxCandidates = 16;

class KernelCollector : public clang::RecursiveASTVisitor<KernelCollector> {
 public:
  explicit KernelCollector(const clang::SourceManager& sources) : sources_(sources) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (function->hasAttr<clang::CUDAGlobalAttr>() && function->isFirstDecl() &&
        !function->isDependentContext() && !function->getType()->isDependentType() &&
        !sources_.isInSystemHeader(function->getLocation())) {
      kernels.push_back(function);
    }
    return true;
  }
  std::vector<const clang::FunctionDecl*> kernels;

 private:
  const clang::SourceManager& sources_;
};

}  // namespace

void KernelPointerNames::collect() {
  if (collected_) return;
  collected_ = true;
  KernelCollector collector(context_.getSourceManager());
  collector.TraverseDecl(context_.getTranslationUnitDecl());
  kernels_ = std::move(collector.kernels);
}

std::optional<std::string> KernelPointerNames::name(const clang::Expr* callee,
                                                   const std::string& spelled) {
  const clang::Expr* bare = callee->IgnoreParenImpCasts();
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(bare)) {
    if (llvm::isa<clang::FunctionDecl>(reference->getDecl())) return std::nullopt;
  }
  if (llvm::isa<clang::UnresolvedLookupExpr>(bare) || callee->isTypeDependent() ||
      callee->HasSideEffects(context_)) {
    return std::nullopt;
  }
  clang::QualType type = callee->getType();
  if (const auto* pointer = type->getAs<clang::PointerType>()) type = pointer->getPointeeType();
  if (!type->isFunctionType()) return std::nullopt;
  collect();
  clang::PrintingPolicy policy(context_.getLangOpts());
  policy.SuppressTagKeyword = true;
  const bool identifier = spelled.find_first_not_of(
                              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:") ==
                          std::string::npos;
  const std::string operand = identifier ? spelled : "(" + spelled + ")";
  std::string chosen;
  std::size_t candidates = 0;
  for (const clang::FunctionDecl* kernel : kernels_) {
    if (!context_.hasSameType(kernel->getType(), type)) continue;
    if (++candidates > kMaxCandidates) return std::nullopt;
    std::string kernel_name;
    llvm::raw_string_ostream stream(kernel_name);
    kernel->getNameForDiagnostic(stream, policy, /*Qualified=*/true);
    stream.flush();
    chosen += operand + " == " + kernel_name + " ? " + cpp_string_literal(kernel_name) + " : ";
  }
  if (candidates == 0) return std::nullopt;
  return "(" + chosen + cpp_string_literal(spelled) + ")";
}

}  // namespace memcarlo::instrumenter
