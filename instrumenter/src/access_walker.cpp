// The evaluation-order walk over statements and expressions of one device function.
#include "access_walker.hpp"

#include <utility>

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/StmtCXX.h"

#include "ast_helpers.hpp"
#include "call_semantics.hpp"
#include "dynamic_shared.hpp"

namespace memcarlo::instrumenter {

AccessWalker::AccessWalker(WalkContext& walk, const clang::FunctionDecl& function)
    : walk_(walk),
      function_(function),
      facts_(function),
      spaces_(function, facts_),
      index_(walk.context, facts_, load_sites_, reaching_),
      flow_(walk.sites, walk.next_sequence),
      function_name_(function_name(&function)) {}

void AccessWalker::run() {
  flow_.start_sequence();
  if (const auto* constructor = llvm::dyn_cast<clang::CXXConstructorDecl>(&function_)) {
    for (const clang::CXXCtorInitializer* initializer : constructor->inits()) {
      if (initializer->isWritten()) visit(initializer->getInit(), Use::kValue);
    }
  }
  statement(function_.getBody());
}

void AccessWalker::assigned(const clang::VarDecl* var, const clang::Expr* value,
                            const Taint& taint) {
  if (var == nullptr) return;
  flow_.define(var, taint);
  reaching_.define(var, value);
}

void AccessWalker::region(const clang::Stmt* part) {
  reaching_.push_region();
  statement(part);
  reaching_.pop_region();
}

void AccessWalker::loop(const clang::Stmt* loop, const std::vector<const clang::Stmt*>& parts) {
  flow_.block_boundary();
  flow_.start_sequence();
  loops_.push_back(loop);
  // A dry pass first so that values loaded late in the body reach uses early in the body (and
  // what the body assigns is ambiguous at its start: the back edge brings it round).
  flow_.begin_dry_pass();
  reaching_.push_region();
  for (const clang::Stmt* part : parts) statement(part);
  reaching_.pop_region();
  flow_.end_dry_pass();
  reaching_.push_region();
  for (const clang::Stmt* part : parts) statement(part);
  reaching_.pop_region();
  loops_.pop_back();
  flow_.block_boundary();
  flow_.start_sequence();
}

void AccessWalker::statement(const clang::Stmt* statement) {
  if (statement == nullptr) return;
  if (const auto* expr = llvm::dyn_cast<clang::Expr>(statement)) {
    visit(expr, Use::kDiscard);
    return;
  }
  if (const auto* compound = llvm::dyn_cast<clang::CompoundStmt>(statement)) {
    for (const clang::Stmt* child : compound->body()) this->statement(child);
    return;
  }
  if (const auto* declaration = llvm::dyn_cast<clang::DeclStmt>(statement)) {
    for (const clang::Decl* decl : declaration->decls()) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
      if (var != nullptr && walk_.backend == Backend::kHost && flow_.recording() &&
          var->hasAttr<clang::CUDASharedAttr>() && var->hasExternalStorage()) {
        rewrite_dynamic_shared(declaration, var);
      }
      if (var == nullptr || var->getInit() == nullptr) continue;
      const bool reference = var->getType()->isReferenceType();
      const Taint taint = visit(var->getInit(), reference ? Use::kAddress : Use::kValue);
      assigned(var, reference ? nullptr : var->getInit(), taint);
    }
    return;
  }
  if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(statement)) {
    this->statement(branch->getInit());
    if (branch->getConditionVariableDeclStmt() != nullptr) {
      this->statement(branch->getConditionVariableDeclStmt());
    } else {
      visit(branch->getCond(), Use::kValue);
    }
    flow_.block_boundary();
    region(branch->getThen());
    flow_.block_boundary();
    region(branch->getElse());
    flow_.block_boundary();
    return;
  }
  if (const auto* for_loop = llvm::dyn_cast<clang::ForStmt>(statement)) {
    this->statement(for_loop->getInit());
    loop(for_loop, {for_loop->getCond(), for_loop->getBody(), for_loop->getInc()});
    return;
  }
  if (const auto* while_loop = llvm::dyn_cast<clang::WhileStmt>(statement)) {
    const clang::Stmt* condition = while_loop->getConditionVariableDeclStmt();
    if (condition == nullptr) condition = while_loop->getCond();
    loop(while_loop, {condition, while_loop->getBody()});
    return;
  }
  if (const auto* do_loop = llvm::dyn_cast<clang::DoStmt>(statement)) {
    loop(do_loop, {do_loop->getBody(), do_loop->getCond()});
    return;
  }
  if (const auto* range_loop = llvm::dyn_cast<clang::CXXForRangeStmt>(statement)) {
    this->statement(range_loop->getInit());
    this->statement(range_loop->getRangeStmt());
    this->statement(range_loop->getBeginStmt());
    this->statement(range_loop->getEndStmt());
    loop(range_loop, {range_loop->getCond(), range_loop->getLoopVarStmt(), range_loop->getBody(),
                      range_loop->getInc()});
    return;
  }
  if (const auto* switch_statement = llvm::dyn_cast<clang::SwitchStmt>(statement)) {
    this->statement(switch_statement->getInit());
    visit(switch_statement->getCond(), Use::kValue);
    flow_.block_boundary();
    region(switch_statement->getBody());
    flow_.block_boundary();
    return;
  }
  if (const auto* switch_case = llvm::dyn_cast<clang::SwitchCase>(statement)) {
    flow_.block_boundary();
    this->statement(switch_case->getSubStmt());
    return;
  }
  if (const auto* label = llvm::dyn_cast<clang::LabelStmt>(statement)) {
    flow_.block_boundary();
    this->statement(label->getSubStmt());
    return;
  }
  if (const auto* return_statement = llvm::dyn_cast<clang::ReturnStmt>(statement)) {
    const bool by_reference = function_.getReturnType()->isReferenceType();
    visit(return_statement->getRetValue(), by_reference ? Use::kAddress : Use::kValue);
    flow_.block_boundary();
    return;
  }
  if (llvm::isa<clang::AsmStmt>(statement)) {
    const clang::SourceManager& sources = walk_.context.getSourceManager();
    const std::string location = describe_location(sources, statement->getBeginLoc());
    if (walk_.backend == Backend::kHost) {
      walk_.errors.push_back(location +
                             ": error: inline assembly in device code cannot run on the host "
                             "backend (unsupported construct); use --backend cuda");
    } else {
      walk_.other_skips.push_back({location, "asm(...)", "inline-asm"});
    }
    flow_.kill_all();
    return;
  }
  if (llvm::isa<clang::BreakStmt, clang::ContinueStmt, clang::GotoStmt>(statement)) {
    flow_.block_boundary();
    return;
  }
  for (const clang::Stmt* child : statement->children()) this->statement(child);
}

void AccessWalker::rewrite_dynamic_shared(const clang::DeclStmt* declaration,
                                          const clang::VarDecl* var) {
  const clang::SourceManager& sources = walk_.context.getSourceManager();
  const std::string where = describe_location(sources, var->getLocation());
  const std::optional<FileRange> range = rewritable_range(
      sources, walk_.context.getLangOpts(),
      clang::SourceRange(declaration->getBeginLoc(), var->getEndLoc()));
  if (!declaration->isSingleDecl() || !range) {
    walk_.errors.push_back(where + ": error: cannot rewrite this extern __shared__ declaration "
                           "for the host backend (unsupported construct: it must declare one "
                           "array, outside a macro, as `extern __shared__ T name[];`)");
    return;
  }
  const std::string text = dynamic_shared_declaration(walk_.context, *var);
  walk_.declaration_edits.push_back({range->file, range->begin, range->end - range->begin, text,
                                     Edit::Role::kReplace, range->begin, range->end,
                                     "extern __shared__ " + var->getNameAsString() + " at " +
                                         where});
}

bool AccessWalker::is_memory_candidate(const clang::Expr* expr) const {
  if (llvm::isa<clang::ArraySubscriptExpr, clang::CXXDependentScopeMemberExpr>(expr)) return true;
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
    return unary->getOpcode() == clang::UO_Deref;
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr)) {
    return llvm::isa<clang::FieldDecl, clang::VarDecl>(member->getMemberDecl());
  }
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(reference->getDecl());
    if (var == nullptr) return false;
    if (var->getType()->isReferenceType()) return true;
    if (var->hasLocalStorage()) return false;
    // Compile-time constants are folded, not loaded.
    if (var->isConstexpr() || var->isUsableInConstantExpressions(walk_.context) ||
        var->getName() == "warpSize") {
      return false;
    }
    // Built-in index variables and texture/surface references are not memory accesses.
    if (const clang::CXXRecordDecl* record = var->getType()->getAsCXXRecordDecl()) {
      if (record->getName().starts_with("__cuda_builtin_") ||
          record->hasAttr<clang::CUDADeviceBuiltinTextureTypeAttr>() ||
          record->hasAttr<clang::CUDADeviceBuiltinSurfaceTypeAttr>()) {
        return false;
      }
    }
    return true;
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) {
    return call->isLValue() && !llvm::isa<clang::CXXOperatorCallExpr>(call) &&
           call->getType()->isObjectType();
  }
  return false;
}

Taint AccessWalker::visit(const clang::Expr* expr, Use use) {
  if (expr == nullptr) return {};
  if (const auto* paren = llvm::dyn_cast<clang::ParenExpr>(expr)) {
    return visit(paren->getSubExpr(), use);
  }
  if (llvm::isa<clang::UnaryExprOrTypeTraitExpr, clang::CXXNoexceptExpr, clang::CXXTypeidExpr,
                clang::CXXDefaultArgExpr, clang::CXXDefaultInitExpr, clang::OpaqueValueExpr>(
          expr)) {
    return {};  // unevaluated, or spelled elsewhere (default arguments)
  }
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(expr)) {
    switch (cast->getCastKind()) {
      case clang::CK_LValueToRValue: return visit(cast->getSubExpr(), Use::kValue);
      case clang::CK_ArrayToPointerDecay:
      case clang::CK_FunctionToPointerDecay:
      case clang::CK_BuiltinFnToFnPtr: return visit(cast->getSubExpr(), Use::kAddress);
      case clang::CK_NoOp:
      case clang::CK_DerivedToBase:
      case clang::CK_UncheckedDerivedToBase: return visit(cast->getSubExpr(), use);
      default: return visit(cast->getSubExpr(), Use::kValue);
    }
  }
  if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(expr)) {
    if (cast->getType()->isVoidType()) return visit(cast->getSubExpr(), Use::kDiscard);
    return visit(cast->getSubExpr(), cast->isGLValue() ? use : Use::kValue);
  }
  if (const auto* full = llvm::dyn_cast<clang::FullExpr>(expr)) {
    return visit(full->getSubExpr(), use);
  }
  if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(expr)) {
    return visit(temporary->getSubExpr(), use);
  }
  if (const auto* bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(expr)) {
    return visit(bind->getSubExpr(), use);
  }
  if (const auto* pseudo = llvm::dyn_cast<clang::PseudoObjectExpr>(expr)) {
    if (cuda_builtin_index(pseudo)) return {};
    return visit(pseudo->getResultExpr(), use);
  }
  if (is_memory_candidate(expr)) return visit_memory(expr, use);
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(reference->getDecl())) {
      return flow_.taint_of(var);
    }
    return {};
  }
  if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(expr)) {
    return visit_binary(binary, use);
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
    if (unary->isIncrementDecrementOp()) {
      Taint taint = visit(unary->getSubExpr(), Use::kReadModifyWrite);
      assigned(named_variable(unary->getSubExpr()), nullptr, {});
      return taint;
    }
    if (unary->getOpcode() == clang::UO_AddrOf) return visit(unary->getSubExpr(), Use::kAddress);
    return visit(unary->getSubExpr(), Use::kValue);
  }
  if (const auto* conditional = llvm::dyn_cast<clang::AbstractConditionalOperator>(expr)) {
    Taint taint = visit(conditional->getCond(), Use::kValue);
    flow_.block_boundary();
    reaching_.push_region();
    taint = merged(taint, visit(conditional->getTrueExpr(), use));
    reaching_.pop_region();
    flow_.block_boundary();
    reaching_.push_region();
    taint = merged(taint, visit(conditional->getFalseExpr(), use));
    reaching_.pop_region();
    flow_.block_boundary();
    return taint;
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) return visit_call(call, use);
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(expr)) {
    return visit_construct(construct);
  }
  if (const auto* lambda = llvm::dyn_cast<clang::LambdaExpr>(expr)) {
    for (const clang::Expr* capture : lambda->capture_inits()) visit(capture, Use::kValue);
    return {};  // the body is instrumented as a function of its own
  }
  if (const auto* statement_expr = llvm::dyn_cast<clang::StmtExpr>(expr)) {
    statement(statement_expr->getSubStmt());
    return {};
  }
  Taint taint;
  for (const clang::Stmt* child : expr->children()) {
    if (const auto* child_expr = llvm::dyn_cast_or_null<clang::Expr>(child)) {
      taint = merged(taint, visit(child_expr, Use::kValue));
    } else {
      statement(child);
    }
  }
  return taint;
}

Taint AccessWalker::visit_binary(const clang::BinaryOperator* binary, Use use) {
  const clang::BinaryOperatorKind op = binary->getOpcode();
  if (op == clang::BO_Assign) {
    Taint value = visit(binary->getRHS(), Use::kValue);  // C++17: the right side first
    std::optional<Taint> outer = std::exchange(stored_value_, value);
    visit(binary->getLHS(), Use::kWrite);
    stored_value_ = std::move(outer);
    if (const clang::VarDecl* var = named_variable(binary->getLHS())) {
      if (!var->getType()->isReferenceType()) assigned(var, binary->getRHS(), value);
    }
    return value;
  }
  if (binary->isCompoundAssignmentOp()) {
    Taint value = visit(binary->getRHS(), Use::kValue);
    std::optional<Taint> outer = std::exchange(stored_value_, value);
    value = merged(value, visit(binary->getLHS(), Use::kReadModifyWrite));
    stored_value_ = std::move(outer);
    if (const clang::VarDecl* var = named_variable(binary->getLHS())) {
      if (!var->getType()->isReferenceType()) assigned(var, nullptr, value);
    }
    return value;
  }
  if (op == clang::BO_Comma) {
    visit(binary->getLHS(), Use::kDiscard);
    return visit(binary->getRHS(), use);
  }
  if (op == clang::BO_LAnd || op == clang::BO_LOr) {
    Taint taint = visit(binary->getLHS(), Use::kValue);
    flow_.block_boundary();  // the right operand is a block of its own
    reaching_.push_region();
    taint = merged(taint, visit(binary->getRHS(), Use::kValue));
    reaching_.pop_region();
    flow_.block_boundary();
    return taint;
  }
  // Operands in source order (a call's argument order would be unspecified).
  Taint taint = visit(binary->getLHS(), Use::kValue);
  return merged(std::move(taint), visit(binary->getRHS(), Use::kValue));
}

Taint AccessWalker::visit_memory(const clang::Expr* expr, Use use) {
  // The value an enclosing assignment stores belongs to this access, not to those of its address.
  std::optional<Taint> stored = std::exchange(stored_value_, std::nullopt);
  Taint address;
  if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(expr)) {
    const clang::QualType base = subscript->getBase()->IgnoreParenImpCasts()->getType();
    // An array's elements are reached through its address; so are those of a type-dependent
    // object that is neither pointer nor array (a class whose operator[] the instantiation calls,
    // which probes what it reads), which is not read as a whole.
    const bool by_address =
        base->isArrayType() || (subscript->getBase()->isTypeDependent() && !base->isPointerType());
    address = visit(subscript->getBase(), by_address ? Use::kAddress : Use::kValue);
    address = merged(std::move(address), visit(subscript->getIdx(), Use::kValue));
  } else if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
    address = visit(unary->getSubExpr(), Use::kValue);
  } else if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr)) {
    address = visit(member->getBase(), member->isArrow() ? Use::kValue : Use::kAddress);
  } else if (const auto* dependent = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(expr)) {
    if (!dependent->isImplicitAccess()) {
      address = visit(dependent->getBase(), dependent->isArrow() ? Use::kValue : Use::kAddress);
    }
  } else if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) {
    address = visit_call(call, Use::kValue);
  }
  AccessKind kind = AccessKind::kRead;
  switch (use) {
    case Use::kValue:
    case Use::kReferenceRead: kind = AccessKind::kRead; break;
    case Use::kWrite: kind = AccessKind::kWrite; break;
    case Use::kReadModifyWrite:
    case Use::kReferenceReadWrite: kind = AccessKind::kReadModifyWrite; break;
    case Use::kAddress:
    case Use::kDiscard: return address;
  }
  const clang::QualType type = expr->getType();
  if (type->isArrayType() || type->isFunctionType() || type->isVoidType()) return address;
  const MemoryClass memory = spaces_.classify_lvalue(expr);
  if (!memory.is_memory) return address;
  if (kind == AccessKind::kRead) stored.reset();
  const std::size_t site = record(expr, kind, ProbeStyle::kLvalue, memory, address, type);
  if (stored && flow_.recording()) {
    stored->erase(site);
    walk_.sites[site].value_depends_on = std::move(*stored);
  }
  if (kind == AccessKind::kWrite) return {};
  return {site};
}

}  // namespace memcarlo::instrumenter
