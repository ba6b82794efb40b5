// Warp collective semantics: shuffle source lanes with widths (CUDA programming guide, "Warp
// Shuffle Functions"), votes, matches and reductions over the lanes that took part.
#include "warp_collectives.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

#include "diagnostics.hpp"

namespace memcarlo::host::detail {
namespace {

/// Collectives of one family may meet in one group (e.g. __shfl_up_sync in some lanes and
/// __shfl_down_sync in others: each lane computes its own source); different families may not.
int family(WarpOp op) {
  switch (op) {
    case WarpOp::kShuffleIndex:
    case WarpOp::kShuffleUp:
    case WarpOp::kShuffleDown:
    case WarpOp::kShuffleXor:
      return 1;
    case WarpOp::kAll:
    case WarpOp::kAny:
    case WarpOp::kBallot:
      return 2;
    case WarpOp::kMatchAny:
    case WarpOp::kMatchAll:
      return 3;
    default:
      return 10 + static_cast<int>(op);
  }
}

std::string site(const ::memcarlo::host::CallSite& where) {
  return site_text(where.file_name(), where.line());
}

}  // namespace

const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::kSync:
      return "__syncwarp";
    case WarpOp::kShuffleIndex:
      return "__shfl_sync";
    case WarpOp::kShuffleUp:
      return "__shfl_up_sync";
    case WarpOp::kShuffleDown:
      return "__shfl_down_sync";
    case WarpOp::kShuffleXor:
      return "__shfl_xor_sync";
    case WarpOp::kAll:
      return "__all_sync";
    case WarpOp::kAny:
      return "__any_sync";
    case WarpOp::kBallot:
      return "__ballot_sync";
    case WarpOp::kActiveMask:
      return "__activemask";
    case WarpOp::kMatchAny:
      return "__match_any_sync";
    case WarpOp::kMatchAll:
      return "__match_all_sync";
    case WarpOp::kReduceAddUnsigned:
      return "__reduce_add_sync";
    case WarpOp::kReduceMinUnsigned:
    case WarpOp::kReduceMinSigned:
      return "__reduce_min_sync";
    case WarpOp::kReduceMaxUnsigned:
    case WarpOp::kReduceMaxSigned:
      return "__reduce_max_sync";
    case WarpOp::kReduceAnd:
      return "__reduce_and_sync";
    case WarpOp::kReduceOr:
      return "__reduce_or_sync";
    case WarpOp::kReduceXor:
      return "__reduce_xor_sync";
  }
  return "a warp collective";
}

void WarpCollectives::reset(std::uint32_t existing) {
  existing_ = existing;
  live_ = existing;
  group_count_ = 0;
}

bool WarpCollectives::ready(const Group& group) const {
  const std::uint32_t waited_for = group.implicit ? live_ : (group.mask & live_);
  return (waited_for & ~group.arrived) == 0;
}

WarpCollectives::Arrival WarpCollectives::arrive(unsigned lane, WarpOp op, std::uint32_t mask,
                                                 bool implicit_mask, std::uint64_t value,
                                                 int parameter, int width,
                                                 ::memcarlo::host::CallSite where) {
  values_[lane] = value;
  parameters_[lane] = parameter;
  widths_[lane] =
      (width >= 1 && width <= 32 && std::has_single_bit(static_cast<unsigned>(width))) ? width : 32;
  ops_[lane] = op;
  const std::uint32_t bit = 1u << lane;
  Group* group = nullptr;
  for (unsigned g = 0; g < group_count_; ++g) {
    Group& candidate = groups_[g];
    const bool same_key = implicit_mask
                              ? (candidate.implicit && candidate.site.line() == where.line() &&
                                 candidate.site.file_name() == where.file_name())
                              : (!candidate.implicit && candidate.mask == (mask | bit));
    if (same_key) {
      group = &candidate;
      break;
    }
  }
  if (group == nullptr) {
    group = &groups_[group_count_++];
    *group = Group{op, implicit_mask ? existing_ : (mask | bit), 0, implicit_mask, where};
  } else if (family(group->op) != family(op)) {
    char mask_text[16];
    std::snprintf(mask_text, sizeof mask_text, "0x%08x", group->mask);
    fatal(kExitSoftware,
          std::string("lanes of one warp met in different warp collectives with mask ") +
              mask_text + ": " + warp_op_name(group->op) + " (" + site(group->site) + ") and " +
              warp_op_name(op) + " (" + site(where) +
              "); CUDA requires every lane named in the mask to execute the same collective");
  }
  group->arrived |= bit;
  if (!ready(*group)) {
    return {};
  }
  const std::uint32_t participants = group->arrived;
  complete(*group);
  return {true, participants};
}

std::uint32_t WarpCollectives::lane_exited(unsigned lane) {
  live_ &= ~(1u << lane);
  return complete_ready_groups();
}

std::uint32_t WarpCollectives::complete_ready_groups() {
  std::uint32_t woken = 0;
  for (unsigned g = 0; g < group_count_;) {
    if (ready(groups_[g])) {
      woken |= groups_[g].arrived;
      complete(groups_[g]);  // removes groups_[g]; the next one moved into its place
    } else {
      ++g;
    }
  }
  return woken;
}

std::uint32_t WarpCollectives::complete_implicit_groups() {
  std::uint32_t woken = 0;
  for (unsigned g = 0; g < group_count_;) {
    if (groups_[g].implicit) {
      woken |= groups_[g].arrived;
      complete(groups_[g]);
    } else {
      ++g;
    }
  }
  return woken;
}

std::uint64_t WarpCollectives::shuffle_result(unsigned lane, std::uint32_t participants) const {
  const auto width = static_cast<unsigned>(widths_[lane]);
  const unsigned segment = lane & ~(width - 1);
  const auto parameter = static_cast<unsigned>(parameters_[lane]);
  unsigned source = lane;
  switch (ops_[lane]) {
    case WarpOp::kShuffleIndex:
      source = segment + (parameter & (width - 1));
      break;
    case WarpOp::kShuffleUp:
      source = (lane - segment) >= parameter ? lane - parameter : lane;
      break;
    case WarpOp::kShuffleDown:
      source = (lane - segment) + parameter < width ? lane + parameter : lane;
      break;
    case WarpOp::kShuffleXor:
      // Lanes may read earlier segments but not later ones (then they keep their own value).
      source = lane ^ parameter;
      if (source >= segment + width) {
        source = lane;
      }
      break;
    default:
      break;
  }
  // A source lane past the last thread of a partial warp does not exist. The PTX ISA leaves the
  // value undefined (shfl.sync: an inactive source thread); public reduction samples that run a
  // full 32-lane shfl_down reduction in a block of 4 or 8 threads pass on GPUs, which needs the
  // missing lanes to read as 0 (docs/host-runtime.md, "Shuffles in partial warps").
  if (source < 32 && (existing_ & (1u << source)) == 0) {
    return 0;
  }
  // Reading an existing lane that did not take part is undefined as well; here it yields the
  // caller's own value.
  if (source >= 32 || (participants & (1u << source)) == 0) {
    source = lane;
  }
  return values_[source];
}

void WarpCollectives::complete(Group& group) {
  const std::uint32_t participants = group.arrived;
  std::uint32_t true_lanes = 0;
  for (std::uint32_t m = participants; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    if (values_[lane] != 0) {
      true_lanes |= 1u << lane;
    }
  }
  // Reductions: one value for all participants, in 32 bits as CUDA's __reduce_*_sync.
  std::uint32_t reduced = 0;
  bool first = true;
  for (std::uint32_t m = participants; m != 0; m &= m - 1) {
    const auto v = static_cast<std::uint32_t>(values_[static_cast<unsigned>(std::countr_zero(m))]);
    const auto s = static_cast<std::int32_t>(v);
    switch (group.op) {
      case WarpOp::kReduceAddUnsigned:
        reduced += v;
        break;
      case WarpOp::kReduceMinUnsigned:
        reduced = first ? v : std::min(reduced, v);
        break;
      case WarpOp::kReduceMaxUnsigned:
        reduced = first ? v : std::max(reduced, v);
        break;
      case WarpOp::kReduceMinSigned:
        reduced =
            static_cast<std::uint32_t>(first ? s : std::min(static_cast<std::int32_t>(reduced), s));
        break;
      case WarpOp::kReduceMaxSigned:
        reduced =
            static_cast<std::uint32_t>(first ? s : std::max(static_cast<std::int32_t>(reduced), s));
        break;
      case WarpOp::kReduceAnd:
        reduced = first ? v : (reduced & v);
        break;
      case WarpOp::kReduceOr:
        reduced |= v;
        break;
      case WarpOp::kReduceXor:
        reduced ^= v;
        break;
      default:
        break;
    }
    first = false;
  }
  std::array<std::uint64_t, 32> results{};
  for (std::uint32_t m = participants; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    std::uint64_t r = 0;
    switch (ops_[lane]) {
      case WarpOp::kSync:
        break;
      case WarpOp::kShuffleIndex:
      case WarpOp::kShuffleUp:
      case WarpOp::kShuffleDown:
      case WarpOp::kShuffleXor:
        r = shuffle_result(lane, participants);
        break;
      case WarpOp::kAll:
        r = (true_lanes == participants) ? 1 : 0;
        break;
      case WarpOp::kAny:
        r = true_lanes != 0 ? 1 : 0;
        break;
      case WarpOp::kBallot:
        r = true_lanes;
        break;
      case WarpOp::kActiveMask:
        r = participants;
        break;
      case WarpOp::kMatchAny:
        for (std::uint32_t o = participants; o != 0; o &= o - 1) {
          const auto other = static_cast<unsigned>(std::countr_zero(o));
          if (values_[other] == values_[lane]) {
            r |= std::uint64_t{1} << other;
          }
        }
        break;
      case WarpOp::kMatchAll: {
        bool all_equal = true;
        for (std::uint32_t o = participants; o != 0; o &= o - 1) {
          all_equal =
              all_equal && values_[static_cast<unsigned>(std::countr_zero(o))] == values_[lane];
        }
        r = all_equal ? participants : 0;
        break;
      }
      default:
        r = reduced;
        break;
    }
    results[lane] = r;
  }
  // Results are written only now, after all reads of values_: a lane may overwrite its value
  // with its next collective only after it has been woken and has read its result.
  for (std::uint32_t m = participants; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    results_[lane] = results[lane];
  }
  // Remove the group: swap the last one into its slot.
  group = groups_[--group_count_];
}

std::string WarpCollectives::describe_pending(unsigned warp) const {
  std::string text;
  for (unsigned g = 0; g < group_count_; ++g) {
    const Group& group = groups_[g];
    char mask[16];
    std::snprintf(mask, sizeof mask, "0x%08x", group.implicit ? live_ : group.mask);
    char arrived[16];
    std::snprintf(arrived, sizeof arrived, "0x%08x", group.arrived);
    text += "\n  warp " + std::to_string(warp) + ": lanes " + arrived + " wait in " +
            warp_op_name(group.op) + " (" + site(group.site) + ") for lanes " + mask +
            " (lanes still running or exited: " + std::to_string(std::popcount(live_)) + " alive)";
  }
  return text;
}

}  // namespace memcarlo::host::detail
