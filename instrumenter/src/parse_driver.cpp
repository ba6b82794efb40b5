// One Clang invocation per (side, setup) with an in-memory overlay and collected diagnostics.
#include "parse_driver.hpp"

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
    std::string text;
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      const clang::PresumedLoc presumed =
          info.getSourceManager().getPresumedLoc(info.getLocation());
      if (presumed.isValid()) {
        text = std::string(presumed.getFilename()) + ":" + std::to_string(presumed.getLine()) +
               ":" + std::to_string(presumed.getColumn()) + ": ";
      }
    }
    text += (level == clang::DiagnosticsEngine::Fatal ? "fatal error: " : "error: ");
    text += message.str();
    errors_.push_back(std::move(text));
  }
  [[nodiscard]] const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::vector<std::string> errors_;
};

class CallbackConsumer : public clang::ASTConsumer {
 public:
  CallbackConsumer(const AstCallback& callback, bool& ran) : callback_(callback), ran_(ran) {}
  void HandleTranslationUnit(clang::ASTContext& context) override {
    if (context.getDiagnostics().hasErrorOccurred()) return;
    ran_ = true;
    callback_(context);
  }

 private:
  const AstCallback& callback_;
  bool& ran_;
};

class CallbackAction : public clang::ASTFrontendAction {
 public:
  CallbackAction(const AstCallback& callback, const PreprocessorHook& hook, bool& ran)
      : callback_(callback), hook_(hook), ran_(ran) {}
  bool BeginSourceFileAction(clang::CompilerInstance& compiler) override {
    if (hook_) hook_(compiler.getPreprocessor());
    return true;
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<CallbackConsumer>(callback_, ran_);
  }

 private:
  const AstCallback& callback_;
  const PreprocessorHook& hook_;
  bool& ran_;
};
}  // namespace

SideParseResult parse_side(Side side, const std::vector<ParseSetup>& order,
                           const std::string& toolkit, const UserFlags& flags,
                           const std::string& file, const AstCallback& callback,
                           const PreprocessorHook& preprocessor_hook) {
  SideParseResult result;
  for (ParseSetup setup : order) {
    if (setup == ParseSetup::kToolkit && toolkit.empty()) continue;
    const std::vector<std::string> command = parse_command(setup, side, toolkit, flags, file);
    llvm::IntrusiveRefCntPtr<clang::FileManager> files(
        new clang::FileManager(clang::FileSystemOptions(), make_parse_file_system()));
    DiagnosticCollector diagnostics;
    bool ran = false;
    clang::tooling::ToolInvocation invocation(
        command, std::make_unique<CallbackAction>(callback, preprocessor_hook, ran), files.get());
    invocation.setDiagnosticConsumer(&diagnostics);
    const bool invoked = invocation.run();
    if (invoked && ran && diagnostics.errors().empty()) {
      result.ok = true;
      result.setup = setup;
      return result;
    }
    ParseAttempt attempt{setup, diagnostics.errors()};
    if (attempt.errors.empty()) attempt.errors.push_back(file + ": error: Clang could not run");
    result.failures.push_back(std::move(attempt));
  }
  if (result.failures.empty()) {
    result.failures.push_back(
        {ParseSetup::kToolkit, {file + ": error: no parse setup is available (no CUDA toolkit "
                                       "found and the builtin setup is disabled)"}});
  }
  return result;
}

}  // namespace memcarlo::instrumenter
