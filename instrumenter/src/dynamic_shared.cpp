// Rewrites of `extern __shared__` arrays for the host backend (see dynamic_shared.hpp).
#include "dynamic_shared.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

std::string dynamic_shared_declaration(const clang::ASTContext& context,
                                       const clang::VarDecl& var) {
  clang::QualType element = var.getType();
  if (const clang::ArrayType* array = context.getAsArrayType(element)) {
    element = array->getElementType();
  }
  clang::PrintingPolicy policy(context.getLangOpts());
  policy.SuppressTagKeyword = true;
  const std::string type = element.getAsString(policy);
  const std::string name = var.getNameAsString();
  if (type.find(',') == std::string::npos) {
    return "MEMCARLO_DYNAMIC_SHARED(" + type + ", " + name + ")";
  }
  const std::string alias = "memcarlo_dynamic_shared_type_" + name;
  return "using " + alias + " = " + type + "; MEMCARLO_DYNAMIC_SHARED(" + alias + ", " + name + ")";
}

namespace {

bool is_dynamic_shared(const clang::VarDecl* var) {
  return var != nullptr && var->hasAttr<clang::CUDASharedAttr>() && var->hasExternalStorage();
}

void collect_file_scope(const clang::DeclContext* context, const clang::SourceManager& sources,
                        const std::string& toolkit, std::vector<const clang::VarDecl*>& found) {
  for (const clang::Decl* decl : context->decls()) {
    if (const auto* nested = llvm::dyn_cast<clang::NamespaceDecl>(decl)) {
      collect_file_scope(nested, sources, toolkit, found);
    } else if (const auto* linkage = llvm::dyn_cast<clang::LinkageSpecDecl>(decl)) {
      collect_file_scope(linkage, sources, toolkit, found);
    } else if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl)) {
      if (is_dynamic_shared(var) && var->isFileVarDecl() &&
          is_user_file(sources, var->getLocation(), toolkit)) {
        found.push_back(var);
      }
    }
  }
}

// The file-scope dynamic shared arrays that `statement` names, in order of first use.
void collect_uses(const clang::Stmt* statement, const std::set<const clang::VarDecl*>& arrays,
                  std::vector<const clang::VarDecl*>& used) {
  if (statement == nullptr) return;
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(statement)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(reference->getDecl());
    if (var != nullptr && arrays.count(var->getCanonicalDecl()) != 0 &&
        std::find(used.begin(), used.end(), var->getCanonicalDecl()) == used.end()) {
      used.push_back(var->getCanonicalDecl());
    }
  }
  for (const clang::Stmt* child : statement->children()) collect_uses(child, arrays, used);
}

}  // namespace

void rewrite_file_scope_dynamic_shared(clang::ASTContext& context, const DeviceCode& device,
                                       const std::string& toolkit, std::vector<Edit>& edits,
                                       std::vector<std::string>& errors) {
  const clang::SourceManager& sources = context.getSourceManager();
  const clang::LangOptions& language = context.getLangOpts();
  std::vector<const clang::VarDecl*> declarations;
  collect_file_scope(context.getTranslationUnitDecl(), sources, toolkit, declarations);
  if (declarations.empty()) return;

  std::set<const clang::VarDecl*> arrays;
  std::set<clang::SourceLocation> declaration_starts;
  for (const clang::VarDecl* var : declarations) {
    arrays.insert(var->getCanonicalDecl());
    const std::string where = describe_location(sources, var->getLocation());
    const std::optional<FileRange> range = rewritable_range(
        sources, language, clang::SourceRange(var->getBeginLoc(), var->getEndLoc()));
    if (!range || !declaration_starts.insert(var->getBeginLoc()).second) {
      errors.push_back(where + ": error: cannot rewrite this namespace-scope extern __shared__ "
                       "declaration for the host backend (unsupported construct: it must declare "
                       "one array, outside a macro, as `extern __shared__ T name[];`)");
      continue;
    }
    edits.push_back({range->file, range->begin, range->end - range->begin,
                     "static_assert(true, \"extern __shared__ " + var->getNameAsString() +
                         ": declared in each function that uses it\")",
                     Edit::Role::kReplace, range->begin, range->end,
                     "namespace-scope extern __shared__ " + var->getNameAsString() + " at " +
                         where});
  }

  for (const clang::FunctionDecl* function : device.functions()) {
    const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(function->getBody());
    if (body == nullptr) continue;
    std::vector<const clang::VarDecl*> used;
    collect_uses(body, arrays, used);
    if (used.empty()) continue;
    const std::optional<FileRange> brace = rewritable_range(
        sources, language, clang::SourceRange(body->getLBracLoc(), body->getLBracLoc()));
    const std::string where = describe_location(sources, body->getLBracLoc());
    if (!brace) {
      errors.push_back(where + ": error: cannot declare the namespace-scope extern __shared__ "
                       "arrays in " + function_name(function) + " for the host backend "
                       "(unsupported construct: its body is spelled in a macro)");
      continue;
    }
    // One insertion per function: two insertions at one place would be a conflict.
    std::string text = " ";
    for (const clang::VarDecl* var : used) {
      text += dynamic_shared_declaration(context, *var) + "; ";
    }
    edits.push_back({brace->file, brace->end, 0, text, Edit::Role::kReplace, brace->end,
                     brace->end, "extern __shared__ declarations in " + function_name(function)});
  }
}

}  // namespace memcarlo::instrumenter
