// Source-location and naming helpers: file ranges for rewriting, display strings, user files.
#include "ast_helpers.hpp"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "memcarlo_instrumenter_build_config.hpp"
#include "virtual_files.hpp"

namespace memcarlo::instrumenter {

namespace {
std::string squeeze_whitespace(llvm::StringRef text) {
  std::string out;
  bool pending_space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

std::string normalised_path(llvm::StringRef name) {
  llvm::SmallString<256> path(name);
  llvm::sys::fs::make_absolute(path);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return std::string(path.str());
}

bool has_prefix_dir(const std::string& path, const std::string& dir) {
  if (dir.empty() || path.size() <= dir.size()) return false;
  return path.compare(0, dir.size(), dir) == 0 && (path[dir.size()] == '/' || dir.back() == '/');
}
}  // namespace

std::optional<FileRange> rewritable_range(const clang::SourceManager& sources,
                                          const clang::LangOptions& language,
                                          clang::SourceRange range) {
  const clang::CharSourceRange chars = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(range), sources, language);
  if (chars.isInvalid()) return std::nullopt;
  const auto [begin_file, begin_offset] = sources.getDecomposedLoc(chars.getBegin());
  const auto [end_file, end_offset] = sources.getDecomposedLoc(chars.getEnd());
  if (begin_file != end_file || end_offset < begin_offset) return std::nullopt;
  const std::string path = file_path_of(sources, chars.getBegin());
  if (path.empty()) return std::nullopt;
  return FileRange{path, begin_offset, end_offset};
}

std::string source_text(const clang::SourceManager& sources, const clang::LangOptions& language,
                        clang::SourceRange range) {
  clang::CharSourceRange chars = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(range), sources, language);
  if (chars.isInvalid()) {
    // Partly inside a macro body: show the spelling of the expanded tokens instead.
    chars = clang::CharSourceRange::getTokenRange(sources.getSpellingLoc(range.getBegin()),
                                                  sources.getSpellingLoc(range.getEnd()));
  }
  bool invalid = false;
  const llvm::StringRef text = clang::Lexer::getSourceText(chars, sources, language, &invalid);
  if (invalid) return "";
  return squeeze_whitespace(text);
}

std::string file_path_of(const clang::SourceManager& sources, clang::SourceLocation location) {
  const clang::FileID file = sources.getFileID(sources.getExpansionLoc(location));
  const clang::FileEntry* entry = sources.getFileEntryForID(file);
  if (entry == nullptr) return "";
  return normalised_path(entry->getName());
}

std::string describe_location(const clang::SourceManager& sources,
                              clang::SourceLocation location) {
  const clang::PresumedLoc presumed = sources.getPresumedLoc(sources.getExpansionLoc(location));
  if (presumed.isInvalid()) return "<unknown>";
  return std::string(presumed.getFilename()) + ":" + std::to_string(presumed.getLine()) + ":" +
         std::to_string(presumed.getColumn());
}

bool is_user_file(const clang::SourceManager& sources, clang::SourceLocation location,
                  const std::string& toolkit_dir) {
  const clang::SourceLocation expansion = sources.getExpansionLoc(location);
  if (expansion.isInvalid() || sources.isInSystemHeader(expansion)) return false;
  const std::string path = file_path_of(sources, expansion);
  if (path.empty()) return false;
  if (has_prefix_dir(path, std::string(kVirtualRoot))) return false;
  if (!toolkit_dir.empty() && has_prefix_dir(path, normalised_path(toolkit_dir))) return false;
  return !has_prefix_dir(path, normalised_path(build_config::kClangResourceDir));
}

std::string callee_name(const clang::CallExpr* call) {
  if (const clang::FunctionDecl* callee = call->getDirectCallee()) {
    return callee->getNameAsString();
  }
  const clang::Expr* callee = call->getCallee()->IgnoreParenImpCasts();
  if (const auto* lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(callee)) {
    return lookup->getName().getAsString();
  }
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(callee)) {
    return reference->getNameInfo().getAsString();
  }
  if (const auto* member = llvm::dyn_cast<clang::UnresolvedMemberExpr>(callee)) {
    return member->getMemberName().getAsString();
  }
  if (const auto* member = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(callee)) {
    return member->getMember().getAsString();
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(callee)) {
    return member->getMemberDecl()->getNameAsString();
  }
  return "";
}

std::optional<std::string> cuda_builtin_index(const clang::Expr* expr) {
  expr = expr->IgnoreParenImpCasts();
  const clang::Expr* syntactic = expr;
  if (const auto* pseudo = llvm::dyn_cast<clang::PseudoObjectExpr>(expr)) {
    syntactic = pseudo->getSyntacticForm()->IgnoreParenImpCasts();
  }
  std::string field;
  const clang::Expr* base = nullptr;
  if (const auto* property = llvm::dyn_cast<clang::MSPropertyRefExpr>(syntactic)) {
    field = property->getPropertyDecl()->getName().str();
    base = property->getBaseExpr();
  } else if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(syntactic)) {
    field = member->getMemberDecl()->getNameAsString();
    base = member->getBase();
  } else {
    return std::nullopt;
  }
  base = base->IgnoreParenImpCasts();
  if (const auto* opaque = llvm::dyn_cast<clang::OpaqueValueExpr>(base)) {
    base = opaque->getSourceExpr()->IgnoreParenImpCasts();
  }
  const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(base);
  if (reference == nullptr || (field != "x" && field != "y" && field != "z")) return std::nullopt;
  const std::string name = reference->getDecl()->getNameAsString();
  if (name != "threadIdx" && name != "blockIdx" && name != "blockDim" && name != "gridDim") {
    return std::nullopt;
  }
  return name + "." + field;
}

std::string type_name(const clang::ASTContext& context, clang::QualType type) {
  clang::PrintingPolicy policy(context.getLangOpts());
  policy.SuppressTagKeyword = true;
  policy.SuppressScope = false;
  policy.FullyQualifiedName = false;
  return type.getUnqualifiedType().getAsString(policy);
}

std::string function_name(const clang::FunctionDecl* function) {
  if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function)) {
    if (method->getParent()->isLambda()) {
      const auto* outer = llvm::dyn_cast_or_null<clang::FunctionDecl>(
          method->getParent()->getParentFunctionOrMethod());
      return (outer != nullptr ? function_name(outer) : std::string("")) + "::(lambda)";
    }
  }
  return function->getQualifiedNameAsString();
}

bool is_device_function(const clang::FunctionDecl* function) {
  return function->hasAttr<clang::CUDADeviceAttr>() || function->hasAttr<clang::CUDAGlobalAttr>();
}

void collect_variables(const clang::Stmt* statement, std::set<const clang::VarDecl*>& out) {
  if (statement == nullptr) return;
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(statement)) {
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(reference->getDecl())) out.insert(var);
  }
  for (const clang::Stmt* child : statement->children()) collect_variables(child, out);
}

}  // namespace memcarlo::instrumenter
