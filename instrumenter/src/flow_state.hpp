// The ordered facts the access walker threads through a function: which loads feed each local
// variable (for depends_on), the current bulk scheduling sequence (paper §2: sequences end at
// loop back-edges, barriers and data dependences), and the loads available for merging
// (paper §4.1: a repeated load in the same basic block, with no aliasing store, call or barrier
// in between, is merged by the compiler and not probed).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "clang/AST/Decl.h"
#include "llvm/ADT/FoldingSet.h"

#include "access_site.hpp"

namespace memcarlo::instrumenter {

/// Site indexes of the loads whose values may flow into a value.
using Taint = std::set<std::size_t>;

/// The union of two taints.
inline Taint merged(Taint a, const Taint& b) {
  a.insert(b.begin(), b.end());
  return a;
}

/// What identifies "the same address expression" for redundancy.
struct RedundancyKey {
  llvm::FoldingSetNodeID profile;
  std::set<const clang::VarDecl*> variables;  // a write to one of them ends the equivalence
};

class FlowState {
 public:
  FlowState(std::vector<AccessSite>& sites, std::int64_t& next_sequence)
      : sites_(sites), next_sequence_(next_sequence) {}

  /// Loop bodies are walked once without recording first so that loop-carried dependences
  /// (j = next[j]) reach the recorded pass. Nested dry passes stack.
  void begin_dry_pass() { ++dry_depth_; }
  void end_dry_pass() { --dry_depth_; }
  [[nodiscard]] bool recording() const { return dry_depth_ == 0; }

  [[nodiscard]] Taint taint_of(const clang::VarDecl* var) const;
  /// Adds `taint` to what `var` may hold (a weak update: branches and loops only ever add).
  void define(const clang::VarDecl* var, const Taint& taint);

  /// Starts a new bulk scheduling sequence.
  void start_sequence();
  /// Gives `site` its sequence, starting a new one when its address depends on a load of the
  /// current sequence; records depends_on.
  void place(std::size_t site, const Taint& address_taint);

  /// A new basic block: no earlier load is available for merging.
  void block_boundary() { available_.clear(); }
  /// A call or barrier: memory may have changed.
  void kill_all() { available_.clear(); }
  /// `var` changed: loads whose address used it are no longer the same address.
  void kill_variable(const clang::VarDecl* var);
  /// A store through `site`: loads it may alias are no longer available.
  void on_store(std::size_t site);
  /// A plain load: returns the site it repeats, or makes it available and returns nullopt.
  std::optional<std::size_t> on_load(std::size_t site, RedundancyKey key);

 private:
  struct Available {
    std::size_t site;
    RedundancyKey key;
  };
  [[nodiscard]] bool tabled(std::size_t site) const;
  [[nodiscard]] bool may_alias(const AccessSite& store, const AccessSite& load) const;

  std::vector<AccessSite>& sites_;
  std::int64_t& next_sequence_;
  std::int64_t current_sequence_ = -1;
  int dry_depth_ = 0;
  std::map<const clang::VarDecl*, Taint> taints_;
  std::vector<Available> available_;
};

}  // namespace memcarlo::instrumenter
