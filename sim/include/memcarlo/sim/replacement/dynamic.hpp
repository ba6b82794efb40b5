// Replacement policies behind one virtual interface: the engine's third alternative beside the
// two it inlines (Lru, Fifo). A policy added this way costs one indirect call per hook and no
// template instantiation: every policy of this kind runs in the same SM and L2 sides, so the
// engine's compiled code does not grow with them. A policy whose speed matters can later become
// an alternative of its own (replacement/registry.hpp's AnyPolicy).
//
// Contract: as replacement/policy.hpp's views (reset, on_fill, on_hit, replace,
// replace_excluding), plus clone(): a fresh copy with the same parameters, for each cache that
// uses it.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>

#include "memcarlo/sim/hot_path.hpp"
#include "memcarlo/sim/random.hpp"

namespace memcarlo::sim::replacement {

class DynamicPolicy {
 public:
  virtual ~DynamicPolicy() = default;
  virtual void reset(std::uint32_t sets, std::uint32_t ways) = 0;
  virtual void on_fill(std::uint32_t set, std::uint32_t way) = 0;
  virtual void on_hit(std::uint32_t set, std::uint32_t way) = 0;
  virtual std::uint32_t replace(std::uint32_t set, RandomStream& random) = 0;
  virtual std::uint32_t replace_excluding(std::uint32_t set, std::uint64_t excluded,
                                          RandomStream& random) = 0;
  [[nodiscard]] virtual std::unique_ptr<DynamicPolicy> clone() const = 0;
};

/// A policy with the inlined policies' shape (reset(), view() with const hooks) behind the
/// virtual interface: how random.hpp's Random runs in the engine.
template <class Policy>
class Boxed final : public DynamicPolicy {
 public:
  explicit Boxed(Policy policy = {}) : policy_(std::move(policy)) {}
  void reset(std::uint32_t sets, std::uint32_t ways) override {
    policy_.reset(sets, ways);
    view_ = policy_.view();
  }
  void on_fill(std::uint32_t set, std::uint32_t way) override { view_.on_fill(set, way); }
  void on_hit(std::uint32_t set, std::uint32_t way) override { view_.on_hit(set, way); }
  std::uint32_t replace(std::uint32_t set, RandomStream& random) override {
    return view_.replace(set, random);
  }
  std::uint32_t replace_excluding(std::uint32_t set, std::uint64_t excluded,
                                  RandomStream& random) override {
    return view_.replace_excluding(set, excluded, random);
  }
  [[nodiscard]] std::unique_ptr<DynamicPolicy> clone() const override {
    return std::make_unique<Boxed>(policy_);
  }

 private:
  Policy policy_;
  typename Policy::View view_{};
};

/// The engine's alternative for every DynamicPolicy: copies clone.
class Dynamic {
 public:
  struct View {
    DynamicPolicy* policy;
    MEMCARLO_HOT void on_fill(std::uint32_t set, std::uint32_t way) const {
      policy->on_fill(set, way);
    }
    MEMCARLO_HOT void on_hit(std::uint32_t set, std::uint32_t way) const {
      policy->on_hit(set, way);
    }
    MEMCARLO_HOT std::uint32_t replace(std::uint32_t set, RandomStream& random) const {
      return policy->replace(set, random);
    }
    std::uint32_t replace_excluding(std::uint32_t set, std::uint64_t excluded,
                                    RandomStream& random) const {
      return policy->replace_excluding(set, excluded, random);
    }
  };

  Dynamic() = default;
  explicit Dynamic(std::unique_ptr<DynamicPolicy> policy) : policy_(std::move(policy)) {}
  Dynamic(const Dynamic& other) : policy_(other.policy_ ? other.policy_->clone() : nullptr) {}
  Dynamic& operator=(const Dynamic& other) {
    if (this != &other) {
      policy_ = other.policy_ ? other.policy_->clone() : nullptr;
    }
    return *this;
  }
  Dynamic(Dynamic&&) noexcept = default;
  Dynamic& operator=(Dynamic&&) noexcept = default;
  ~Dynamic() = default;

  /// Needs a policy (a default-constructed Dynamic has none: std::logic_error).
  void reset(std::uint32_t sets, std::uint32_t ways) {
    if (!policy_) {
      throw std::logic_error("replacement::Dynamic: reset without a policy");
    }
    policy_->reset(sets, ways);
  }
  View view() const { return {policy_.get()}; }
  [[nodiscard]] const DynamicPolicy* policy() const { return policy_.get(); }

 private:
  std::unique_ptr<DynamicPolicy> policy_;
};

}  // namespace memcarlo::sim::replacement
