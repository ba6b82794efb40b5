// Launch rewriting: finds CUDAKernelCallExprs (host code; device code too for the host backend)
// and emits the backend's form.
#include "launch_rewriter.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

#include "ast_helpers.hpp"
#include "kernel_pointer_names.hpp"
#include "launch_kernel_casts.hpp"

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

/// Whether a kernel argument may be evaluated a second time, by the cuda backend's
/// memcarlo_launch_arguments hook before the launch: no assignment or increment, and, stricter
/// than for the configuration, no call (an argument such as `next_buffer()` may allocate), no
/// lambda and no braced list (which a function template cannot take).
bool evaluable_twice(const clang::Stmt* statement) {
  if (statement == nullptr) return true;
  if (writes_something(statement)) return false;
  if (llvm::isa<clang::CallExpr>(statement) || llvm::isa<clang::LambdaExpr>(statement) ||
      llvm::isa<clang::InitListExpr>(statement) ||
      llvm::isa<clang::CXXStdInitializerListExpr>(statement)) {
    return false;
  }
  for (const clang::Stmt* child : statement->children()) {
    if (!evaluable_twice(child)) return false;
  }
  return true;
}

/// Where a launch is spelled, as offsets into one file's text: the callee, `<<<`, `>>>`, the `(`
/// of the arguments and the closing `)`. For a launch written in a macro's replacement list these
/// are offsets into the #define, so that one edit serves every expansion.
struct LaunchText {
  clang::FileID file;
  unsigned callee = 0;
  unsigned callee_end = 0;  // one past the callee's last character
  unsigned open = 0;
  unsigned close = 0;
  unsigned left = 0;
  unsigned right = 0;
  bool in_macro_body = false;
  bool callee_is_parameter = false;  // the callee is a parameter of that macro
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
        facts_(facts),
        pointer_names_(context) {}

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
      // Dynamic parallelism. The GPU runs it as written; a C++ compiler needs memcarlo_launch,
      // which the host emulation stops at, naming the kernel and the line.
      if (backend_ == Backend::kCuda) {
        facts_.skipped.push_back({where, text, "device-side launch"});
        return true;
      }
      const std::string warning = where + ": the kernel launch `" + text + "` in device code (" +
                                  function_name(function) +
                                  ") is dynamic parallelism, which the host backend does not "
                                  "emulate: the program stops with an error when it runs";
      if (std::find(facts_.warnings.begin(), facts_.warnings.end(), warning) ==
          facts_.warnings.end()) {
        facts_.warnings.push_back(warning);
      }
    }
    const bool in_instantiation = function != nullptr && function->isTemplateInstantiation();
    if (backend_ == Backend::kCuda && in_instantiation) return true;  // the pattern is enough
    if (!callee_is_known(launch)) return true;  // dependent and deduced: instantiations do it
    // A launch in an uninstantiated template (its pattern) never runs as such.
    plan(launch, where, text, function == nullptr || !function->isDependentContext());
    return true;
  }

  /// cudaLaunchKernel and cudaLaunchCooperativeKernel from user code: the host runtime names such
  /// launches after the call.
  bool VisitCallExpr(clang::CallExpr* call) {
    if (backend_ != Backend::kHost || llvm::isa<clang::CUDAKernelCallExpr>(call)) return true;
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr || !callee->getDeclName().isIdentifier() ||
        (callee->getName() != "cudaLaunchKernel" &&
         callee->getName() != "cudaLaunchCooperativeKernel") ||
        !is_user_file(sources_, call->getBeginLoc(), toolkit_)) {
      return true;
    }
    const clang::FunctionDecl* function = functions_.empty() ? nullptr : functions_.back();
    if (function == nullptr || !function->isDependentContext()) {
      // Named by its kernel when the call names one (launch_kernel_casts.cpp), else by the call.
      const std::optional<std::string> kernel = launch_api_kernel_name(call, context_);
      facts_.launch_names.insert(kernel ? *kernel : callee->getName().str());
    }
    return true;
  }

  /// Adds the edits of every launch place. Where the instances of one place (instantiations of
  /// a template, expansions of a macro) would be rewritten differently (a kernel template whose
  /// arguments are deduced differently in each), one form that suits them all replaces them.
  void finish() {
    for (auto& [key, place] : places_) {
      if (place.variants.empty()) continue;
      const std::vector<Edit>* chosen = &place.variants.front();
      if (place.variants.size() > 1 && place.generic) {
        chosen = &*place.generic;
        facts_.kernel_thunks = facts_.kernel_thunks || backend_ == Backend::kHost;
      }
      if (place.variants.size() > 1 && !place.generic) {
        for (const std::vector<Edit>& variant : place.variants) {
          for (const Edit& edit : variant) edits_.add(edit);  // reported as a conflict
        }
        continue;
      }
      for (const Edit& edit : *chosen) edits_.add(edit);
      ++facts_.rewritten;
      if (place.reached && backend_ == Backend::kHost) {
        note_launch_name(place.generic && chosen == &*place.generic ? place.generic_name
                                                                    : place.names.front());
      }
    }
  }

 private:
  struct Place {
    std::vector<std::vector<Edit>> variants;  // distinct edit lists of the instances
    std::vector<std::string> names;  // the kernel name each variant passes (C++ expression)
    std::optional<std::vector<Edit>> generic;  // a form valid for every instance
    std::string generic_name;
    bool reached = false;  // some instance is outside an uninstantiated template
  };

  /// Adds the name that a launch passes (a C string literal, or an expression evaluated at run
  /// time) to the unit's launch names.
  void note_launch_name(const std::string& expression) {
    if (expression.size() < 2 || expression.front() != '"' || expression.back() != '"') {
      facts_.launch_names_complete = false;
      return;
    }
    std::string name;
    for (std::size_t i = 1; i + 1 < expression.size(); ++i) {
      if (expression[i] == '\\' && i + 2 < expression.size()) ++i;  // c_string's escapes
      name.push_back(expression[i]);
    }
    facts_.launch_names.insert(name);
  }

  const clang::Expr* callee_of(const clang::CUDAKernelCallExpr* launch) const {
    return launch->getCallee()->IgnoreParenImpCasts();
  }

  /// False for a deduced kernel template in a template pattern on the host backend: what the
  /// launch calls is only known per instantiation.
  bool callee_is_known(const clang::CUDAKernelCallExpr* launch) const {
    const auto* lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(callee_of(launch));
    if (lookup == nullptr || lookup->hasExplicitTemplateArgs() || backend_ != Backend::kHost) {
      return true;
    }
    for (const clang::NamedDecl* candidate : lookup->decls()) {
      if (llvm::isa<clang::FunctionTemplateDecl>(candidate)) return false;
    }
    return true;
  }

  /// The kernel's name for the runtime: the callee as spelled, with deduced template arguments
  /// (without a launch: as spelled).
  std::string kernel_name(const clang::CUDAKernelCallExpr* launch,
                          const std::string& spelled) const {
    std::string squeezed;
    for (char c : spelled) {
      const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\';
      if (space && !squeezed.empty() && squeezed.back() != ' ') squeezed.push_back(' ');
      if (!space) squeezed.push_back(c);
    }
    while (!squeezed.empty() && squeezed.back() == ' ') squeezed.pop_back();
    if (launch == nullptr) return squeezed;
    const std::string called = host_callee(launch, squeezed);
    return called.rfind("static_cast<", 0) == 0 ? squeezed : called;
  }

  /// What the host backend calls, given the callee as spelled: deduced template arguments are
  /// spelled out and an overloaded kernel gets a cast to its type. These depend on the
  /// instance.
  std::string host_callee(const clang::CUDAKernelCallExpr* launch,
                          const std::string& spelled) const {
    clang::PrintingPolicy policy(context_.getLangOpts());
    policy.SuppressTagKeyword = true;
    const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(callee_of(launch));
    if (reference == nullptr) return spelled;
    const auto* function = llvm::dyn_cast<clang::FunctionDecl>(reference->getDecl());
    if (function == nullptr) return spelled;
    const clang::TemplateArgumentList* deduced = function->getTemplateSpecializationArgs();
    // All arguments spelled out when some were deduced: `fill` -> `fill<int>`, and
    // `block_sum<128>` (T deduced) -> `block_sum<128, int>`.
    if (deduced != nullptr && (!reference->hasExplicitTemplateArgs() ||
                               reference->getNumTemplateArgs() < deduced->size())) {
      const unsigned given = reference->hasExplicitTemplateArgs()
                                 ? reference->getNumTemplateArgs()
                                 : 0;
      std::string arguments;
      llvm::raw_string_ostream stream(arguments);
      clang::printTemplateArgumentList(stream, deduced->asArray().drop_front(given), policy);
      stream.flush();
      const size_t close = spelled.rfind('>');
      if (given == 0 || close == std::string::npos) return spelled + arguments;
      // The given arguments as written, then the deduced ones (without their <>).
      return spelled.substr(0, close) + ", " + arguments.substr(1, arguments.size() - 2) + ">";
    }
    if (reference->hadMultipleCandidates() &&
        function->getTemplateSpecializationArgs() == nullptr) {
      const std::string pointer = context_.getPointerType(function->getType()).getAsString(policy);
      return "static_cast<" + pointer + ">(" + spelled + ")";
    }
    return spelled;
  }

  /// `location` as a place in the text the launch is spelled in: for a launch in a macro's
  /// replacement list, a token that came from a macro argument is followed back to the
  /// parameter it replaced.
  clang::SourceLocation in_context(clang::SourceLocation location,
                                   const std::optional<clang::FileID>& body,
                                   bool* from_argument = nullptr) const {
    if (!body) return location;
    while (location.isMacroID() && sources_.getFileID(location) != *body &&
           sources_.isMacroArgExpansion(location)) {
      // An argument's token expands where its parameter stands in the replacement list.
      location = sources_.getImmediateExpansionRange(location).getBegin();
      if (from_argument != nullptr) *from_argument = true;
    }
    return location;
  }

  /// The file offset of `location` in `context`, when it is spelled in the same text as the
  /// launch's `<<<`.
  std::optional<unsigned> offset_of(clang::SourceLocation location,
                                    const std::optional<clang::FileID>& body,
                                    clang::FileID text) const {
    if (location.isInvalid()) return std::nullopt;
    location = in_context(location, body);
    if (body ? sources_.getFileID(location) != *body
             : location.isMacroID() && !sources_.isMacroArgExpansion(location)) {
      return std::nullopt;
    }
    const clang::SourceLocation spelled = sources_.getSpellingLoc(location);
    if (spelled.isMacroID() || sources_.getFileID(spelled) != text) return std::nullopt;
    return sources_.getFileOffset(spelled);
  }

  std::optional<LaunchText> locate(const clang::CUDAKernelCallExpr* launch) const {
    const clang::LangOptions& language = context_.getLangOpts();
    const clang::CallExpr* config = launch->getConfig();
    const clang::SourceLocation open = config->getBeginLoc();
    if (open.isInvalid() || config->getRParenLoc().isInvalid()) return std::nullopt;
    std::optional<clang::FileID> body;
    if (open.isMacroID() && !sources_.isMacroArgExpansion(open)) body = sources_.getFileID(open);
    const clang::SourceLocation open_spelled = sources_.getSpellingLoc(open);
    if (open_spelled.isMacroID()) return std::nullopt;
    LaunchText text;
    text.file = sources_.getFileID(open_spelled);
    text.in_macro_body = body.has_value();
    const clang::Expr* callee = launch->getCallee();
    bool from_argument = false;
    in_context(callee->getBeginLoc(), body, &from_argument);
    text.callee_is_parameter = body.has_value() && from_argument;
    const auto callee_begin = offset_of(callee->getBeginLoc(), body, text.file);
    const auto callee_last = offset_of(callee->getEndLoc(), body, text.file);
    const auto close = offset_of(config->getRParenLoc(), body, text.file);
    const auto right = offset_of(launch->getRParenLoc(), body, text.file);
    if (!callee_begin || !callee_last || !close || !right) return std::nullopt;
    text.callee = *callee_begin;
    text.open = sources_.getFileOffset(open_spelled);
    text.close = *close;
    text.right = *right;
    const clang::SourceLocation last = sources_.getComposedLoc(text.file, *callee_last);
    text.callee_end = *callee_last + clang::Lexer::MeasureTokenLength(last, sources_, language);
    const std::optional<clang::Token> paren = clang::Lexer::findNextToken(
        sources_.getComposedLoc(text.file, text.close), sources_, language);
    if (!paren || !paren->is(clang::tok::l_paren)) return std::nullopt;
    text.left = sources_.getFileOffset(paren->getLocation());
    bool invalid = false;
    const llvm::StringRef buffer = sources_.getBufferData(text.file, &invalid);
    if (invalid) return std::nullopt;
    // The callee must end right before `<<<` (nothing of another expansion in between), and the
    // pieces must come in order.
    if (!(text.callee <= text.callee_end && text.callee_end <= text.open && text.open < text.close &&
          text.close < text.left && text.left <= text.right && text.right < buffer.size())) {
      return std::nullopt;
    }
    if (!buffer.slice(text.callee_end, text.open).trim().empty()) return std::nullopt;
    // A replacement inside a #define must stay on its logical line.
    if (body && (buffer.slice(text.callee, text.open).contains('\n') ||
                 buffer.slice(text.close, text.left).contains('\n'))) {
      return std::nullopt;
    }
    return text;
  }

  /// The spelling of `expr` in the launch's text, or nullopt.
  std::optional<std::string> spelled(const clang::Expr* expr, const LaunchText& text,
                                     const clang::CUDAKernelCallExpr* launch) const {
    std::optional<clang::FileID> body;
    const clang::SourceLocation open = launch->getConfig()->getBeginLoc();
    if (text.in_macro_body) body = sources_.getFileID(open);
    const auto begin = offset_of(expr->getBeginLoc(), body, text.file);
    const auto last = offset_of(expr->getEndLoc(), body, text.file);
    if (!begin || !last || *last < *begin) return std::nullopt;
    const unsigned end = *last + clang::Lexer::MeasureTokenLength(
                                     sources_.getComposedLoc(text.file, *last), sources_,
                                     context_.getLangOpts());
    bool invalid = false;
    const llvm::StringRef buffer = sources_.getBufferData(text.file, &invalid);
    if (invalid || end > buffer.size()) return std::nullopt;
    return on_one_line(text.file, *begin, end);
  }

  /// The text of `file` in [begin, end) on one line, for a copy of it inside another edit:
  /// comments become a space (a `//` comment would otherwise swallow the rest of the line it is
  /// joined to) and line breaks and the continuation backslashes of a #define become spaces.
  std::string on_one_line(clang::FileID file, unsigned begin, unsigned end) const {
    bool invalid = false;
    const llvm::StringRef buffer = sources_.getBufferData(file, &invalid);
    if (invalid)
      return "";
    std::string out;
    auto copy = [&](unsigned from, unsigned to) {
      for (char c : buffer.slice(from, to)) {
        out.push_back(c == '\\' || c == '\n' || c == '\r' ? ' ' : c);
      }
    };
    clang::Lexer lexer(sources_.getLocForStartOfFile(file), context_.getLangOpts(), buffer.begin(),
                       buffer.begin() + begin, buffer.end());
    lexer.SetCommentRetentionState(true);
    unsigned at = begin;
    clang::Token token;
    while (at < end) {
      const bool last = lexer.LexFromRawLexer(token);
      const unsigned offset = sources_.getFileOffset(token.getLocation());
      if (token.is(clang::tok::eof) || offset >= end)
        break;
      const unsigned token_end = std::min(end, offset + token.getLength());
      copy(at, offset);
      if (token.is(clang::tok::comment)) {
        out.push_back(' ');
      } else {
        copy(offset, token_end);
      }
      at = token_end;
      if (last)
        break;
    }
    if (at < end)
      copy(at, end);
    return out;
  }

  void plan(const clang::CUDAKernelCallExpr* launch, const std::string& where,
            const std::string& text, bool reached) {
    const std::optional<LaunchText> place = locate(launch);
    if (!place) {
      const std::string reason = "launch spelled inside a macro";
      if (backend_ == Backend::kHost) {
        facts_.errors.push_back(where + ": error: cannot rewrite the kernel launch `" + text +
                                "` for the host backend: its <<<...>>> is spelled partly inside "
                                "a macro (unsupported construct); expand the macro or use "
                                "--backend cuda");
      } else {
        facts_.skipped.push_back({where, text, reason});
      }
      return;
    }
    const clang::FileEntry* entry = sources_.getFileEntryForID(place->file);
    if (entry == nullptr) return;
    const std::string file = file_path_of(sources_, sources_.getLocForStartOfFile(place->file));
    bool invalid = false;
    const llvm::StringRef buffer = sources_.getBufferData(place->file, &invalid);
    if (invalid) return;
    const std::string callee = buffer.slice(place->callee, place->callee_end).str();
    // The kernel's name for the runtime: a parameter of the macro the launch is written in is
    // stringized, so that each expansion names its own kernel.
    const bool identifier =
        !callee.empty() && callee.find_first_not_of(
                               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
                               std::string::npos;
    std::string name =
        place->callee_is_parameter && identifier ? "#" + callee : c_string(kernel_name(launch, callee));
    if (name[0] == '"' && callee.find('\n') == std::string::npos) {
      // A launch through a function pointer: named after the kernel it calls, at run time.
      if (std::optional<std::string> chosen = pointer_names_.name(launch->getCallee(), callee)) {
        name = *chosen;
      }
    }
    const clang::CallExpr* config = launch->getConfig();
    unsigned explicit_arguments = 0;
    std::vector<std::string> configuration;
    bool side_effects = false;
    for (const clang::Expr* argument : config->arguments()) {
      if (llvm::isa<clang::CXXDefaultArgExpr>(argument)) continue;
      ++explicit_arguments;
      side_effects = side_effects || writes_something(argument);
      if (backend_ == Backend::kCuda) {
        const std::optional<std::string> argument_text = spelled(argument, *place, launch);
        if (!argument_text) {
          facts_.skipped.push_back({where, text, "launch spelled inside a macro"});
          return;
        }
        configuration.push_back(*argument_text);
      }
    }
    const std::string origin = "launch at " + where;
    const auto key = std::make_pair(file, place->callee);
    std::vector<Edit> edits;
    Place& slot = places_[key];
    slot.reached = slot.reached || reached;
    if (backend_ == Backend::kHost) {
      std::string missing;
      for (unsigned i = explicit_arguments; i < 4; ++i) missing += ", 0";
      const std::string rest = missing + (launch->getNumArgs() > 0 ? ", " : "");
      const std::string generic_name =
          name[0] == '"' ? c_string(kernel_name(nullptr, callee)) : name;
      // A launch that leaves out arguments the kernel defaults (`scan<<<g, b>>>(data, 32)` of
      // `scan(int*, int, int* partials = NULL)`) calls the kernel from the thunk, where C++ fills
      // them in; a function pointer carries no default arguments.
      const bool defaulted =
          std::any_of(launch->arg_begin(), launch->arg_end(), [](const clang::Expr* argument) {
            return llvm::isa<clang::CXXDefaultArgExpr>(argument);
          });
      if (defaulted) {
        edits = thunk(*place, file, name, callee, rest, origin);
        facts_.kernel_thunks = true;
      } else {
        edits.push_back(replacement(file, place->callee, place->open + 3,
                                    "memcarlo_launch(" + name + ", " +
                                        host_callee(launch, callee) + ", ",
                                    origin));
        edits.push_back(replacement(file, place->close, place->left + 1, rest, origin));
      }
      if (!slot.generic) {
        slot.generic = thunk(*place, file, generic_name, callee, rest, origin);
        slot.generic_name = generic_name;
      }
    } else {
      if (side_effects) {
        facts_.skipped.push_back({where, text, "launch configuration has side effects"});
        places_.erase(key);
        return;
      }
      while (configuration.size() < 4) configuration.push_back("0");
      // The kernel arguments as spelled, for the trace's kernel_arguments record, when a second
      // evaluation changes nothing.
      std::optional<std::string> recorded_arguments;
      if (std::all_of(launch->arg_begin(), launch->arg_end(),
                      [](const clang::Expr* argument) { return evaluable_twice(argument); })) {
        if (place->right <= buffer.size() && place->left < place->right) {
          // Joined on one line without comments, like every copy of launch text (a `//` comment
          // inside the argument list would swallow the rest of the hook).
          recorded_arguments = on_one_line(place->file, place->left + 1, place->right);
        }
      }
      auto hooks = [&](const std::string& kernel) {
        std::string hook = "(memcarlo_launch_begin(" + kernel;
        for (const std::string& argument : configuration) hook += ", " + argument;
        hook += "), ";
        if (recorded_arguments) hook += "memcarlo_launch_arguments(" + *recorded_arguments + "), ";
        return std::vector<Edit>{
            {file, place->callee, 0, hook, Edit::Role::kOpen, place->callee, place->right + 1,
             origin},
            {file, place->right + 1, 0, ", memcarlo_launch_end())", Edit::Role::kClose,
             place->callee, place->right + 1, origin}};
      };
      edits = hooks(name);
      // Instances that deduce different kernels share the name as spelled.
      if (!slot.generic) {
        slot.generic = hooks(name[0] == '"' ? c_string(kernel_name(nullptr, callee)) : name);
      }
    }
    if (std::find(slot.variants.begin(), slot.variants.end(), edits) == slot.variants.end()) {
      slot.variants.push_back(std::move(edits));
      slot.names.push_back(name);
    }
  }

  static Edit replacement(const std::string& file, unsigned begin, unsigned end, std::string text,
                          const std::string& origin) {
    return {file, begin, end - begin, std::move(text), Edit::Role::kReplace, begin, end, origin};
  }

  /// The host form that leaves overload resolution to each instance: a plain function of the
  /// arguments' types calls the kernel as the launch did, e.g. for `fill<<<g, b>>>(d, n)`
  /// memcarlo_launch("fill", decltype(memcarlo_kernel_signature(d, n))::thunk([](auto... a) {
  /// fill(a...); }), g, b, 0, 0, d, n) (the arguments in decltype are not evaluated).
  std::vector<Edit> thunk(const LaunchText& place, const std::string& file,
                          const std::string& name, const std::string& callee,
                          const std::string& rest, const std::string& origin) const {
    const std::string arguments = on_one_line(place.file, place.left + 1, place.right);
    return std::vector<Edit>{
        replacement(file, place.callee, place.open + 3,
                    "memcarlo_launch(" + name + ", decltype(memcarlo_kernel_signature(" +
                        arguments + "))::thunk([](auto... memcarlo_arguments) { " + callee +
                        "(memcarlo_arguments...); }), ",
                    origin),
        replacement(file, place.close, place.left + 1, rest, origin)};
  }

  clang::ASTContext& context_;
  const clang::SourceManager& sources_;
  Backend backend_;
  const std::string& toolkit_;
  EditSet& edits_;
  LaunchFacts& facts_;
  KernelPointerNames pointer_names_;
  std::vector<const clang::FunctionDecl*> functions_;
  std::map<std::pair<std::string, unsigned>, Place> places_;
};
}  // namespace

LaunchFacts rewrite_launches(clang::ASTContext& context, Backend backend,
                             const std::string& toolkit, EditSet& edits) {
  LaunchFacts facts;
  LaunchFinder finder(context, backend, toolkit, edits, facts);
  finder.TraverseDecl(context.getTranslationUnitDecl());
  finder.finish();
  return facts;
}

}  // namespace memcarlo::instrumenter
