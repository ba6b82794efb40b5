// What Locality Descriptors ask of the L1 (paper §4.2 Figure 11, §4.4): NO-REUSE data bypasses
// it, INTRA-THREAD data is hard-pinned, INTER-THREAD COACCESSED IRREGULAR data is soft-pinned;
// and the sorted address-range table the ldesc prefetcher looks descriptors up in. Decided per
// launch (a role per traced line, from the launch's descriptors), looked up per L1 fill.
//
// Priorities (hierarchy key ldesc.cache): a line enters with its role's priority, normal <
// soft < hard. A fill into a full set replaces, by the replacement policy, one of the ways of
// the lowest priority present; when every way is hard-pinned, way 0 (the paper's rule, which
// keeps the other ways' pinned lines from being thrashed). Soft pinning has no such rule: soft
// lines replace each other by the policy. Every ldesc.unpin_cycles of an SM's clock every
// priority of its L1 is reset (the paper's timer; it gives no value).
#pragma once

#include <cstdint>
#include <vector>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/key_spec.hpp"
#include "memcarlo/sim/private_caches.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"

namespace memcarlo::sim::ldesc {

inline constexpr KeySpec kCacheKey{
    "ldesc.cache", "boolean", "false",
    "Locality Descriptors in the L1 (paper §4.4): NO-REUSE data bypasses it, INTRA-THREAD data "
    "is hard-pinned, INTER-THREAD COACCESSED IRREGULAR data soft-pinned (no effect on launches "
    "without descriptors)"};
inline constexpr KeySpec kUnpinCycles{
    "ldesc.unpin_cycles", "integer", "100000",
    "ldesc.cache: every this many cycles of an SM's clock its L1's pins are reset (the paper's "
    "unpinning timer); 0: never"};

/// Whether hierarchy key ldesc.cache is on (std::invalid_argument naming the key when it is not
/// a boolean).
bool cache_enabled(const HierarchyConfig& config);

/// What a line's descriptor asks of the L1.
enum class L1Role : std::uint8_t { kNormal, kSoftPinned, kHardPinned, kBypass };

/// The role of `descriptor`'s data (Figure 11): NO-REUSE bypasses, INTRA-THREAD hard-pins,
/// INTER-THREAD COACCESSED IRREGULAR soft-pins, the rest (NEARBY, COACCESSED REGULAR: the
/// prefetcher's) is normal.
L1Role l1_role(const tracebuf::LocalityDescriptor& descriptor);

/// The launch's descriptors as sorted, disjoint address ranges, each with the first (highest
/// priority) descriptor that covers it. Built when a launch starts (allocates); find() is a
/// binary search and does not allocate.
class RangeTable {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;

  /// `descriptors` in priority order (LaunchTrace::descriptors).
  void build(const std::vector<tracebuf::LocalityDescriptor>& descriptors);
  /// The index (into the descriptors built from) of the descriptor that covers `address`, or
  /// kNone.
  [[nodiscard]] std::uint32_t find(std::uint64_t address) const {
    // The last range that begins at or before address.
    std::size_t low = 0;
    std::size_t high = begins_.size();
    while (low < high) {
      const std::size_t mid = (low + high) / 2;
      if (begins_[mid] <= address) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low > 0 && address < ends_[low - 1] ? which_[low - 1] : kNone;
  }
  [[nodiscard]] bool empty() const { return begins_.empty(); }

 private:
  std::vector<std::uint64_t> begins_;
  std::vector<std::uint64_t> ends_;
  std::vector<std::uint32_t> which_;
};

/// The L1 side of ldesc.cache for one trial: per traced line its role in the current launch,
/// per (SM, set) the soft-pinned ways (hard-pinned ways are the cache's own pinned masks), and
/// per SM when its timer next unpins. Used by the L1 layer of ldesc.cache (cache_layer.hpp).
class L1Priorities {
 public:
  explicit L1Priorities(const HierarchyConfig& config);

  /// Before each launch, after the L1's reset: the roles of the trace's lines under `launch`'s
  /// descriptors (a line takes the role of the highest-priority descriptor that overlaps it),
  /// and no pins. Allocates; O(lines + lines the descriptors cover).
  void begin_launch(const CompiledTrace& trace, const LaunchTrace& launch, std::uint32_t sm_count,
                    std::uint32_t sets, std::uint32_t ways);

  /// The role of traced line `line` in this launch.
  [[nodiscard]] L1Role traced_role(std::uint32_t line) const { return roles_[line]; }
  /// The role of an untraced line (a prefetcher's) whose first byte is at `address`.
  [[nodiscard]] L1Role untraced_role(std::uint64_t address) const;

  /// The timer: if SM `sm`'s clock passed its next reset, every priority of its L1 goes.
  void tick(const PrivateCacheView& l1, std::uint32_t sm, std::uint64_t clock) {
    if (clock >= next_unpin_[sm]) [[unlikely]] {
      unpin_all(l1, sm, clock);
    }
  }

  /// Places `line` (of role `role`, not kBypass) in SM `sm`'s set `set` as PrivateCaches::View::
  /// fill does, choosing the victim by priority (see the top of this file), and gives the way
  /// the role's priority. Returns its cell (never kNoCell: a full set always has a victim).
  template <bool kNoteEvicted, class View>
  std::size_t fill(const View& l1, std::uint32_t sm, std::uint32_t set, std::uint32_t line,
                   Holder holder, RandomStream& random, L1Role role, WayFlags* evicted_flags) {
    const std::uint32_t global_set = l1.policy_set(sm, set);
    SetMasks& masks = l1.masks[global_set];
    const std::uint64_t hard = masks.pinned;
    const std::uint64_t soft = soft_[global_set] & ~hard;
    std::uint64_t excluded = hard;
    if (masks.invalid == 0) {
      if ((way_mask_ & ~(hard | soft)) != 0) {
        excluded = hard | soft;  // a normal way leaves
      } else if ((way_mask_ & ~hard) == 0) {
        excluded = way_mask_ & ~std::uint64_t{1};  // all hard-pinned: way 0
      }
    }
    masks.pinned = excluded;  // the cache's fill replaces among the ways not "pinned"
    const std::size_t cell =
        l1.template fill<kNoteEvicted>(sm, set, line, holder, random, evicted_flags);
    const auto way = static_cast<std::uint32_t>(cell - l1.row(sm, set));
    const std::uint64_t bit = std::uint64_t{1} << way;
    masks.pinned = hard & ~bit;  // the line that left took its pin with it
    soft_[global_set] =
        role == L1Role::kSoftPinned ? soft_[global_set] | bit : soft_[global_set] & ~bit;
    if (role == L1Role::kHardPinned) {
      l1.pin(sm, set, way, true);
    }
    return cell;
  }

 private:
  void unpin_all(const PrivateCacheView& l1, std::uint32_t sm, std::uint64_t clock);

  std::uint64_t unpin_cycles_;
  std::uint32_t line_bytes_;
  std::vector<L1Role> roles_;                              // per traced line, this launch
  std::vector<tracebuf::LocalityDescriptor> descriptors_;  // this launch's, priority order
  std::vector<std::uint64_t> soft_;                        // per (SM, set): soft-pinned ways
  std::vector<std::uint64_t> next_unpin_;                  // per SM: clock of the next reset
  std::uint32_t sets_ = 0;
  std::uint32_t ways_ = 0;
  std::uint64_t way_mask_ = 0;
};

}  // namespace memcarlo::sim::ldesc
