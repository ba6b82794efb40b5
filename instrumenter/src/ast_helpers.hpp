// Small AST and source-location helpers shared by the instrumenter's passes.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

namespace memcarlo::instrumenter {

/// A half-open character range [begin, end) in one file, addressed by the file's path.
struct FileRange {
  std::string file;
  unsigned begin = 0;
  unsigned end = 0;
  bool operator==(const FileRange&) const = default;
  auto operator<=>(const FileRange&) const = default;
};

/// The file range of `range` if it can be rewritten as text: spelled in one file, or exactly
/// covering a macro argument or a whole macro expansion. nullopt otherwise (macro bodies).
std::optional<FileRange> rewritable_range(const clang::SourceManager& sources,
                                          const clang::LangOptions& language,
                                          clang::SourceRange range);

/// Source text of `range` as spelled (through macros: the expansion text), whitespace squeezed.
std::string source_text(const clang::SourceManager& sources, const clang::LangOptions& language,
                        clang::SourceRange range);

/// Normalised absolute path of the file holding `location` (expansion location); empty when the
/// location is not in a file (built-in, command line, scratch space).
std::string file_path_of(const clang::SourceManager& sources, clang::SourceLocation location);

/// "file:line:col" of the expansion location, with the path as Clang names the file.
std::string describe_location(const clang::SourceManager& sources, clang::SourceLocation location);

/// True for files memcarlo may rewrite: not a system header, not in the toolkit, the Clang
/// resource directory or memcarlo's virtual include directory.
bool is_user_file(const clang::SourceManager& sources, clang::SourceLocation location,
                  const std::string& toolkit_dir);

/// The name of the function a call expression calls, also for unresolved calls in templates.
std::string callee_name(const clang::CallExpr* call);

/// If `expr` is threadIdx.x, blockIdx.y, blockDim.z, gridDim.x ... returns that spelling.
std::optional<std::string> cuda_builtin_index(const clang::Expr* expr);

/// Pretty name of a type for the loads table (no "struct " keywords, sugar kept).
std::string type_name(const clang::ASTContext& context, clang::QualType type);

/// Qualified name of a function, with "::(lambda)" for lambdas' call operators.
std::string function_name(const clang::FunctionDecl* function);

/// True for CUDA __device__ / __global__ functions (including __host__ __device__).
bool is_device_function(const clang::FunctionDecl* function);

/// Adds to `out` every variable `statement` names (its DeclRefExprs, at any depth).
void collect_variables(const clang::Stmt* statement, std::set<const clang::VarDecl*>& out);

}  // namespace memcarlo::instrumenter
