// String symbol names of the CUDA 2-4 runtime API, replaced by the variables they name.
#include "symbol_names.hpp"

#include <map>
#include <set>

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

namespace {
/// The argument that names the symbol, by runtime function.
const std::map<std::string, unsigned>& symbol_arguments() {
  static const std::map<std::string, unsigned> arguments = {
      {"cudaMemcpyToSymbol", 0},   {"cudaMemcpyToSymbolAsync", 0},
      {"cudaMemcpyFromSymbol", 1}, {"cudaMemcpyFromSymbolAsync", 1},
      {"cudaGetSymbolAddress", 1}, {"cudaGetSymbolSize", 1}};
  return arguments;
}

class SymbolNameFinder : public clang::RecursiveASTVisitor<SymbolNameFinder> {
 public:
  SymbolNameFinder(clang::ASTContext& context, const std::string& toolkit, EditSet& edits)
      : context_(context), sources_(context.getSourceManager()), toolkit_(toolkit), edits_(edits) {
    for (const clang::Decl* decl : context.getTranslationUnitDecl()->decls()) {
      const auto* variable = llvm::dyn_cast<clang::VarDecl>(decl);
      if (variable != nullptr && (variable->hasAttr<clang::CUDADeviceAttr>() ||
                                  variable->hasAttr<clang::CUDAConstantAttr>())) {
        device_variables_.insert(variable->getNameAsString());
      }
    }
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    const auto found = symbol_arguments().find(callee_name(call));
    if (found == symbol_arguments().end() || call->getNumArgs() <= found->second) return true;
    const auto* literal =
        llvm::dyn_cast<clang::StringLiteral>(call->getArg(found->second)->IgnoreParenImpCasts());
    if (literal == nullptr || !literal->isOrdinary() || literal->getNumConcatenated() != 1 ||
        device_variables_.count(literal->getString().str()) == 0 ||
        !is_user_file(sources_, literal->getBeginLoc(), toolkit_)) {
      return true;
    }
    const std::optional<FileRange> range =
        rewritable_range(sources_, context_.getLangOpts(), literal->getSourceRange());
    if (!range) return true;
    edits_.replace(range->file, range->begin, range->end - range->begin,
                   literal->getString().str(),
                   "symbol name at " + describe_location(sources_, literal->getBeginLoc()));
    rewritten_.insert({range->file, range->begin});
    return true;
  }

  [[nodiscard]] unsigned rewritten() const { return static_cast<unsigned>(rewritten_.size()); }

 private:
  clang::ASTContext& context_;
  const clang::SourceManager& sources_;
  const std::string& toolkit_;
  EditSet& edits_;
  std::set<std::string> device_variables_;
  std::set<std::pair<std::string, unsigned>> rewritten_;
};
}  // namespace

unsigned rewrite_symbol_names(clang::ASTContext& context, const std::string& toolkit,
                              EditSet& edits) {
  SymbolNameFinder finder(context, toolkit, edits);
  finder.TraverseDecl(context.getTranslationUnitDecl());
  return finder.rewritten();
}

}  // namespace memcarlo::instrumenter
