// Walks one device function in evaluation order and records every memory access: the use of each
// expression (read, write, read-modify-write, address only, unevaluated) decides whether a
// pointer/array lvalue is an access; the walk also drives sequences, depends_on and redundancy.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include "access_site.hpp"
#include "address_space.hpp"
#include "device_code.hpp"
#include "edit_set.hpp"
#include "flow_state.hpp"
#include "function_facts.hpp"
#include "index_builder.hpp"
#include "reaching_definitions.hpp"
#include "memcarlo/instrumenter/instrument.hpp"
#include "memcarlo/instrumenter/options.hpp"

namespace memcarlo::instrumenter {

/// What a translation unit's walk shares across its functions.
struct WalkContext {
  clang::ASTContext& context;
  const DeviceCode& device;
  std::string toolkit;
  Backend backend = Backend::kHost;
  std::vector<AccessSite>& sites;
  std::int64_t& next_sequence;
  std::vector<std::string>& errors;            // unsupported constructs (fatal)
  std::vector<SkippedAccess>& other_skips;     // things that are not sites (inline asm)
  std::vector<Edit>& declaration_edits;        // host backend: extern __shared__ rewrites
};

class AccessWalker {
 public:
  AccessWalker(WalkContext& walk, const clang::FunctionDecl& function);
  void run();

 private:
  enum class Use {
    kValue,               // the value is used (a glvalue is read)
    kWrite,               // assigned to
    kReadModifyWrite,     // compound assignment, ++, --
    kAddress,             // only the address is used (&E, E.f, array decay, reference binding)
    kDiscard,             // evaluated for side effects only
    kReferenceRead,       // bound to a const reference of a callee we do not instrument
    kReferenceReadWrite,  // bound to a mutable reference of a callee we do not instrument
  };

  void statement(const clang::Stmt* statement);
  /// Host backend: `extern __shared__ T name[];` -> `MEMCARLO_DYNAMIC_SHARED(T, name);`.
  void rewrite_dynamic_shared(const clang::DeclStmt* declaration, const clang::VarDecl* var);
  void loop(const clang::Stmt* loop, const std::vector<const clang::Stmt*>& parts);
  Taint visit(const clang::Expr* expr, Use use);
  Taint visit_memory(const clang::Expr* expr, Use use);
  Taint visit_binary(const clang::BinaryOperator* binary, Use use);
  Taint visit_call(const clang::CallExpr* call, Use use);
  Taint visit_construct(const clang::CXXConstructExpr* construct);
  Taint visit_pointer_access(const clang::CallExpr* call, AccessKind kind);
  Taint visit_arguments(const clang::FunctionDecl* callee, const clang::CallExpr* call,
                        unsigned first_argument, unsigned first_parameter);
  Use reference_use(const clang::FunctionDecl* callee, clang::QualType parameter) const;
  void after_call(const clang::FunctionDecl* callee, const std::string& name);
  bool is_memory_candidate(const clang::Expr* expr) const;
  /// A local variable was assigned `value` (nullptr: not substitutable) carrying `taint`.
  void assigned(const clang::VarDecl* var, const clang::Expr* value, const Taint& taint);
  /// Walks `part` as a region: what it assigns is ambiguous after it.
  void region(const clang::Stmt* part);

  /// Creates (first visit) or revisits the site of `expr` and, when recording, completes it.
  std::size_t record(const clang::Expr* expr, AccessKind kind, ProbeStyle style,
                     const MemoryClass& memory, const Taint& address_taint,
                     clang::QualType element);
  void describe(AccessSite& site, const clang::Expr* expr, const MemoryClass& memory,
                clang::QualType element) const;
  std::string static_skip_reason(const clang::Expr* expr, const MemoryClass& memory,
                                 ProbeStyle style) const;

  WalkContext& walk_;
  const clang::FunctionDecl& function_;
  FunctionFacts facts_;
  AddressSpaceAnalysis spaces_;
  std::map<const clang::Expr*, std::size_t> site_of_;
  std::map<const clang::Expr*, std::size_t> load_sites_;
  ReachingDefinitions reaching_;
  IndexBuilder index_;
  FlowState flow_;
  std::vector<const clang::Stmt*> loops_;
  std::string function_name_;
  /// While the left side of an assignment is walked: the loads whose values feed the value it
  /// stores, for the written access to take (value_depends_on); nullopt when not analysed.
  std::optional<Taint> stored_value_;
};

}  // namespace memcarlo::instrumenter
