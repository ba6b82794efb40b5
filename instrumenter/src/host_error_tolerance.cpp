// The check behind instrumenting despite host-side errors: the errors' enclosing functions, their
// target attributes and their kernel launches, spelled and parsed.
#include "host_error_tolerance.hpp"

#include <optional>
#include <set>
#include <utility>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

namespace {
struct FunctionBody {
  const clang::FunctionDecl* function = nullptr;
  clang::SourceLocation begin;  // expansion locations of the body's braces
  clang::SourceLocation end;
};

/// Every function body of the translation unit (patterns, not instantiations; lambdas too).
class BodyCollector : public clang::RecursiveASTVisitor<BodyCollector> {
 public:
  explicit BodyCollector(const clang::SourceManager& sources) : sources_(sources) {}
  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (function->doesThisDeclarationHaveABody()) add(function);
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr* lambda) {
    add(lambda->getCallOperator());
    return true;
  }
  std::vector<FunctionBody> bodies;

 private:
  void add(const clang::FunctionDecl* function) {
    const clang::Stmt* body = function->getBody();
    if (body == nullptr) return;
    const clang::SourceLocation begin = sources_.getExpansionLoc(body->getBeginLoc());
    const clang::SourceLocation end = sources_.getExpansionRange(body->getEndLoc()).getEnd();
    if (begin.isValid() && end.isValid()) bodies.push_back({function, begin, end});
  }
  const clang::SourceManager& sources_;
};

/// The kernel launches of one function body: where their `<<<` is spelled and what they cover.
class LaunchCollector : public clang::RecursiveASTVisitor<LaunchCollector> {
 public:
  explicit LaunchCollector(const clang::SourceManager& sources) : sources_(sources) {}
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr* launch) {
    if (launch->getConfig() == nullptr) return true;
    const clang::SourceLocation open = sources_.getSpellingLoc(launch->getConfig()->getBeginLoc());
    opens.insert(sources_.getDecomposedLoc(open));
    ranges.push_back({sources_.getExpansionLoc(launch->getBeginLoc()),
                      sources_.getExpansionRange(launch->getEndLoc()).getEnd()});
    return true;
  }
  bool shouldVisitLambdaBody() const { return true; }
  std::set<std::pair<clang::FileID, unsigned>> opens;  // where each `<<<` is spelled
  std::vector<std::pair<clang::SourceLocation, clang::SourceLocation>> ranges;

 private:
  const clang::SourceManager& sources_;
};

/// Device code as written: Clang also makes lambdas and constexpr functions __host__ __device__
/// implicitly, which does not make a lambda in a host function device code.
bool is_written_device_function(const clang::FunctionDecl* function) {
  if (function->hasAttr<clang::CUDAGlobalAttr>()) return true;
  const auto* device = function->getAttr<clang::CUDADeviceAttr>();
  return device != nullptr && !device->isImplicit();
}

bool within(const clang::SourceManager& sources, clang::SourceLocation location,
            clang::SourceLocation begin, clang::SourceLocation end) {
  return sources.isPointWithin(location, begin, end);
}

/// Offsets of the `<<<` tokens spelled in [begin, end) of one file (comments and literals are
/// not tokens, so they do not count); nullopt when the range is not text of one file.
std::optional<std::set<unsigned>> spelled_launches(const clang::ASTContext& context,
                                                   clang::SourceLocation begin,
                                                   clang::SourceLocation end) {
  const clang::SourceManager& sources = context.getSourceManager();
  std::set<unsigned> offsets;
  const auto [file, begin_offset] = sources.getDecomposedLoc(begin);
  const auto [end_file, end_offset] = sources.getDecomposedLoc(end);
  bool invalid = false;
  const llvm::StringRef buffer = sources.getBufferData(file, &invalid);
  if (invalid || file != end_file || end_offset > buffer.size() || end_offset < begin_offset) {
    return std::nullopt;
  }
  // The lexer needs the file's own end (it stops at the terminating NUL).
  clang::Lexer lexer(sources.getLocForStartOfFile(file), context.getLangOpts(), buffer.begin(),
                     buffer.begin() + begin_offset, buffer.end());
  clang::Token token;
  bool at_end = false;
  while (!at_end) {
    at_end = lexer.LexFromRawLexer(token);
    const unsigned offset = sources.getFileOffset(token.getLocation());
    if (token.is(clang::tok::eof) || offset >= end_offset) break;
    if (token.is(clang::tok::lesslessless)) offsets.insert(offset);
  }
  return offsets;
}

std::string check_one(clang::ASTContext& context, const std::vector<FunctionBody>& bodies,
                      const ParseError& error) {
  const clang::SourceManager& sources = context.getSourceManager();
  if (error.location.isInvalid()) return "it has no source location";
  const clang::SourceLocation location = sources.getExpansionLoc(error.location);
  if (sources.isInSystemHeader(location)) return "it is in a system header";
  const FunctionBody* outermost = nullptr;
  for (const FunctionBody& body : bodies) {
    if (!within(sources, location, body.begin, body.end)) continue;
    if (is_written_device_function(body.function)) {
      return "it is in device code (" + function_name(body.function) + ")";
    }
    if (outermost == nullptr || sources.isBeforeInTranslationUnit(body.begin, outermost->begin)) {
      outermost = &body;
    }
  }
  if (outermost == nullptr) return "it is outside any function body";
  LaunchCollector launches(sources);
  launches.TraverseStmt(const_cast<clang::Stmt*>(outermost->function->getBody()));
  for (const auto& [begin, end] : launches.ranges) {
    if (within(sources, location, begin, end)) return "it is in a kernel launch";
  }
  const std::optional<std::set<unsigned>> spelled =
      spelled_launches(context, outermost->begin, outermost->end);
  if (!spelled) return "the body of " + function_name(outermost->function) + " is not plain text";
  const clang::FileID file = sources.getFileID(outermost->begin);
  for (unsigned offset : *spelled) {
    if (launches.opens.count({file, offset}) == 0) {
      return "a kernel launch of " + function_name(outermost->function) +
             " did not parse with it";
    }
  }
  return "";
}
}  // namespace

std::string check_host_errors(clang::ASTContext& context, const std::vector<ParseError>& errors) {
  BodyCollector collector(context.getSourceManager());
  collector.TraverseDecl(context.getTranslationUnitDecl());
  for (const ParseError& error : errors) {
    if (!error.semantic || error.fatal) return error.text + " (not a semantic error)";
    const std::string reason = check_one(context, collector.bodies, error);
    if (!reason.empty()) return error.text + " (" + reason + ")";
  }
  return "";
}

}  // namespace memcarlo::instrumenter
