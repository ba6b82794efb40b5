// Kernels with code only for the device (see the header).
#include "device_only_code.hpp"

#include <optional>

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

namespace {

class DeviceOnlyCallbacks : public clang::PPCallbacks {
 public:
  DeviceOnlyCallbacks(const clang::Preprocessor& preprocessor, const std::string& toolkit,
                      std::vector<DeviceOnlyBlock>& blocks)
      : preprocessor_(preprocessor),
        sources_(preprocessor.getSourceManager()),
        toolkit_(toolkit),
        blocks_(blocks) {}

  void If(clang::SourceLocation location, clang::SourceRange condition,
          ConditionValueKind) override {
    open(location, clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(condition),
                                               sources_, preprocessor_.getLangOpts())
                       .str());
  }
  void Ifdef(clang::SourceLocation location, const clang::Token& name,
             const clang::MacroDefinition&) override {
    open(location, "defined " + preprocessor_.getSpelling(name));
  }
  void Ifndef(clang::SourceLocation location, const clang::Token& name,
              const clang::MacroDefinition&) override {
    open(location, "!defined " + preprocessor_.getSpelling(name));
  }
  void Elif(clang::SourceLocation, clang::SourceRange, ConditionValueKind,
            clang::SourceLocation) override {
    alternative();
  }
  void Elifdef(clang::SourceLocation, const clang::Token&, const clang::MacroDefinition&) override {
    alternative();
  }
  void Elifndef(clang::SourceLocation, const clang::Token&,
                const clang::MacroDefinition&) override {
    alternative();
  }
  void Else(clang::SourceLocation, clang::SourceLocation) override { alternative(); }
  // Clang reports a skipped branch after the directive that ends it: an #endif has been seen,
  // and its block closed, when the #if's own branch is reported skipped.
  void Endif(clang::SourceLocation, clang::SourceLocation) override {
    if (open_.empty()) return;
    closed_ = open_.back();
    open_.pop_back();
  }
  void SourceRangeSkipped(clang::SourceRange range, clang::SourceLocation) override {
    if (!closed_) return;
    const Open block = *closed_;
    closed_.reset();
    if (block.alternative || !block.user ||
        block.condition.find("__CUDA_ARCH__") == std::string::npos ||
        block.condition.rfind("!defined", 0) == 0) {
      return;
    }
    const clang::SourceLocation begin = range.getBegin();
    const clang::SourceLocation end = range.getEnd();
    if (begin.isMacroID() || end.isMacroID() ||
        sources_.getFileID(begin) != sources_.getFileID(end)) {
      return;
    }
    blocks_.push_back({file_path_of(sources_, begin), sources_.getFileOffset(begin),
                       sources_.getFileOffset(end), block.line, block.condition});
  }

 private:
  struct Open {
    std::string condition;
    unsigned line = 0;
    bool user = false;
    bool alternative = false;  // an #else or #elif follows the #if
  };

  void open(clang::SourceLocation location, std::string condition) {
    closed_.reset();
    Open block;
    block.condition = std::move(condition);
    block.user = !location.isMacroID() && is_user_file(sources_, location, toolkit_);
    block.line = block.user ? sources_.getSpellingLineNumber(location) : 0;
    open_.push_back(std::move(block));
  }
  void alternative() {
    closed_.reset();
    if (!open_.empty()) open_.back().alternative = true;
  }

  const clang::Preprocessor& preprocessor_;
  const clang::SourceManager& sources_;
  const std::string& toolkit_;
  std::vector<DeviceOnlyBlock>& blocks_;
  std::vector<Open> open_;
  std::optional<Open> closed_;  // the block the last #endif closed
};

class KernelFinder : public clang::RecursiveASTVisitor<KernelFinder> {
 public:
  KernelFinder(clang::ASTContext& context, const std::vector<DeviceOnlyBlock>& blocks)
      : sources_(context.getSourceManager()), blocks_(blocks) {}

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (!function->hasAttr<clang::CUDAGlobalAttr>() || !function->doesThisDeclarationHaveABody()) {
      return true;
    }
    const clang::SourceRange body = function->getBody()->getSourceRange();
    if (body.getBegin().isMacroID() || body.getEnd().isMacroID()) return true;
    const std::string file = file_path_of(sources_, body.getBegin());
    const unsigned begin = sources_.getFileOffset(body.getBegin());
    const unsigned end = sources_.getFileOffset(body.getEnd());
    for (const DeviceOnlyBlock& block : blocks_) {
      if (block.file != file || block.begin < begin || block.end > end) continue;
      warnings_.push_back(
          describe_location(sources_, function->getLocation()) + ": kernel '" +
          function->getNameAsString() + "' holds code only for the device (#if " +
          block.condition + " at line " + std::to_string(block.line) +
          ", no #else): the host backend compiles kernels as host code, where __CUDA_ARCH__ is "
          "not defined, so that code does not run and the kernel's results and trace lack it. "
          "Give the host an #else branch (the same code), or build with --backend cuda");
      break;
    }
    return true;
  }

  [[nodiscard]] std::vector<std::string> warnings() const { return warnings_; }

 private:
  const clang::SourceManager& sources_;
  const std::vector<DeviceOnlyBlock>& blocks_;
  std::vector<std::string> warnings_;
};

}  // namespace

void track_device_only_blocks(clang::Preprocessor& preprocessor, const std::string& toolkit,
                              std::vector<DeviceOnlyBlock>& blocks) {
  preprocessor.addPPCallbacks(std::make_unique<DeviceOnlyCallbacks>(preprocessor, toolkit, blocks));
}

std::vector<std::string> device_only_kernel_warnings(clang::ASTContext& context,
                                                     const std::vector<DeviceOnlyBlock>& blocks) {
  if (blocks.empty()) return {};
  KernelFinder finder(context, blocks);
  finder.TraverseDecl(context.getTranslationUnitDecl());
  return finder.warnings();
}

}  // namespace memcarlo::instrumenter
