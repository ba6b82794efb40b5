// Lockstep warp collectives as a state machine, separate from fibers: lanes arrive with their
// operand, a group completes when every lane it waits for has arrived (or exited), and each
// participant then reads its own result. The block runner parks and wakes the fibers.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include "memcarlo/host/detail/call_site.h"

#include "memcarlo/host/detail/synchronization.h"

namespace memcarlo::host::detail {

/// The intrinsic a collective op was called as, for messages ("__shfl_sync family", ...).
const char* warp_op_name(WarpOp op);

class WarpCollectives {
 public:
  /// A new block: `existing` has a bit per lane that exists (a partial last warp has fewer).
  void reset(std::uint32_t existing);

  struct Arrival {
    bool completed = false;
    std::uint32_t participants = 0;  // when completed: the lanes whose results are ready
  };
  /// Lane `lane` arrives. Explicit-mask collectives group by mask; implicit ones (__activemask,
  /// maskless legacy intrinsics) by call site. Lanes of one mask must call the same kind of
  /// collective; otherwise the program is reported and ended (exit status 70).
  Arrival arrive(unsigned lane, WarpOp op, std::uint32_t mask, bool implicit_mask,
                 std::uint64_t value, int parameter, int width, ::memcarlo::host::CallSite where);
  /// Lane `lane` exited: returns the lanes of groups that no longer wait for anyone.
  std::uint32_t lane_exited(unsigned lane);
  /// The block cannot make progress otherwise: implicit groups complete with the lanes they
  /// have. Returns the lanes woken.
  std::uint32_t complete_implicit_groups();

  [[nodiscard]] std::uint64_t result(unsigned lane) const { return results_[lane]; }
  [[nodiscard]] std::uint32_t live() const { return live_; }
  /// One line per pending group, for deadlock reports.
  [[nodiscard]] std::string describe_pending(unsigned warp) const;

 private:
  struct Group {
    WarpOp op = WarpOp::kSync;
    std::uint32_t mask = 0;
    std::uint32_t arrived = 0;
    bool implicit = false;
    CallSite site;
  };

  [[nodiscard]] bool ready(const Group& group) const;
  void complete(Group& group);
  std::uint32_t complete_ready_groups();
  std::uint64_t shuffle_result(unsigned lane, std::uint32_t participants) const;

  std::uint32_t existing_ = 0;
  std::uint32_t live_ = 0;
  std::array<std::uint64_t, 32> values_{};
  std::array<int, 32> parameters_{};
  std::array<int, 32> widths_{};
  std::array<WarpOp, 32> ops_{};
  std::array<std::uint64_t, 32> results_{};
  std::array<Group, 32> groups_{};  // a lane is in at most one group, so 32 suffice
  unsigned group_count_ = 0;
};

}  // namespace memcarlo::host::detail
