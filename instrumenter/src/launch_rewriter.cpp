// Launch rewriting: finds CUDAKernelCallExprs in host code and emits the backend's form.
#include "launch_rewriter.hpp"

#include <optional>
#include <set>

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

namespace {
std::string c_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

/// Assignments and increments: evaluating them twice (hook and launch) would change the program.
/// Calls are assumed to be pure helpers such as a ceiling division.
bool writes_something(const clang::Stmt* statement) {
  if (statement == nullptr) return false;
  if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(statement)) {
    if (binary->isAssignmentOp()) return true;
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(statement)) {
    if (unary->isIncrementDecrementOp()) return true;
  }
  for (const clang::Stmt* child : statement->children()) {
    if (writes_something(child)) return true;
  }
  return false;
}

struct Spot {
  clang::FileID file;
  unsigned offset = 0;
};

class LaunchFinder : public clang::RecursiveASTVisitor<LaunchFinder> {
 public:
  LaunchFinder(clang::ASTContext& context, Backend backend, const std::string& toolkit,
               EditSet& edits, LaunchFacts& facts)
      : context_(context),
        sources_(context.getSourceManager()),
        backend_(backend),
        toolkit_(toolkit),
        edits_(edits),
        facts_(facts) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(clang::Decl* decl) {
    if (decl == nullptr) return true;
    if (!llvm::isa<clang::TranslationUnitDecl>(decl) && decl->getLocation().isValid() &&
        sources_.isInSystemHeader(decl->getLocation())) {
      return true;  // no launches to rewrite in system headers
    }
    const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl);
    if (function != nullptr) functions_.push_back(function);
    const bool result = clang::RecursiveASTVisitor<LaunchFinder>::TraverseDecl(decl);
    if (function != nullptr) functions_.pop_back();
    return result;
  }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr* launch) {
    if (!is_user_file(sources_, launch->getBeginLoc(), toolkit_)) return true;
    const clang::FunctionDecl* function = functions_.empty() ? nullptr : functions_.back();
    const std::string where = describe_location(sources_, launch->getBeginLoc());
    const std::string text = source_text(sources_, context_.getLangOpts(),
                                         launch->getSourceRange());
    if (function != nullptr && is_device_function(function) &&
        !function->hasAttr<clang::CUDAHostAttr>()) {
      facts_.skipped.push_back({where, text, "device-side launch"});
      return true;
    }
    const bool in_instantiation = function != nullptr && function->isTemplateInstantiation();
    if (backend_ == Backend::kCuda && in_instantiation) return true;  // the pattern is enough
    std::optional<Callee> callee = describe_callee(launch);
    if (!callee) return true;  // dependent and deduced: each instantiation supplies its own
    rewrite(launch, *callee, where, text);
    return true;
  }

 private:
  struct Callee {
    std::string name;  // the string given to the runtime
    std::string text;  // what the host backend calls
  };

  std::optional<Callee> describe_callee(const clang::CUDAKernelCallExpr* launch) const {
    const clang::Expr* callee = launch->getCallee()->IgnoreParenImpCasts();
    const clang::LangOptions& language = context_.getLangOpts();
    const std::string spelled = source_text(sources_, language, callee->getSourceRange());
    clang::PrintingPolicy policy(language);
    policy.SuppressTagKeyword = true;
    if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(callee)) {
      const auto* function = llvm::dyn_cast<clang::FunctionDecl>(reference->getDecl());
      if (function != nullptr && function->getTemplateSpecializationArgs() != nullptr &&
          !reference->hasExplicitTemplateArgs()) {
        std::string arguments;
        llvm::raw_string_ostream stream(arguments);
        clang::printTemplateArgumentList(stream,
                                         function->getTemplateSpecializationArgs()->asArray(),
                                         policy);
        stream.flush();
        return Callee{spelled + arguments, spelled + arguments};
      }
      if (function != nullptr && reference->hadMultipleCandidates() &&
          function->getTemplateSpecializationArgs() == nullptr) {
        const std::string pointer =
            context_.getPointerType(function->getType()).getAsString(policy);
        return Callee{spelled, "static_cast<" + pointer + ">(" + spelled + ")"};
      }
      return Callee{spelled, spelled};
    }
    if (const auto* lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(callee)) {
      if (!lookup->hasExplicitTemplateArgs() && backend_ == Backend::kHost) {
        bool templated = false;
        for (const clang::NamedDecl* candidate : lookup->decls()) {
          templated = templated || llvm::isa<clang::FunctionTemplateDecl>(candidate);
        }
        if (templated) return std::nullopt;
      }
    }
    return Callee{spelled, spelled};
  }

  std::optional<Spot> spot(clang::SourceLocation location) const {
    if (location.isMacroID()) {
      if (!sources_.isMacroArgExpansion(location)) return std::nullopt;
      location = sources_.getSpellingLoc(location);
      if (location.isMacroID()) return std::nullopt;
    }
    const auto [file, offset] = sources_.getDecomposedLoc(location);
    return Spot{file, offset};
  }

  void rewrite(const clang::CUDAKernelCallExpr* launch, const Callee& callee,
               const std::string& where, const std::string& text) {
    const clang::LangOptions& language = context_.getLangOpts();
    const clang::CallExpr* config = launch->getConfig();
    const clang::SourceLocation open_location = config->getBeginLoc();
    const clang::SourceLocation close_location = config->getRParenLoc();
    std::optional<clang::Token> paren;
    if (close_location.isValid()) {
      paren = clang::Lexer::findNextToken(sources_.getSpellingLoc(close_location), sources_,
                                          language);
    }
    const std::optional<Spot> begin = spot(launch->getCallee()->getBeginLoc());
    const std::optional<Spot> open = spot(open_location);
    const std::optional<Spot> close = spot(close_location);
    const std::optional<Spot> left = paren ? spot(paren->getLocation()) : std::nullopt;
    const std::optional<Spot> right = spot(launch->getRParenLoc());
    const bool usable = begin && open && close && left && right && paren->is(clang::tok::l_paren) &&
                        begin->file == open->file && open->file == close->file &&
                        close->file == left->file && left->file == right->file;
    if (!usable) {
      const std::string reason = "launch spelled inside a macro";
      if (backend_ == Backend::kHost) {
        facts_.errors.push_back(where + ": error: cannot rewrite the kernel launch `" + text +
                                "` for the host backend: its <<<...>>> is spelled inside a "
                                "macro (unsupported construct); expand the macro or use "
                                "--backend cuda");
      } else {
        facts_.skipped.push_back({where, text, reason});
      }
      return;
    }
    const clang::FileEntry* entry = sources_.getFileEntryForID(begin->file);
    if (entry == nullptr) return;
    const std::string file = file_path_of(sources_, sources_.getLocForStartOfFile(begin->file));
    unsigned explicit_arguments = 0;
    std::vector<std::string> configuration;
    bool side_effects = false;
    for (const clang::Expr* argument : config->arguments()) {
      if (llvm::isa<clang::CXXDefaultArgExpr>(argument)) continue;
      ++explicit_arguments;
      configuration.push_back(source_text(sources_, language, argument->getSourceRange()));
      side_effects = side_effects || writes_something(argument);
    }
    const std::string origin = "launch at " + where;
    if (backend_ == Backend::kHost) {
      std::string missing;
      for (unsigned i = explicit_arguments; i < 4; ++i) missing += ", 0";
      edits_.replace(file, begin->offset, open->offset + 3 - begin->offset,
                     "memcarlo_launch(" + c_string(callee.name) + ", " + callee.text + ", ",
                     origin);
      edits_.replace(file, close->offset, left->offset + 1 - close->offset,
                     missing + (launch->getNumArgs() > 0 ? ", " : ""), origin);
    } else {
      if (side_effects) {
        facts_.skipped.push_back({where, text, "launch configuration has side effects"});
        return;
      }
      while (configuration.size() < 4) configuration.push_back("0");
      std::string hook = "(memcarlo_launch_begin(" + c_string(callee.name);
      for (const std::string& argument : configuration) hook += ", " + argument;
      hook += "), ";
      edits_.wrap(file, begin->offset, right->offset + 1, hook, ", memcarlo_launch_end())",
                  origin);
    }
    counted_.insert({file, begin->offset});
    facts_.rewritten = static_cast<unsigned>(counted_.size());
  }

  clang::ASTContext& context_;
  const clang::SourceManager& sources_;
  Backend backend_;
  const std::string& toolkit_;
  EditSet& edits_;
  LaunchFacts& facts_;
  std::vector<const clang::FunctionDecl*> functions_;
  std::set<std::pair<std::string, unsigned>> counted_;
};
}  // namespace

LaunchFacts rewrite_launches(clang::ASTContext& context, Backend backend,
                             const std::string& toolkit, EditSet& edits) {
  LaunchFacts facts;
  LaunchFinder(context, backend, toolkit, edits, facts)
      .TraverseDecl(context.getTranslationUnitDecl());
  return facts;
}

}  // namespace memcarlo::instrumenter
