// Sequences, load-value taint and redundant-load bookkeeping for the access walker.
#include "flow_state.hpp"

#include <algorithm>

#include "address_space.hpp"

namespace memcarlo::instrumenter {

Taint FlowState::taint_of(const clang::VarDecl* var) const {
  const auto it = taints_.find(var);
  return it == taints_.end() ? Taint{} : it->second;
}

void FlowState::define(const clang::VarDecl* var, const Taint& taint) {
  if (var == nullptr) return;
  taints_[var].insert(taint.begin(), taint.end());
  if (recording()) kill_variable(var);
}

void FlowState::start_sequence() {
  if (!recording()) return;
  current_sequence_ = -1;  // allocated lazily: empty sequences are never numbered
}

bool FlowState::tabled(std::size_t site) const {
  const AccessSite& access = sites_[site];
  return access.skip_reason.empty() || access.redundant_of.has_value();
}

void FlowState::place(std::size_t site, const Taint& address_taint) {
  if (!recording()) return;
  AccessSite& access = sites_[site];
  bool depends_on_current = false;
  for (std::size_t load : address_taint) {
    if (load == site || !tabled(load)) continue;
    access.depends_on.insert(load);
    if (current_sequence_ >= 0 && sites_[load].sequence == current_sequence_) {
      depends_on_current = true;
    }
  }
  if (!tabled(site)) return;
  if (current_sequence_ < 0 || depends_on_current) current_sequence_ = next_sequence_++;
  access.sequence = current_sequence_;
}

void FlowState::kill_variable(const clang::VarDecl* var) {
  available_.erase(std::remove_if(available_.begin(), available_.end(),
                                  [var](const Available& entry) {
                                    return entry.key.variables.count(var) != 0;
                                  }),
                   available_.end());
}

bool FlowState::may_alias(const AccessSite& store, const AccessSite& load) const {
  static const std::set<std::string> kKnownSpaces = {"global", "shared", "local", "constant",
                                                     "param"};
  if (store.address_space != load.address_space && kKnownSpaces.count(store.address_space) &&
      kKnownSpaces.count(load.address_space)) {
    return false;
  }
  // An object reached through a __restrict__ pointer is reached through no other pointer.
  if (store.root_decl != nullptr && load.root_decl != nullptr &&
      store.root_decl != load.root_decl && (store.root_is_restrict || load.root_is_restrict)) {
    return false;
  }
  if (store.root_decl != nullptr && store.root_decl == load.root_decl &&
      store.index.root == load.index.root && store.index.offset.polynomial &&
      load.index.offset.polynomial && store.index.in_elements == load.index.in_elements &&
      store.element_size == load.element_size && store.element_size != 0) {
    const Polynomial difference = *store.index.offset.polynomial - *load.index.offset.polynomial;
    if (difference.is_constant() && difference.constant_term() != 0) return false;
  }
  return true;
}

void FlowState::on_store(std::size_t site) {
  if (!recording()) return;
  const AccessSite& store = sites_[site];
  available_.erase(std::remove_if(available_.begin(), available_.end(),
                                  [&](const Available& entry) {
                                    return may_alias(store, sites_[entry.site]);
                                  }),
                   available_.end());
}

std::optional<std::size_t> FlowState::on_load(std::size_t site, RedundancyKey key) {
  if (!recording()) return std::nullopt;
  for (const Available& entry : available_) {
    if (entry.key.profile == key.profile) return entry.site;
  }
  available_.push_back({site, std::move(key)});
  return std::nullopt;
}

}  // namespace memcarlo::instrumenter
