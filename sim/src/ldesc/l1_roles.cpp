// Locality Descriptors in the L1: line roles, the range table and the unpinning timer
// (l1_roles.hpp).
#include "l1_roles.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace memcarlo::sim::ldesc {

using tracebuf::AccessPattern;
using tracebuf::LocalityDescriptor;
using tracebuf::LocalityType;
using tracebuf::SharingType;

bool cache_enabled(const HierarchyConfig& config) {
  const std::string value = config.params.text(kCacheKey);
  if (value != "true" && value != "false") {
    throw std::invalid_argument(std::string(kCacheKey.name) + ": expected true or false; got " +
                                value);
  }
  return value == "true";
}

L1Role l1_role(const LocalityDescriptor& descriptor) {
  switch (descriptor.type) {
    case LocalityType::kNoReuse:
      return L1Role::kBypass;
    case LocalityType::kIntraThread:
      return L1Role::kHardPinned;
    case LocalityType::kInterThread:
      return descriptor.sharing == SharingType::kCoaccessed &&
                     descriptor.pattern == AccessPattern::kIrregular
                 ? L1Role::kSoftPinned
                 : L1Role::kNormal;
  }
  return L1Role::kNormal;
}

void RangeTable::build(const std::vector<LocalityDescriptor>& descriptors) {
  begins_.clear();
  ends_.clear();
  which_.clear();
  // Elementary intervals between every descriptor's bounds; each goes to the first descriptor
  // (in priority order) that covers it; neighbours of the same descriptor merge.
  std::vector<std::uint64_t> bounds;
  for (const LocalityDescriptor& d : descriptors) {
    bounds.push_back(d.address);
    bounds.push_back(d.address + d.size);
  }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i) {
    std::uint32_t owner = kNone;
    for (std::uint32_t d = 0; d < descriptors.size(); ++d) {
      if (descriptors[d].address <= bounds[i] &&
          bounds[i] < descriptors[d].address + descriptors[d].size) {
        owner = d;
        break;
      }
    }
    if (owner == kNone) {
      continue;
    }
    if (!which_.empty() && which_.back() == owner && ends_.back() == bounds[i]) {
      ends_.back() = bounds[i + 1];
      continue;
    }
    begins_.push_back(bounds[i]);
    ends_.push_back(bounds[i + 1]);
    which_.push_back(owner);
  }
}

L1Priorities::L1Priorities(const HierarchyConfig& config)
    : unpin_cycles_(config.params.integer(kUnpinCycles)), line_bytes_(config.l1.line) {}

void L1Priorities::begin_launch(const CompiledTrace& trace, const LaunchTrace& launch,
                                std::uint32_t sm_count, std::uint32_t sets, std::uint32_t ways) {
  descriptors_ = launch.descriptors;
  sets_ = sets;
  ways_ = ways;
  way_mask_ = ways >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ways) - 1;
  soft_.assign(std::size_t{sm_count} * sets, 0);
  next_unpin_.assign(sm_count, unpin_cycles_ == 0 ? ~std::uint64_t{0} : unpin_cycles_);
  roles_.assign(trace.l1_line_count(), L1Role::kNormal);
  // Lowest priority first, so that where descriptors overlap a line the highest one's role is
  // the one left. Only the lines a descriptor overlaps are visited (the ids sorted by address).
  const std::vector<std::uint32_t>& by_address = trace.line_ids_by_address;
  for (auto d = descriptors_.rbegin(); d != descriptors_.rend(); ++d) {
    const L1Role role = l1_role(*d);
    const std::uint64_t first_line = d->address / line_bytes_ * line_bytes_;
    auto it = std::lower_bound(by_address.begin(), by_address.end(), first_line,
                               [&](std::uint32_t id, std::uint64_t address) {
                                 return trace.l1_line_address[id] < address;
                               });
    for (; it != by_address.end() && trace.l1_line_address[*it] < d->address + d->size; ++it) {
      roles_[*it] = role;
    }
  }
}

L1Role L1Priorities::untraced_role(std::uint64_t address) const {
  for (const LocalityDescriptor& d : descriptors_) {
    if (address < d.address + d.size && d.address < address + line_bytes_) {
      return l1_role(d);
    }
  }
  return L1Role::kNormal;
}

void L1Priorities::unpin_all(const PrivateCacheView& l1, std::uint32_t sm, std::uint64_t clock) {
  for (std::uint32_t set = 0; set < sets_; ++set) {
    const std::uint32_t global_set = l1.policy_set(sm, set);
    l1.masks[global_set].pinned = 0;
    soft_[global_set] = 0;
    const std::size_t row = l1.row(sm, set);
    for (std::uint32_t way = 0; way < ways_; ++way) {
      l1.flags[row + way] = way_flags(bits_of(l1.flags[row + way]) & ~kPinnedWay);
    }
  }
  next_unpin_[sm] = (clock / unpin_cycles_ + 1) * unpin_cycles_;
}

}  // namespace memcarlo::sim::ldesc
