// Calls in device code: atomics and __ldg-style intrinsics (accesses through their pointer
// argument), barriers, reference arguments and what a call does to the redundancy window.
#include "access_walker.hpp"

#include "clang/AST/DeclCXX.h"

#include "ast_helpers.hpp"
#include "call_semantics.hpp"

namespace memcarlo::instrumenter {

namespace {

bool is_trivial_special_member(const clang::FunctionDecl* function) {
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(function);
  if (method == nullptr) return false;
  const bool special = method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator();
  const auto* constructor = llvm::dyn_cast<clang::CXXConstructorDecl>(method);
  const bool copy = constructor != nullptr && constructor->isCopyOrMoveConstructor();
  return (special || copy) && (method->isTrivial() || !method->isUserProvided());
}

/// A copy or move assignment a system header defines (CUDA's __half2 spells its own): a store of
/// the whole object, as a trivial one is, not a read-modify-write of an opaque call.
bool is_system_assignment(const clang::FunctionDecl* function,
                          const clang::SourceManager& sources) {
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(function);
  return method != nullptr &&
         (method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator()) &&
         sources.isInSystemHeader(method->getLocation());
}
}  // namespace

AccessWalker::Use AccessWalker::reference_use(const clang::FunctionDecl* callee,
                                              clang::QualType parameter) const {
  // The body of an instrumented callee probes the accesses it makes through the reference.
  if (walk_.device.instrumented(callee)) return Use::kAddress;
  return parameter.getNonReferenceType().isConstQualified() ? Use::kReferenceRead
                                                            : Use::kReferenceReadWrite;
}

void AccessWalker::after_call(const clang::FunctionDecl* callee, const std::string& name) {
  if (walk_.device.instrumented(callee)) {
    flow_.kill_all();
    flow_.start_sequence();  // the callee's accesses came in between
    return;
  }
  if (is_pure_function(name) || is_trivial_special_member(callee) ||
      llvm::isa_and_nonnull<clang::CXXConversionDecl>(callee)) {
    return;
  }
  flow_.kill_all();
}

Taint AccessWalker::visit_arguments(const clang::FunctionDecl* callee, const clang::CallExpr* call,
                                    unsigned first_argument, unsigned first_parameter) {
  Taint taint;
  for (unsigned i = first_argument; i < call->getNumArgs(); ++i) {
    const unsigned parameter = i - first_argument + first_parameter;
    Use use = Use::kValue;
    if (callee != nullptr && parameter < callee->getNumParams()) {
      const clang::QualType type = callee->getParamDecl(parameter)->getType();
      if (type->isReferenceType()) use = reference_use(callee, type);
    }
    taint = merged(taint, visit(call->getArg(i), use));
  }
  return taint;
}

Taint AccessWalker::visit_pointer_access(const clang::CallExpr* call, AccessKind kind) {
  const clang::Expr* pointer = call->getArg(0);
  const Taint address = visit(pointer, Use::kValue);
  Taint others;
  for (unsigned i = 1; i < call->getNumArgs(); ++i) {
    others = merged(others, visit(call->getArg(i), Use::kValue));
  }
  // A type-dependent pointer (`&out[i]` with `T* out` in a template) has no pointee type yet;
  // the operand of its `&` has the element's type.
  const clang::QualType type = pointer->getType();
  clang::QualType element = type->isPointerType() ? type->getPointeeType() : clang::QualType();
  if (const auto* address_of = llvm::dyn_cast<clang::UnaryOperator>(pointer->IgnoreParens());
      element.isNull() && address_of != nullptr && address_of->getOpcode() == clang::UO_AddrOf) {
    element = address_of->getSubExpr()->getType();
  }
  const MemoryClass memory = spaces_.classify_pointer(pointer);
  const std::size_t site = record(pointer, kind, ProbeStyle::kPointerArgument, memory, address,
                                  element);
  if (kind == AccessKind::kWrite) return others;
  load_sites_[call] = site;  // the call's value is the loaded value
  return {site};
}

Taint AccessWalker::visit_call(const clang::CallExpr* call, Use use) {
  const std::string name = callee_name(call);
  if (const std::optional<AccessKind> kind = pointer_access_kind(name);
      kind && call->getNumArgs() >= 1 &&
      (call->getArg(0)->getType()->isPointerType() || call->getArg(0)->isTypeDependent())) {
    return visit_pointer_access(call, *kind);
  }
  const clang::FunctionDecl* callee = call->getDirectCallee();
  Taint taint;
  const clang::Expr* callee_expr = call->getCallee()->IgnoreParenImpCasts();
  if (const auto* member_call = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) {
    (void)member_call;
    if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(callee_expr)) {
      const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(member->getMemberDecl());
      Use object = Use::kAddress;
      if (method != nullptr && !member->isArrow()) {
        object = walk_.device.instrumented(method) ? Use::kAddress
                 : method->isConst()               ? Use::kReferenceRead
                                                   : Use::kReferenceReadWrite;
      }
      taint = visit(member->getBase(), member->isArrow() ? Use::kValue : object);
    }
    taint = merged(taint, visit_arguments(callee, call, 0, 0));
  } else if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call)) {
    const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(callee);
    if (method != nullptr && call->getNumArgs() == 2 &&
        (is_trivial_special_member(method) ||
         is_system_assignment(method, walk_.context.getSourceManager()))) {
      taint = visit(call->getArg(1), Use::kValue);
      visit(call->getArg(0), Use::kWrite);
      return taint;
    }
    if (method != nullptr) {
      const Use object = walk_.device.instrumented(method) ? Use::kAddress
                         : method->isConst()               ? Use::kReferenceRead
                                                           : Use::kReferenceReadWrite;
      taint = visit(call->getArg(0), object);
      taint = merged(taint, visit_arguments(callee, call, 1, 0));
    } else if (callee != nullptr) {
      taint = visit_arguments(callee, call, 0, 0);
    } else {
      // Unresolved operator in a template: decide by the operator alone.
      const clang::OverloadedOperatorKind kind = op->getOperator();
      for (unsigned i = 0; i < call->getNumArgs(); ++i) {
        Use argument = Use::kValue;
        if (i == 0 && kind == clang::OO_Equal) argument = Use::kWrite;
        if (i == 0 && (kind == clang::OO_PlusPlus || kind == clang::OO_MinusMinus ||
                       (kind >= clang::OO_PlusEqual && kind <= clang::OO_GreaterGreaterEqual))) {
          argument = Use::kReadModifyWrite;
        }
        if (kind == clang::OO_Amp && call->getNumArgs() == 1) argument = Use::kAddress;
        if (kind == clang::OO_Subscript && i == 0) argument = Use::kAddress;
        taint = merged(taint, visit(call->getArg(i), argument));
      }
    }
  } else {
    if (is_barrier(name)) {
      for (const clang::Expr* argument : call->arguments()) visit(argument, Use::kValue);
      if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(callee_expr)) {
        visit(member->getBase(), member->isArrow() ? Use::kValue : Use::kAddress);
      }
      flow_.kill_all();
      flow_.start_sequence();
      return {};
    }
    if (const auto* kernel_launch = llvm::dyn_cast<clang::CUDAKernelCallExpr>(call)) {
      taint = visit(kernel_launch->getConfig(), Use::kValue);
    }
    if (const auto* dependent = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(callee_expr)) {
      if (!dependent->isImplicitAccess()) {
        taint = merged(taint, visit(dependent->getBase(),
                                    dependent->isArrow() ? Use::kValue : Use::kAddress));
      }
    } else if (const auto* unresolved = llvm::dyn_cast<clang::UnresolvedMemberExpr>(callee_expr)) {
      if (!unresolved->isImplicitAccess()) {
        taint = merged(taint, visit(unresolved->getBase(),
                                    unresolved->isArrow() ? Use::kValue : Use::kAddress));
      }
    } else if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(callee_expr)) {
      taint = merged(taint, visit(member->getBase(), member->isArrow() ? Use::kValue
                                                                       : Use::kAddress));
    } else if (callee == nullptr) {
      taint = merged(taint, visit(call->getCallee(), Use::kValue));
    }
    taint = merged(taint, visit_arguments(callee, call, 0, 0));
  }
  if (is_barrier(name)) {
    flow_.kill_all();
    flow_.start_sequence();
    return {};
  }
  after_call(callee, name);
  (void)use;
  return taint;
}

Taint AccessWalker::visit_construct(const clang::CXXConstructExpr* construct) {
  const clang::CXXConstructorDecl* constructor = construct->getConstructor();
  if (constructor->isCopyOrMoveConstructor() && is_trivial_special_member(constructor) &&
      construct->getNumArgs() >= 1) {
    return visit(construct->getArg(0), Use::kValue);  // a copy reads the source
  }
  Taint taint;
  for (unsigned i = 0; i < construct->getNumArgs(); ++i) {
    Use use = Use::kValue;
    if (i < constructor->getNumParams()) {
      const clang::QualType type = constructor->getParamDecl(i)->getType();
      if (type->isReferenceType()) use = reference_use(constructor, type);
    }
    taint = merged(taint, visit(construct->getArg(i), use));
  }
  if (constructor->isUserProvided()) after_call(constructor, constructor->getNameAsString());
  return taint;
}

}  // namespace memcarlo::instrumenter
