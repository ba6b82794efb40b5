// Symbolic evaluation of index and pointer expressions into index forms.
#include "index_builder.hpp"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

namespace {
SymbolicValue combine(const SymbolicValue& a, const SymbolicValue& b,
                      Polynomial (*op)(const Polynomial&, const Polynomial&)) {
  if (!a.polynomial) return a;
  if (!b.polynomial) return b;
  return {op(*a.polynomial, *b.polynomial), ""};
}
Polynomial plus(const Polynomial& a, const Polynomial& b) { return a + b; }
Polynomial minus(const Polynomial& a, const Polynomial& b) { return a - b; }
Polynomial times(const Polynomial& a, const Polynomial& b) { return a * b; }

SymbolicValue constant(std::int64_t value) { return {Polynomial::constant(value), ""}; }

SymbolKind builtin_kind(const std::string& name) {
  if (name.rfind("threadIdx", 0) == 0) return SymbolKind::kThread;
  if (name.rfind("blockIdx", 0) == 0) return SymbolKind::kBlock;
  return SymbolKind::kLaunchParameter;
}
}  // namespace

SymbolicValue IndexBuilder::add_symbol(const std::string& name, SymbolKind kind) {
  form_->symbols[name] = kind;
  return {Polynomial::symbol(name), ""};
}

SymbolicValue IndexBuilder::size_of(clang::QualType type) {
  if (type.isNull()) return add_symbol("sizeof(element)", SymbolKind::kSize);  // not known yet
  type = type.getNonReferenceType().getUnqualifiedType();
  if (type->isVoidType()) return constant(1);
  if (type->isDependentType() || type->isIncompleteType()) {
    return add_symbol("sizeof(" + type_name(context_, type) + ")", SymbolKind::kSize);
  }
  return constant(context_.getTypeSizeInChars(type).getQuantity());
}

std::optional<SymbolicValue> IndexBuilder::loaded(const clang::Expr* lvalue) {
  const auto it = load_sites_.find(lvalue->IgnoreParens());
  if (it == load_sites_.end()) return std::nullopt;
  return add_symbol(load_symbol(it->second), SymbolKind::kLoad);
}

SymbolicValue IndexBuilder::value(const clang::Expr* expr) {
  if (expr == nullptr) return SymbolicValue::unknown("missing expression");
  expr = expr->IgnoreParens();
  if (!expr->isValueDependent() && !expr->isTypeDependent() &&
      expr->getType()->isIntegralOrEnumerationType()) {
    clang::Expr::EvalResult result;
    if (expr->EvaluateAsInt(result, context_)) return constant(result.Val.getInt().getExtValue());
  }
  if (const std::optional<std::string> builtin = cuda_builtin_index(expr)) {
    return add_symbol(*builtin, builtin_kind(*builtin));
  }
  if (std::optional<SymbolicValue> load = loaded(expr)) return *load;
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(expr)) {
    if (cast->getCastKind() == clang::CK_FloatingToIntegral ||
        cast->getType()->isFloatingType()) {
      return SymbolicValue::unknown("floating-point arithmetic");
    }
    if (cast->getCastKind() == clang::CK_IntegralToBoolean) {
      return SymbolicValue::unknown("boolean conversion");
    }
    return value(cast->getSubExpr());
  }
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    const clang::ValueDecl* decl = reference->getDecl();
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl)) {
      return variable(var, var->getNameAsString());
    }
    if (llvm::isa<clang::NonTypeTemplateParmDecl>(decl)) {
      return add_symbol(decl->getNameAsString(), SymbolKind::kKernelParameter);
    }
    return SymbolicValue::unknown("`" + decl->getNameAsString() + "`");
  }
  if (const auto* substituted = llvm::dyn_cast<clang::SubstNonTypeTemplateParmExpr>(expr)) {
    return value(substituted->getReplacement());
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
    switch (unary->getOpcode()) {
      case clang::UO_Minus: {
        SymbolicValue inner = value(unary->getSubExpr());
        if (inner.polynomial) inner.polynomial = inner.polynomial->scaled(-1);
        return inner;
      }
      case clang::UO_Plus:
      case clang::UO_PostInc:
      case clang::UO_PostDec: return value(unary->getSubExpr());
      case clang::UO_PreInc: return combine(value(unary->getSubExpr()), constant(1), plus);
      case clang::UO_PreDec: return combine(value(unary->getSubExpr()), constant(1), minus);
      default: return SymbolicValue::unknown("operator " +
                                             clang::UnaryOperator::getOpcodeStr(
                                                 unary->getOpcode()).str());
    }
  }
  if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(expr)) {
    const SymbolicValue left = value(binary->getLHS());
    switch (binary->getOpcode()) {
      case clang::BO_Add: return combine(left, value(binary->getRHS()), plus);
      case clang::BO_Sub: return combine(left, value(binary->getRHS()), minus);
      case clang::BO_Mul: return combine(left, value(binary->getRHS()), times);
      case clang::BO_Comma: return value(binary->getRHS());
      case clang::BO_Shl: {
        const SymbolicValue shift = value(binary->getRHS());
        if (left.polynomial && shift.polynomial && shift.polynomial->is_constant() &&
            shift.polynomial->constant_term() >= 0 && shift.polynomial->constant_term() < 62) {
          return {left.polynomial->scaled(std::int64_t{1} << shift.polynomial->constant_term()),
                  ""};
        }
        return SymbolicValue::unknown("shift by a variable amount");
      }
      case clang::BO_Div: {
        const SymbolicValue divisor = value(binary->getRHS());
        if (left.polynomial && divisor.polynomial && divisor.polynomial->is_constant()) {
          if (auto exact = left.polynomial->divided_exactly(divisor.polynomial->constant_term())) {
            return {*exact, ""};
          }
        }
        return SymbolicValue::unknown("division");
      }
      case clang::BO_Rem: return SymbolicValue::unknown("remainder (%)");
      default:
        return SymbolicValue::unknown("operator " + binary->getOpcodeStr().str());
    }
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) {
    const std::string name = callee_name(call);
    if ((name == "__mul24" || name == "__umul24") && call->getNumArgs() == 2) {
      return combine(value(call->getArg(0)), value(call->getArg(1)), times);
    }
    return SymbolicValue::unknown("call to " + (name.empty() ? std::string("a function") : name));
  }
  if (llvm::isa<clang::ConditionalOperator>(expr)) {
    return SymbolicValue::unknown("conditional expression");
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr)) {
    // A field of a by-value parameter (kernel arguments packed in a struct).
    if (const auto* parameter = llvm::dyn_cast<clang::DeclRefExpr>(
            member->getBase()->IgnoreParenImpCasts())) {
      if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(parameter->getDecl())) {
        if (!param->getType()->isReferenceType() && !member->isArrow() &&
            facts_.modifications(param).empty()) {
          const bool kernel = facts_.function().hasAttr<clang::CUDAGlobalAttr>();
          return add_symbol(param->getNameAsString() + "." +
                                member->getMemberDecl()->getNameAsString(),
                            kernel ? SymbolKind::kKernelParameter : SymbolKind::kVariable);
        }
      }
    }
  }
  return SymbolicValue::unknown(std::string("unsupported expression (") +
                                expr->getStmtClassName() + ")");
}

SymbolicValue IndexBuilder::variable(const clang::VarDecl* var, const std::string& name) {
  // Induction variable of an enclosing loop (innermost first)?
  for (auto loop = loops_.rbegin(); loop != loops_.rend(); ++loop) {
    const std::optional<InductionFacts> induction = facts_.induction(var, *loop);
    if (!induction) continue;
    if (inductions_done_.insert(var).second && visiting_.insert(var).second) {
      Induction info;
      info.variable = name;
      info.loop_depth = facts_.loop(*loop)->depth;
      const std::vector<const clang::Stmt*> saved = loops_;
      const auto outer_count = loop.base() - loops_.begin() - 1;
      loops_ = std::vector<const clang::Stmt*>(saved.begin(), saved.begin() + outer_count);
      info.init = induction->init != nullptr
                      ? value(induction->init)
                      : add_symbol(name + "@entry", SymbolKind::kVariable);
      loops_ = saved;
      if (induction->step != nullptr) {
        info.step = value(induction->step);
        if (info.step.polynomial) {
          info.step.polynomial = info.step.polynomial->scaled(induction->step_value);
        }
      } else {
        info.step = constant(induction->step_value);
      }
      if (induction->bound != nullptr) {
        info.bound = value(induction->bound);
        info.comparison = induction->comparison;
      }
      visiting_.erase(var);
      form_->inductions.push_back(std::move(info));
    }
    return add_symbol(name, SymbolKind::kInduction);
  }
  const std::vector<Modification>& definitions = facts_.modifications(var);
  const std::optional<const clang::Expr*> reaching =
      facts_.address_taken(var) ? std::optional<const clang::Expr*>(nullptr)
                                : reaching_.lookup(var);
  if (llvm::isa<clang::ParmVarDecl>(var)) {
    // The argument itself until the walk has seen an assignment (then that assignment).
    if (definitions.empty() || !reaching) {
      const bool kernel = facts_.function().hasAttr<clang::CUDAGlobalAttr>();
      return add_symbol(name, kernel ? SymbolKind::kKernelParameter : SymbolKind::kVariable);
    }
    if (*reaching == nullptr) return SymbolicValue::unknown("parameter `" + name + "` is modified");
    return substitute(var, *reaching);
  }
  if (!var->hasLocalStorage()) {
    if (var->getType().isConstQualified() || var->hasAttr<clang::CUDAConstantAttr>() ||
        var->hasAttr<clang::CUDADeviceAttr>()) {
      return add_symbol(name, SymbolKind::kKernelParameter);
    }
    return SymbolicValue::unknown("global variable `" + name + "`");
  }
  if (var->getType()->isReferenceType()) {
    return SymbolicValue::unknown("reference `" + name + "`");
  }
  if (reaching) {
    if (*reaching == nullptr) {
      return SymbolicValue::unknown("`" + name + "` is assigned in several places");
    }
    return substitute(var, *reaching);
  }
  if (definitions.size() != 1 || facts_.address_taken(var) ||
      (definitions.front().kind != Modification::Kind::kInit &&
       definitions.front().kind != Modification::Kind::kAssign)) {
    return SymbolicValue::unknown(definitions.empty()
                                      ? "`" + name + "` has no visible definition"
                                      : "`" + name + "` is assigned in several places");
  }
  return substitute(var, definitions.front().value);
}

SymbolicValue IndexBuilder::substitute(const clang::VarDecl* var, const clang::Expr* value) {
  if (!visiting_.insert(var).second) return SymbolicValue::unknown("recursive definition");
  SymbolicValue result = this->value(value);
  visiting_.erase(var);
  return result;
}

IndexBuilder::Address IndexBuilder::pointer_variable(const clang::VarDecl* var) {
  const std::string name = var->getNameAsString();
  const std::vector<Modification>& definitions = facts_.modifications(var);
  if (llvm::isa<clang::ParmVarDecl>(var) || !var->hasLocalStorage()) {
    if (definitions.empty()) return {name, constant(0)};
    return {name, SymbolicValue::unknown("pointer `" + name + "` is modified")};
  }
  if (definitions.size() == 1 && !facts_.address_taken(var) &&
      (definitions.front().kind == Modification::Kind::kInit ||
       definitions.front().kind == Modification::Kind::kAssign) &&
      visiting_.insert(var).second) {
    Address address = pointer_value(definitions.front().value);
    visiting_.erase(var);
    return address;
  }
  return {name, SymbolicValue::unknown("pointer `" + name + "` is assigned in several places")};
}

IndexBuilder::Address IndexBuilder::pointer_value(const clang::Expr* pointer) {
  pointer = pointer->IgnoreParens();
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(pointer)) {
    if (cast->getCastKind() == clang::CK_ArrayToPointerDecay) {
      return address_of_lvalue(cast->getSubExpr());
    }
    if (cast->getCastKind() == clang::CK_LValueToRValue) {
      if (std::optional<SymbolicValue> load = loaded(cast->getSubExpr())) {
        return {load->polynomial->to_string(), constant(0)};
      }
      if (const clang::VarDecl* var = named_variable(cast->getSubExpr())) {
        if (!var->getType()->isReferenceType()) return pointer_variable(var);
      }
      const SymbolicValue member = value(cast->getSubExpr());
      if (member.polynomial) return {member.polynomial->to_string(), constant(0)};
      return {"?", member};
    }
    return pointer_value(cast->getSubExpr());
  }
  if (std::optional<SymbolicValue> load = loaded(pointer)) {
    return {load->polynomial->to_string(), constant(0)};
  }
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(pointer)) {
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(reference->getDecl())) {
      if (var->getType()->isArrayType()) return {var->getNameAsString(), constant(0)};
      return pointer_variable(var);
    }
  }
  if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(pointer)) {
    if (binary->isAdditiveOp()) {
      const clang::Expr* lhs = binary->getLHS();
      const clang::Expr* rhs = binary->getRHS();
      const bool pointer_on_left = !rhs->getType()->isPointerType() &&
                                   (lhs->getType()->isPointerType() || lhs->isTypeDependent());
      const clang::Expr* base = pointer_on_left ? lhs : rhs;
      const clang::Expr* step = pointer_on_left ? rhs : lhs;
      Address address = pointer_value(base);
      clang::QualType pointee = base->getType()->getPointeeOrArrayElementType()
                                    ? clang::QualType(
                                          base->getType()->getPointeeOrArrayElementType(), 0)
                                    : clang::QualType();
      SymbolicValue scaled = combine(value(step), pointee.isNull()
                                                      ? SymbolicValue::unknown("pointer type")
                                                      : size_of(pointee),
                                     times);
      address.offset = combine(address.offset, scaled,
                               binary->getOpcode() == clang::BO_Add ? plus : minus);
      return address;
    }
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(pointer)) {
    if (unary->getOpcode() == clang::UO_AddrOf) return address_of_lvalue(unary->getSubExpr());
  }
  if (llvm::isa<clang::CXXThisExpr>(pointer)) return {"this", constant(0)};
  if (const auto* explicit_cast = llvm::dyn_cast<clang::CXXNamedCastExpr>(pointer)) {
    return pointer_value(explicit_cast->getSubExpr());
  }
  return {"?", SymbolicValue::unknown(std::string("pointer computed by ") +
                                      pointer->getStmtClassName())};
}

IndexBuilder::Address IndexBuilder::address_of_lvalue(const clang::Expr* lvalue) {
  lvalue = lvalue->IgnoreParens();
  if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(lvalue)) {
    const clang::Expr* base = subscript->getBase();
    const clang::Expr* stripped = base->IgnoreParenImpCasts();
    Address address = stripped->getType()->isArrayType() ? address_of_lvalue(stripped)
                                                         : pointer_value(base);
    address.offset = combine(address.offset,
                             combine(value(subscript->getIdx()), size_of(subscript->getType()),
                                     times),
                             plus);
    return address;
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(lvalue)) {
    if (unary->getOpcode() == clang::UO_Deref) return pointer_value(unary->getSubExpr());
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(lvalue)) {
    Address address = member->isArrow() ? pointer_value(member->getBase())
                                         : address_of_lvalue(member->getBase());
    SymbolicValue field_offset = SymbolicValue::unknown("field offset");
    if (const auto* field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl())) {
      const clang::RecordDecl* record = field->getParent();
      if (!record->isDependentType() && record->isCompleteDefinition() && !field->isBitField()) {
        field_offset = constant(static_cast<std::int64_t>(context_.getFieldOffset(field) / 8));
      } else {
        field_offset = add_symbol("offsetof(" + field->getNameAsString() + ")", SymbolKind::kSize);
      }
    }
    address.offset = combine(address.offset, field_offset, plus);
    return address;
  }
  if (const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(lvalue)) {
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(reference->getDecl())) {
      if (var->getType()->isReferenceType() && !llvm::isa<clang::ParmVarDecl>(var) &&
          var->getInit() != nullptr && facts_.modifications(var).size() == 1 &&
          visiting_.insert(var).second) {
        Address address = address_of_lvalue(var->getInit());
        visiting_.erase(var);
        return address;
      }
      return {var->getNameAsString(), constant(0)};
    }
  }
  if (const auto* dependent = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(lvalue)) {
    if (!dependent->isImplicitAccess()) {
      Address address = dependent->isArrow() ? pointer_value(dependent->getBase())
                                             : address_of_lvalue(dependent->getBase());
      address.offset = combine(
          address.offset,
          add_symbol("offsetof(" + dependent->getMember().getAsString() + ")", SymbolKind::kSize),
          plus);
      return address;
    }
  }
  return {"?", SymbolicValue::unknown(std::string("address computed by ") +
                                      lvalue->getStmtClassName())};
}

IndexForm IndexBuilder::finish(Address address, clang::QualType element) {
  IndexForm& form = *form_;
  form.root = address.root;
  form.offset = address.offset;
  form.in_elements = false;
  if (form.offset.polynomial) {
    const SymbolicValue size = size_of(element);
    if (size.polynomial && size.polynomial->is_constant()) {
      if (auto elements = form.offset.polynomial->divided_exactly(size.polynomial->constant_term())) {
        form.offset.polynomial = *elements;
        form.in_elements = true;
      }
    } else if (size.polynomial) {
      const std::string symbol = size.polynomial->terms().begin()->first.front();
      if (auto elements = form.offset.polynomial->divided_by_symbol(symbol)) {
        form.offset.polynomial = *elements;
        form.in_elements = true;
      } else if (form.offset.polynomial->terms().empty()) {
        form.in_elements = true;
      }
    }
  }
  // Keep only the symbols that remain in the final forms.
  std::set<std::string> used;
  auto collect = [&](const SymbolicValue& value) {
    if (!value.polynomial) return;
    for (const auto& [monomial, coefficient] : value.polynomial->terms()) {
      used.insert(monomial.begin(), monomial.end());
    }
  };
  collect(form.offset);
  for (const Induction& induction : form.inductions) {
    used.insert(induction.variable);
    collect(induction.init);
    collect(induction.step);
    collect(induction.bound);
  }
  used.insert(form.root);
  for (auto it = form.symbols.begin(); it != form.symbols.end();) {
    it = used.count(it->first) != 0 ? std::next(it) : form.symbols.erase(it);
  }
  return form;
}

IndexForm IndexBuilder::for_lvalue(const clang::Expr* lvalue,
                                   const std::vector<const clang::Stmt*>& loops) {
  IndexForm form;
  form_ = &form;
  loops_ = loops;
  inductions_done_.clear();
  Address address = address_of_lvalue(lvalue);
  IndexForm result = finish(std::move(address), lvalue->getType());
  form_ = nullptr;
  return result;
}

IndexForm IndexBuilder::for_pointer(const clang::Expr* pointer, clang::QualType element,
                                    const std::vector<const clang::Stmt*>& loops) {
  IndexForm form;
  form_ = &form;
  loops_ = loops;
  inductions_done_.clear();
  Address address = pointer_value(pointer);
  IndexForm result = finish(std::move(address), element);
  form_ = nullptr;
  return result;
}

}  // namespace memcarlo::instrumenter
