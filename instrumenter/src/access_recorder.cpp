// Creating and completing access sites: what the table says about an access (location, text,
// type, base, space), why it is not probed (non-global space, macro body, bit-field, ...), and
// its index form, redundancy, sequence and dependences once the walk records.
#include "access_walker.hpp"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

namespace {
bool has_overloaded_address_of(clang::QualType type) {
  const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
  if (record == nullptr || !record->hasDefinition()) return false;
  for (const clang::CXXMethodDecl* method : record->methods()) {
    if (method->getOverloadedOperator() == clang::OO_Amp && method->getNumParams() == 0) {
      return true;
    }
  }
  return false;
}

/// In a template pattern, true when the access is a builtin one in every instantiation.
bool provably_builtin(const clang::Expr* expr, ProbeStyle style) {
  auto pointer_like = [](const clang::Expr* e) {
    const clang::QualType type = e->IgnoreParenImpCasts()->getType();
    return type->isPointerType() || type->isArrayType() || !e->isTypeDependent();
  };
  if (style == ProbeStyle::kPointerArgument) {
    // atomicAdd(&out[i], v) with `T* out`: the address of a built-in access.
    if (const auto* address_of = llvm::dyn_cast<clang::UnaryOperator>(expr->IgnoreParens());
        address_of != nullptr && address_of->getOpcode() == clang::UO_AddrOf) {
      return provably_builtin(address_of->getSubExpr(), ProbeStyle::kLvalue);
    }
    return pointer_like(expr);
  }
  expr = expr->IgnoreParens();
  if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(expr)) {
    // Built in when one side is a pointer or an array; a type-dependent side that is neither may
    // be a class whose operator[] returns a value (`r[0]` with `const Vec3& r` in Vec3<T>), even
    // when the index (`0`) is not dependent.
    auto pointer_or_array = [](const clang::Expr* e) {
      const clang::QualType type = e->IgnoreParenImpCasts()->getType();
      return type->isPointerType() || type->isArrayType();
    };
    if (pointer_or_array(subscript->getLHS()) || pointer_or_array(subscript->getRHS())) {
      return true;
    }
    return !subscript->getLHS()->isTypeDependent() && !subscript->getRHS()->isTypeDependent();
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
    return pointer_like(unary->getSubExpr());
  }
  if (const auto* dependent = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(expr)) {
    return !dependent->isArrow() || pointer_like(dependent->getBase());
  }
  return true;
}
}  // namespace

std::string to_string(AccessKind kind) {
  switch (kind) {
    case AccessKind::kRead: return "read";
    case AccessKind::kWrite: return "write";
    case AccessKind::kReadModifyWrite: return "rmw";
    case AccessKind::kAtomic: return "atomic";
  }
  return "read";
}

void AccessWalker::describe(AccessSite& site, const clang::Expr* expr, const MemoryClass& memory,
                            clang::QualType element) const {
  const clang::SourceManager& sources = walk_.context.getSourceManager();
  const clang::LangOptions& language = walk_.context.getLangOpts();
  site.range = rewritable_range(sources, language, expr->getSourceRange());
  if (site.range && !is_user_file(sources, expr->getBeginLoc(), walk_.toolkit)) {
    site.range.reset();
  }
  const clang::PresumedLoc presumed =
      sources.getPresumedLoc(sources.getExpansionLoc(expr->getBeginLoc()));
  if (presumed.isValid()) {
    site.file = presumed.getFilename();
    site.line = presumed.getLine();
    site.column = presumed.getColumn();
  }
  site.location = describe_location(sources, expr->getBeginLoc());
  // For atomicAdd(&a[i], v) the access is a[i], not the pointer argument.
  const clang::Expr* accessed = expr;
  if (const auto* address = llvm::dyn_cast<clang::UnaryOperator>(expr->IgnoreParenImpCasts());
      address != nullptr && address->getOpcode() == clang::UO_AddrOf) {
    accessed = address->getSubExpr();
  }
  site.expression = source_text(sources, language, accessed->getSourceRange());
  site.function = function_name_;
  if (element.isNull()) {
    site.element_type = "unknown";
  } else {
    site.element_type = type_name(walk_.context, element);
    const clang::QualType plain = element.getNonReferenceType();
    if (!plain->isDependentType() && !plain->isIncompleteType() && !plain->isVoidType()) {
      site.element_size =
          static_cast<std::uint32_t>(walk_.context.getTypeSizeInChars(plain).getQuantity());
    }
  }
  site.base = memory.base.empty() ? site.expression : memory.base;
  site.address_space = memory.space;
  site.root_decl = memory.root;
  site.root_is_restrict = memory.root_is_restrict;
}

std::string AccessWalker::static_skip_reason(const clang::Expr* expr, const MemoryClass& memory,
                                             ProbeStyle style) const {
  if (is_non_global(memory.space)) return memory.space == "param" ? "parameter" : memory.space;
  // Explicitly constexpr functions may be evaluated at compile time, where a probe cannot run;
  // lambdas are only implicitly constexpr and simply stop being so.
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(&function_);
  const bool lambda = method != nullptr && method->getParent()->isLambda();
  if (function_.isConstexpr() && !lambda) return "constexpr";
  if (function_.isDependentContext() && !provably_builtin(expr, style)) {
    return "template-dependent";
  }
  if (style == ProbeStyle::kLvalue) {
    if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr->IgnoreParens())) {
      if (const auto* field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
          field != nullptr && field->isBitField()) {
        return "bit-field";
      }
    }
    if (has_overloaded_address_of(expr->getType())) return "operator&";
  }
  // A range-based for's element or range, through the __begin and __range variables the
  // compiler declares (`*__begin`, `__range.begin()`): no source text to rewrite (their location
  // is the loop's `:`).
  for (const clang::Expr* part = expr->IgnoreParenImpCasts();;) {
    if (const auto* variable = llvm::dyn_cast<clang::DeclRefExpr>(part)) {
      if (variable->getDecl()->isImplicit()) return "range-for";
      break;
    }
    if (const auto* deref = llvm::dyn_cast<clang::UnaryOperator>(part);
        deref != nullptr && deref->getOpcode() == clang::UO_Deref) {
      part = deref->getSubExpr()->IgnoreParenImpCasts();
    } else if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(part)) {
      part = member->getBase()->IgnoreParenImpCasts();
    } else {
      break;
    }
  }
  const clang::SourceManager& sources = walk_.context.getSourceManager();
  const clang::LangOptions& language = walk_.context.getLangOpts();
  if (!rewritable_range(sources, language, expr->getSourceRange())) return "macro";
  if (!is_user_file(sources, expr->getBeginLoc(), walk_.toolkit)) return "system-header";
  return "";
}

std::size_t AccessWalker::record(const clang::Expr* expr, AccessKind kind, ProbeStyle style,
                                 const MemoryClass& memory, const Taint& address_taint,
                                 clang::QualType element) {
  const auto [it, inserted] = site_of_.emplace(expr, walk_.sites.size());
  const std::size_t index = it->second;
  if (inserted) {
    AccessSite site;
    site.expr = expr;
    site.kind = kind;
    site.style = style;
    describe(site, expr, memory, element);
    site.skip_reason = static_skip_reason(expr, memory, style);
    walk_.sites.push_back(std::move(site));
  }
  if (kind == AccessKind::kRead && style == ProbeStyle::kLvalue) {
    load_sites_[expr->IgnoreParens()] = index;
  }
  if (!flow_.recording()) return index;

  AccessSite& site = walk_.sites[index];
  site.loop_depth = static_cast<std::uint32_t>(loops_.size());
  site.index = style == ProbeStyle::kLvalue ? index_.for_lvalue(expr, loops_)
                                            : index_.for_pointer(expr, element, loops_);
  if (site.skip_reason.empty() && kind == AccessKind::kRead && style == ProbeStyle::kLvalue &&
      !expr->getType().isVolatileQualified()) {
    RedundancyKey key;
    expr->IgnoreParens()->Profile(key.profile, walk_.context, /*Canonical=*/true);
    collect_variables(expr, key.variables);
    if (const std::optional<std::size_t> original = flow_.on_load(index, std::move(key))) {
      const AccessSite& first = walk_.sites[*original];
      walk_.sites[index].redundant_of = first.redundant_of ? *first.redundant_of : *original;
      walk_.sites[index].skip_reason = "redundant";
    }
  }
  if (kind != AccessKind::kRead) flow_.on_store(index);
  flow_.place(index, address_taint);
  return index;
}

}  // namespace memcarlo::instrumenter
