// One Clang invocation per (side, setup) with an in-memory overlay and collected diagnostics;
// a second round that may accept host-side errors when no setup parses cleanly.
#include "parse_driver.hpp"

#include <algorithm>
#include <memory>

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"

#include "virtual_files.hpp"

namespace memcarlo::instrumenter {

namespace {
/// Keeps error messages with their file:line:col instead of printing them.
class DiagnosticCollector : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    ParseError error;
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      const clang::PresumedLoc presumed =
          info.getSourceManager().getPresumedLoc(info.getLocation());
      if (presumed.isValid()) {
        error.text = std::string(presumed.getFilename()) + ":" +
                     std::to_string(presumed.getLine()) + ":" +
                     std::to_string(presumed.getColumn()) + ": ";
      }
    }
    error.fatal = level == clang::DiagnosticsEngine::Fatal;
    error.text += (error.fatal ? "fatal error: " : "error: ");
    error.text += message.str();
    error.location = info.getLocation();
    const unsigned category = clang::DiagnosticIDs::getCategoryNumberForDiag(info.getID());
    error.semantic = clang::DiagnosticIDs::getCategoryNameFromID(category) == "Semantic Issue";
    errors_.push_back(std::move(error));
  }
  [[nodiscard]] const std::vector<ParseError>& errors() const { return errors_; }

 private:
  std::vector<ParseError> errors_;
};

/// What one parse does with its AST: the callback when there was no error, or when there were
/// only errors that `tolerance` (if any) accepts.
struct ParseRun {
  const AstCallback& callback;
  const PreprocessorHook& hook;
  const ErrorTolerance* tolerance = nullptr;
  const DiagnosticCollector* diagnostics = nullptr;
  bool ran = false;
  std::string refused;  // the tolerance check's reason
};

class CallbackConsumer : public clang::ASTConsumer {
 public:
  explicit CallbackConsumer(ParseRun& run) : run_(run) {}
  void HandleTranslationUnit(clang::ASTContext& context) override {
    if (context.getDiagnostics().hasErrorOccurred()) {
      if (run_.tolerance == nullptr) return;
      run_.refused = (*run_.tolerance)(context, run_.diagnostics->errors());
      if (!run_.refused.empty()) return;
    }
    run_.ran = true;
    run_.callback(context);
  }

 private:
  ParseRun& run_;
};

class CallbackAction : public clang::ASTFrontendAction {
 public:
  explicit CallbackAction(ParseRun& run) : run_(run) {}
  bool BeginSourceFileAction(clang::CompilerInstance& compiler) override {
    if (run_.hook) run_.hook(compiler.getPreprocessor());
    return true;
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<CallbackConsumer>(run_);
  }

 private:
  ParseRun& run_;
};

std::vector<std::string> texts(const std::vector<ParseError>& errors) {
  std::vector<std::string> out;
  out.reserve(errors.size());
  for (const ParseError& error : errors) out.push_back(error.text);
  return out;
}

/// One Clang run; returns its errors.
std::vector<ParseError> run_clang(ParseSetup setup, Side side, const std::string& toolkit,
                                  const UserFlags& flags, const std::string& file,
                                  ParseRun& run) {
  const std::vector<std::string> command = parse_command(setup, side, toolkit, flags, file);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), make_parse_file_system(file)));
  DiagnosticCollector diagnostics;
  run.diagnostics = &diagnostics;
  clang::tooling::ToolInvocation invocation(command, std::make_unique<CallbackAction>(run),
                                            files.get());
  invocation.setDiagnosticConsumer(&diagnostics);
  if (!invocation.run() && diagnostics.errors().empty()) {
    return {{file + ": error: Clang could not run", {}, false, true}};
  }
  run.diagnostics = nullptr;
  return diagnostics.errors();
}
}  // namespace

SideParseResult parse_side(Side side, const std::vector<ParseSetup>& order,
                           const std::string& toolkit, const UserFlags& flags,
                           const std::string& file, const AstCallback& callback,
                           const PreprocessorHook& preprocessor_hook,
                           const ErrorTolerance& tolerance) {
  SideParseResult result;
  for (ParseSetup setup : order) {
    if (setup == ParseSetup::kToolkit && toolkit.empty()) continue;
    ParseRun run{callback, preprocessor_hook, nullptr, nullptr, false, {}};
    const std::vector<ParseError> errors = run_clang(setup, side, toolkit, flags, file, run);
    if (run.ran && errors.empty()) {
      result.ok = true;
      result.setup = setup;
      return result;
    }
    ParseAttempt attempt{setup, texts(errors), !errors.empty()};
    for (const ParseError& error : errors) {
      attempt.only_semantic_errors = attempt.only_semantic_errors && error.semantic && !error.fatal;
    }
    if (attempt.errors.empty()) attempt.errors.push_back(file + ": error: Clang could not run");
    result.failures.push_back(std::move(attempt));
  }
  if (result.failures.empty()) {
    result.failures.push_back(
        {ParseSetup::kToolkit,
         {file + ": error: no parse setup is available (no CUDA toolkit found and the builtin "
                 "setup is disabled)"},
         false});
  }
  if (!tolerance) return result;
  // Fewest errors first; on ties, the order given.
  std::vector<const ParseAttempt*> candidates;
  for (const ParseAttempt& attempt : result.failures) {
    if (attempt.only_semantic_errors) candidates.push_back(&attempt);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const ParseAttempt* a, const ParseAttempt* b) {
                     return a->errors.size() < b->errors.size();
                   });
  for (const ParseAttempt* candidate : candidates) {
    ParseRun run{callback, preprocessor_hook, &tolerance, nullptr, false, {}};
    const std::vector<ParseError> errors =
        run_clang(candidate->setup, side, toolkit, flags, file, run);
    if (run.ran) {
      result.ok = true;
      result.setup = candidate->setup;
      result.tolerated = texts(errors);
      return result;
    }
    if (result.not_tolerated.empty()) result.not_tolerated = run.refused;
  }
  return result;
}

}  // namespace memcarlo::instrumenter
