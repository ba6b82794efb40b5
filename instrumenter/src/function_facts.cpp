// The pre-pass over a function body: definitions, address-taken variables, loops, inductions.
#include "function_facts.hpp"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace memcarlo::instrumenter {

const clang::VarDecl* named_variable(const clang::Expr* expr) {
  if (expr == nullptr) return nullptr;
  const auto* reference = llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  return reference == nullptr ? nullptr : llvm::dyn_cast<clang::VarDecl>(reference->getDecl());
}

FunctionFacts::FunctionFacts(const clang::FunctionDecl& function) : function_(function) {
  if (const auto* constructor = llvm::dyn_cast<clang::CXXConstructorDecl>(&function)) {
    for (const clang::CXXCtorInitializer* initializer : constructor->inits()) {
      if (initializer->isWritten()) walk(initializer->getInit());
    }
  }
  walk(function.getBody());
}

void FunctionFacts::note_modification(const clang::Expr* target, Modification modification) {
  if (const clang::VarDecl* var = named_variable(target)) {
    modification.loop = loop_stack_.empty() ? nullptr : loop_stack_.back();
    modifications_[var].push_back(modification);
  }
}

void FunctionFacts::note_argument(const clang::Expr* argument,
                                  const clang::ParmVarDecl* parameter) {
  if (parameter == nullptr) return;
  const clang::QualType type = parameter->getType();
  if (type->isReferenceType() && !type.getNonReferenceType().isConstQualified()) {
    if (const clang::VarDecl* var = named_variable(argument)) {
      address_taken_.insert(var);
      note_modification(argument, {Modification::Kind::kOther, nullptr, clang::BO_Assign, nullptr});
    }
  }
}

void FunctionFacts::walk(const clang::Stmt* statement) {
  if (statement == nullptr) return;
  using Kind = Modification::Kind;
  auto push_loop = [&](const clang::Stmt* loop, const clang::Expr* condition) {
    LoopInfo info;
    info.parent = loop_stack_.empty() ? nullptr : loop_stack_.back();
    info.depth = static_cast<unsigned>(loop_stack_.size()) + 1;
    info.condition = condition;
    loops_[loop] = info;
    loop_stack_.push_back(loop);
  };
  if (const auto* for_loop = llvm::dyn_cast<clang::ForStmt>(statement)) {
    walk(for_loop->getInit());
    push_loop(for_loop, for_loop->getCond());
    walk(for_loop->getCond());
    walk(for_loop->getInc());
    walk(for_loop->getBody());
    loop_stack_.pop_back();
    return;
  }
  if (const auto* range_loop = llvm::dyn_cast<clang::CXXForRangeStmt>(statement)) {
    walk(range_loop->getInit());
    walk(range_loop->getRangeInit());
    push_loop(range_loop, nullptr);
    modifications_[range_loop->getLoopVariable()].push_back(
        {Kind::kOther, nullptr, clang::BO_Assign, range_loop});
    walk(range_loop->getBody());
    loop_stack_.pop_back();
    return;
  }
  if (const auto* while_loop = llvm::dyn_cast<clang::WhileStmt>(statement)) {
    push_loop(while_loop, while_loop->getCond());
    walk(while_loop->getCond());
    walk(while_loop->getBody());
    loop_stack_.pop_back();
    return;
  }
  if (const auto* do_loop = llvm::dyn_cast<clang::DoStmt>(statement)) {
    push_loop(do_loop, do_loop->getCond());
    walk(do_loop->getBody());
    walk(do_loop->getCond());
    loop_stack_.pop_back();
    return;
  }
  if (llvm::isa<clang::LambdaExpr>(statement)) {
    for (const clang::LambdaCapture& capture : llvm::cast<clang::LambdaExpr>(statement)->captures()) {
      if (capture.capturesVariable() && capture.getCaptureKind() == clang::LCK_ByRef) {
        if (const auto* var = llvm::dyn_cast<clang::VarDecl>(capture.getCapturedVar())) {
          address_taken_.insert(var);
          modifications_[var].push_back({Kind::kOther, nullptr, clang::BO_Assign, nullptr});
        }
      }
    }
    return;  // the body is a function of its own
  }
  if (const auto* declaration = llvm::dyn_cast<clang::DeclStmt>(statement)) {
    for (const clang::Decl* decl : declaration->decls()) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
      if (var == nullptr || var->getInit() == nullptr) continue;
      modifications_[var].push_back({Kind::kInit, var->getInit(), clang::BO_Assign,
                                     loop_stack_.empty() ? nullptr : loop_stack_.back()});
      if (var->getType()->isReferenceType()) {
        if (const clang::VarDecl* target = named_variable(var->getInit())) {
          address_taken_.insert(target);
          note_modification(var->getInit(), {Kind::kOther, nullptr, clang::BO_Assign, nullptr});
        }
      }
    }
  } else if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(statement)) {
    if (binary->getOpcode() == clang::BO_Assign) {
      note_modification(binary->getLHS(), {Kind::kAssign, binary->getRHS(), clang::BO_Assign,
                                           nullptr});
    } else if (binary->isCompoundAssignmentOp()) {
      note_modification(binary->getLHS(), {Kind::kCompound, binary->getRHS(),
                                           binary->getOpcode(), nullptr});
    }
  } else if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(statement)) {
    if (unary->isIncrementOp()) {
      note_modification(unary->getSubExpr(), {Kind::kIncrement, nullptr, clang::BO_Add, nullptr});
    } else if (unary->isDecrementOp()) {
      note_modification(unary->getSubExpr(), {Kind::kDecrement, nullptr, clang::BO_Sub, nullptr});
    } else if (unary->getOpcode() == clang::UO_AddrOf) {
      if (const clang::VarDecl* var = named_variable(unary->getSubExpr())) {
        address_taken_.insert(var);
        note_modification(unary->getSubExpr(), {Kind::kOther, nullptr, clang::BO_Assign, nullptr});
      }
    }
  } else if (const auto* call = llvm::dyn_cast<clang::CallExpr>(statement)) {
    if (const clang::FunctionDecl* callee = call->getDirectCallee()) {
      const unsigned offset = llvm::isa<clang::CXXOperatorCallExpr>(call) &&
                                      llvm::isa<clang::CXXMethodDecl>(callee)
                                  ? 1u
                                  : 0u;
      for (unsigned i = offset; i < call->getNumArgs(); ++i) {
        if (i - offset < callee->getNumParams()) {
          note_argument(call->getArg(i), callee->getParamDecl(i - offset));
        }
      }
      if (offset == 1u && !llvm::cast<clang::CXXMethodDecl>(callee)->isConst()) {
        if (const clang::VarDecl* var = named_variable(call->getArg(0))) {
          if (!var->getType()->isPointerType()) {
            note_modification(call->getArg(0), {Kind::kOther, nullptr, clang::BO_Assign, nullptr});
          }
        }
      }
    }
  } else if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(statement)) {
    const clang::CXXConstructorDecl* constructor = construct->getConstructor();
    for (unsigned i = 0; i < construct->getNumArgs() && i < constructor->getNumParams(); ++i) {
      note_argument(construct->getArg(i), constructor->getParamDecl(i));
    }
  }
  for (const clang::Stmt* child : statement->children()) walk(child);
}

const std::vector<Modification>& FunctionFacts::modifications(const clang::VarDecl* var) const {
  static const std::vector<Modification> kNone;
  const auto it = modifications_.find(var);
  return it == modifications_.end() ? kNone : it->second;
}

const LoopInfo* FunctionFacts::loop(const clang::Stmt* loop) const {
  const auto it = loops_.find(loop);
  return it == loops_.end() ? nullptr : &it->second;
}

bool FunctionFacts::loop_contains(const clang::Stmt* outer, const clang::Stmt* inner) const {
  for (const clang::Stmt* current = inner; current != nullptr;) {
    if (current == outer) return true;
    const LoopInfo* info = loop(current);
    current = info == nullptr ? nullptr : info->parent;
  }
  return false;
}

std::optional<InductionFacts> FunctionFacts::induction(const clang::VarDecl* var,
                                                       const clang::Stmt* loop) const {
  if (address_taken(var) || this->loop(loop) == nullptr) return std::nullopt;
  const Modification* outside = nullptr;
  const Modification* inside = nullptr;
  for (const Modification& modification : modifications(var)) {
    const bool in_loop = modification.loop != nullptr && loop_contains(loop, modification.loop);
    const Modification*& slot = in_loop ? inside : outside;
    if (slot != nullptr) return std::nullopt;
    slot = &modification;
  }
  const bool var_is_parameter = llvm::isa<clang::ParmVarDecl>(var);
  if (inside == nullptr || (outside == nullptr && !var_is_parameter)) return std::nullopt;
  if (outside != nullptr && outside->kind != Modification::Kind::kInit &&
      outside->kind != Modification::Kind::kAssign) {
    return std::nullopt;
  }
  InductionFacts facts;
  facts.init = outside == nullptr ? nullptr : outside->value;
  switch (inside->kind) {
    case Modification::Kind::kIncrement: facts.step_value = 1; break;
    case Modification::Kind::kDecrement: facts.step_value = -1; break;
    case Modification::Kind::kCompound:
      if (inside->op != clang::BO_AddAssign && inside->op != clang::BO_SubAssign) {
        return std::nullopt;
      }
      facts.step = inside->value;
      facts.step_value = inside->op == clang::BO_AddAssign ? 1 : -1;
      break;
    default: return std::nullopt;
  }
  // The bound, when the loop condition compares the variable with something.
  if (const clang::Expr* condition = this->loop(loop)->condition) {
    if (const auto* compare =
            llvm::dyn_cast<clang::BinaryOperator>(condition->IgnoreParenImpCasts())) {
      if (compare->isComparisonOp()) {
        const bool left = named_variable(compare->getLHS()) == var;
        const bool right = named_variable(compare->getRHS()) == var;
        if (left != right) {
          clang::BinaryOperatorKind op = compare->getOpcode();
          if (right) op = clang::BinaryOperator::reverseComparisonOp(op);
          facts.bound = left ? compare->getRHS() : compare->getLHS();
          facts.comparison = clang::BinaryOperator::getOpcodeStr(op).str();
        }
      }
    }
  }
  return facts;
}

}  // namespace memcarlo::instrumenter
