// Memory-lvalue recognition and address-space provenance of pointers (flow-insensitive: a local
// pointer's space is the join over all of its definitions; anything unresolved is "unknown").
#include "address_space.hpp"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

bool is_non_global(const std::string& space) {
  return space == "shared" || space == "local" || space == "constant" || space == "param";
}

namespace {
std::string spelled_base(const clang::Expr* expr) {
  expr = expr->IgnoreParenImpCasts();
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    return reference->getDecl()->getNameAsString();
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr)) {
    const clang::Expr* base = member->getBase()->IgnoreParenImpCasts();
    const std::string name = member->getMemberDecl()->getNameAsString();
    if (llvm::isa<clang::CXXThisExpr>(base)) return member->isImplicitAccess() ? name : "this->" + name;
    const std::string inner = spelled_base(base);
    if (inner.empty()) return name;
    return inner + (member->isArrow() ? "->" : ".") + name;
  }
  if (llvm::isa<clang::CXXThisExpr>(expr)) return "this";
  return "";
}

bool is_restrict_pointer(const clang::ValueDecl* decl) {
  return decl != nullptr && decl->getType().isRestrictQualified();
}
}  // namespace

MemoryClass AddressSpaceAnalysis::join(const MemoryClass& a, const MemoryClass& b) {
  MemoryClass result = a;
  if (a.space != b.space) result.space = "unknown";
  if (a.root != b.root) {
    result.root = nullptr;
    result.root_is_restrict = false;
  }
  return result;
}

MemoryClass AddressSpaceAnalysis::variable_storage(const clang::VarDecl* variable) const {
  MemoryClass result;
  result.is_memory = true;
  result.root = variable;
  result.base = variable->getNameAsString();
  if (variable->hasAttr<clang::CUDASharedAttr>()) {
    result.space = "shared";
  } else if (variable->hasAttr<clang::CUDAConstantAttr>()) {
    result.space = "constant";
  } else if (llvm::isa<clang::ParmVarDecl>(variable)) {
    result.space = "param";
  } else if (variable->hasLocalStorage()) {
    result.space = "local";
  } else if (variable->hasAttr<clang::CUDADeviceAttr>() ||
             variable->hasAttr<clang::HIPManagedAttr>()) {
    result.space = "global";
  } else if (variable->isStaticLocal()) {
    result.space = "global";
  } else {
    result.space = "unknown";
  }
  return result;
}

MemoryClass AddressSpaceAnalysis::pointer_variable(const clang::VarDecl* variable) const {
  MemoryClass result;
  result.is_memory = true;
  result.root = variable;
  result.root_is_restrict = is_restrict_pointer(variable);
  result.base = variable->getNameAsString();
  if (const auto* parameter = llvm::dyn_cast<clang::ParmVarDecl>(variable)) {
    // Kernel pointer arguments come from the host: they point to global memory.
    const bool kernel = function_.hasAttr<clang::CUDAGlobalAttr>();
    result.space = kernel && facts_.modifications(parameter).empty() ? "global" : "unknown";
    return result;
  }
  if (!variable->hasLocalStorage() || facts_.address_taken(variable) ||
      visiting_.count(variable) != 0) {
    return result;  // globals holding pointers, escaped or recursive definitions: unknown
  }
  const std::vector<Modification>& definitions = facts_.modifications(variable);
  if (definitions.empty()) return result;
  visiting_.insert(variable);
  std::optional<MemoryClass> joined;
  for (const Modification& definition : definitions) {
    MemoryClass space;
    if (definition.kind == Modification::Kind::kInit ||
        definition.kind == Modification::Kind::kAssign) {
      space = classify_pointer(definition.value);
    } else if (definition.kind == Modification::Kind::kIncrement ||
               definition.kind == Modification::Kind::kDecrement ||
               definition.kind == Modification::Kind::kCompound) {
      continue;  // pointer arithmetic keeps the space
    } else {
      visiting_.erase(variable);
      return result;
    }
    joined = joined ? join(*joined, space) : space;
  }
  visiting_.erase(variable);
  if (joined) {
    result.space = joined->space;
    if (joined->root != nullptr) {
      result.root = joined->root;
      result.root_is_restrict = joined->root_is_restrict;
    }
  }
  return result;
}

MemoryClass AddressSpaceAnalysis::classify_pointer(const clang::Expr* pointer) const {
  MemoryClass unknown;
  unknown.is_memory = true;
  if (pointer == nullptr) return unknown;
  pointer = pointer->IgnoreParens();
  unknown.base = spelled_base(pointer);
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(pointer)) {
    if (cast->getCastKind() == clang::CK_ArrayToPointerDecay) return storage_of(cast->getSubExpr());
    if (cast->getCastKind() == clang::CK_LValueToRValue) {
      if (const clang::VarDecl* variable = named_variable(cast->getSubExpr())) {
        if (!variable->getType()->isReferenceType()) return pointer_variable(variable);
      }
      MemoryClass loaded = unknown;  // a pointer loaded from memory
      return loaded;
    }
    if (cast->getCastKind() == clang::CK_NullToPointer ||
        cast->getCastKind() == clang::CK_IntegralToPointer) {
      return unknown;
    }
    return classify_pointer(cast->getSubExpr());
  }
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(pointer)) {
    // Dependent code has no lvalue-to-rvalue casts.
    if (const auto* variable = llvm::dyn_cast<clang::VarDecl>(reference->getDecl())) {
      if (variable->getType()->isArrayType()) return variable_storage(variable);
      if (!variable->getType()->isReferenceType()) return pointer_variable(variable);
    }
    return unknown;
  }
  if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(pointer)) {
    if (binary->isAdditiveOp()) {
      const clang::Expr* lhs = binary->getLHS();
      const clang::Expr* rhs = binary->getRHS();
      const bool left_pointer = lhs->getType()->isPointerType() || lhs->getType()->isArrayType();
      const bool right_pointer = rhs->getType()->isPointerType() || rhs->getType()->isArrayType();
      if (left_pointer && !right_pointer) return classify_pointer(lhs);
      if (right_pointer && !left_pointer) return classify_pointer(rhs);
      if (lhs->isTypeDependent()) return classify_pointer(lhs);
    }
    if (binary->isAssignmentOp() || binary->getOpcode() == clang::BO_Comma) {
      return classify_pointer(binary->getRHS());
    }
    return unknown;
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(pointer)) {
    if (unary->getOpcode() == clang::UO_AddrOf) return storage_of(unary->getSubExpr());
    if (unary->isIncrementDecrementOp()) return classify_pointer(unary->getSubExpr());
    return unknown;
  }
  if (const auto* conditional = llvm::dyn_cast<clang::ConditionalOperator>(pointer)) {
    return join(classify_pointer(conditional->getTrueExpr()),
                classify_pointer(conditional->getFalseExpr()));
  }
  if (const auto* explicit_cast = llvm::dyn_cast<clang::CXXNamedCastExpr>(pointer)) {
    return classify_pointer(explicit_cast->getSubExpr());
  }
  return unknown;
}

MemoryClass AddressSpaceAnalysis::storage_of(const clang::Expr* lvalue) const {
  // Where the object designated by `lvalue` lives, whether or not it is reached by a pointer.
  const clang::Expr* expr = lvalue->IgnoreParenImpCasts();
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    if (const auto* variable = llvm::dyn_cast<clang::VarDecl>(reference->getDecl())) {
      if (variable->getType()->isReferenceType()) return classify_lvalue(expr);
      return variable_storage(variable);
    }
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr)) {
    if (!member->isArrow()) {
      MemoryClass base = storage_of(member->getBase());
      base.base = spelled_base(member);
      return base;
    }
  }
  MemoryClass result = classify_lvalue(expr);
  result.is_memory = true;
  return result;
}

MemoryClass AddressSpaceAnalysis::classify_lvalue(const clang::Expr* lvalue) const {
  MemoryClass none;
  const clang::Expr* expr = lvalue->IgnoreParens();
  if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(expr)) {
    const clang::Expr* base = subscript->getBase();
    const clang::Expr* stripped = base->IgnoreParenImpCasts();
    MemoryClass result = stripped->getType()->isArrayType() ? storage_of(stripped)
                                                            : classify_pointer(base);
    result.is_memory = true;
    if (result.base.empty()) result.base = spelled_base(base);
    if (stripped->getType()->isArrayType() && !llvm::isa<clang::DeclRefExpr>(stripped)) {
      result.base = spelled_base(stripped).empty() ? result.base : spelled_base(stripped);
    }
    return result;
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
    if (unary->getOpcode() != clang::UO_Deref) return none;
    MemoryClass result = classify_pointer(unary->getSubExpr());
    result.is_memory = true;
    return result;
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr)) {
    if (const auto* field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
        field == nullptr && !llvm::isa<clang::VarDecl>(member->getMemberDecl())) {
      return none;  // methods
    }
    if (llvm::isa<clang::VarDecl>(member->getMemberDecl())) {
      return variable_storage(llvm::cast<clang::VarDecl>(member->getMemberDecl()));
    }
    if (member->isArrow()) {
      MemoryClass result = classify_pointer(member->getBase());
      result.is_memory = true;
      return result;
    }
    MemoryClass base = classify_lvalue(member->getBase());
    if (!base.is_memory) return none;
    return base;
  }
  if (const auto* dependent = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(expr)) {
    if (dependent->isImplicitAccess()) return none;
    if (dependent->isArrow()) {
      MemoryClass result = classify_pointer(dependent->getBase());
      result.is_memory = true;
      return result;
    }
    return classify_lvalue(dependent->getBase());
  }
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    const auto* variable = llvm::dyn_cast<clang::VarDecl>(reference->getDecl());
    if (variable == nullptr) return none;
    if (variable->getType()->isReferenceType()) {
      MemoryClass result;
      result.is_memory = true;
      result.base = variable->getNameAsString();
      result.root = variable;
      if (!llvm::isa<clang::ParmVarDecl>(variable) && variable->getInit() != nullptr &&
          !facts_.address_taken(variable)) {
        const clang::Expr* init = variable->getInit()->IgnoreParenImpCasts();
        const clang::VarDecl* aliased = named_variable(init);
        if (aliased != nullptr && aliased->hasLocalStorage() &&
            !aliased->getType()->isReferenceType()) {
          return none;  // a reference to a register variable
        }
        const MemoryClass bound = classify_lvalue(init);
        if (bound.is_memory) return bound;
      }
      return result;
    }
    if (variable->hasLocalStorage()) return none;  // registers: not reached by a pointer
    if (variable->hasAttr<clang::CUDADeviceAttr>() || variable->hasAttr<clang::HIPManagedAttr>() ||
        variable->hasAttr<clang::CUDASharedAttr>() || variable->hasAttr<clang::CUDAConstantAttr>()) {
      return variable_storage(variable);
    }
    return none;
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) {
    // A function returning a reference designates memory the caller accesses.
    if (call->isLValue() && call->getType()->isObjectType() &&
        !llvm::isa<clang::CXXOperatorCallExpr>(call)) {
      MemoryClass result;
      result.is_memory = true;
      return result;
    }
    return none;
  }
  return none;
}

}  // namespace memcarlo::instrumenter
