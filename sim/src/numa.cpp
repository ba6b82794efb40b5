// Multi-module GPUs in a trial: first-touch homes and the inter-module links (numa.hpp).
#include "numa.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "memcarlo/sim/placement/placement.hpp"

namespace memcarlo::sim {
namespace {

constexpr std::uint32_t kNumaAccesses = kNumaGroup.index_of("accesses");
constexpr std::uint32_t kNumaLocal = kNumaGroup.index_of("local");
constexpr std::uint32_t kNumaRemote = kNumaGroup.index_of("remote");
constexpr std::uint32_t kNumaLinkBytes = kNumaGroup.index_of("link_bytes");
constexpr std::uint32_t kNumaCrossing = kNumaGroup.index_of("crossing_cycles");
constexpr std::uint32_t kNumaModule0 = kNumaGroup.index_of("module_0");
constexpr std::uint64_t kWidth = kNumaGroup.width();

}  // namespace

NumaLinks::NumaLinks(const CompiledTrace& trace, const HierarchyConfig& config,
                     TrialWorkspace::State& state)
    : s_(state),
      modules_(config.numa.modules),
      part_shift_(static_cast<std::uint32_t>(std::countr_zero(trace.l2_lines_per_l1_line))),
      sets_per_module_(config.l2.sets() / config.numa.modules),
      channels_per_module_(static_cast<std::uint16_t>(config.dram.channels / config.numa.modules)),
      traced_lines_(trace.l1_line_count()),
      sector_bytes_(config.l2.sector),
      link_latency_(config.numa.link_latency),
      bytes_per_cycle_(config.numa.link_bandwidth_gbs * 1000.0 / config.clock_mhz),
      budget_(bytes_per_cycle_ * static_cast<double>(config.interconnect.epoch_cycles)),
      tree_(config.numa.topology == "tree") {
  counters_ = state.counter_groups.enable(kNumaGroup, trace.slots.size());
  module_of_sm_.resize(config.sm.count);
  for (std::uint32_t sm = 0; sm < config.sm.count; ++sm) {
    module_of_sm_[sm] = module_of_sm(sm, config.sm.count, modules_);
  }
  hops_.resize(std::size_t{modules_} * modules_);
  for (std::uint32_t a = 0; a < modules_; ++a) {
    for (std::uint32_t b = 0; b < modules_; ++b) {
      hops_[a * modules_ + b] =
          a == b ? 0 : tree_ ? 2 * static_cast<std::uint32_t>(std::bit_width(a ^ b)) : 1;
    }
  }
  load_.assign(tree_ ? modules_ : std::size_t{modules_} * modules_, 0.0);

  // First-touch: the lines placed per trial, grouped by page (a page's lines are neighbours in
  // address order).
  page_of_line_.assign(traced_lines_, kNoPage);
  page_begin_.clear();
  page_lines_.clear();
  std::uint32_t last_page_number = 0;
  for (const std::uint32_t id : trace.line_ids_by_address) {
    if (trace.line_module[id] != placement::kHomePerTrial) {
      continue;
    }
    if (page_begin_.empty() || trace.line_page[id] != last_page_number) {
      page_begin_.push_back(static_cast<std::uint32_t>(page_lines_.size()));
      last_page_number = trace.line_page[id];
    }
    page_of_line_[id] = static_cast<std::uint32_t>(page_begin_.size() - 1);
    page_lines_.push_back(id);
  }
  page_begin_.push_back(static_cast<std::uint32_t>(page_lines_.size()));
  page_home_.assign(page_begin_.size() - 1, kNoPage);
  claim_time_.assign(page_home_.size(), 0);
  if (!page_lines_.empty()) {
    s_.line_space.own_homes();
  }
}

void NumaLinks::begin_launch() {
  std::fill(load_.begin(), load_.end(), 0.0);
}

void NumaLinks::place_first_touches() {
  if (page_lines_.empty()) {
    return;
  }
  claimed_.clear();
  const std::size_t n = s_.requests.size();
  for (std::size_t i = 0; i < n; ++i) {
    const L2Request& r = s_.requests[i];
    if (r.line >= traced_lines_) {
      continue;
    }
    const std::uint32_t page = page_of_line_[r.line];
    if (page == kNoPage || (page_home_[page] != kNoPage && page_home_[page] < modules_)) {
      continue;
    }
    // Unclaimed pages hold kNoPage; a claim of this epoch holds modules_ + the claiming module.
    // Requests are SM after SM, so on equal issue times the lower SM keeps its claim.
    const std::uint32_t module = module_of_sm_[r.sm];
    if (page_home_[page] == kNoPage) {
      page_home_[page] = modules_ + module;
      claim_time_[page] = r.issue_time;
      claimed_.push_back(page);
    } else if (r.issue_time < claim_time_[page]) {
      page_home_[page] = modules_ + module;
      claim_time_[page] = r.issue_time;
    }
  }
  for (const std::uint32_t page : claimed_) {
    const std::uint32_t home = page_home_[page] - modules_;
    page_home_[page] = home;
    for (std::uint32_t k = page_begin_[page]; k < page_begin_[page + 1]; ++k) {
      s_.line_space.move_home(page_lines_[k], home * sets_per_module_,
                              static_cast<std::uint16_t>(home * channels_per_module_));
    }
  }
}

void NumaLinks::cross_links(std::uint64_t epoch) {
  // The backlog drains by one budget per epoch, those without requests included.
  if (bytes_per_cycle_ > 0) {
    const double drained = budget_ * static_cast<double>(epoch - std::min(epoch, last_epoch_));
    for (double& load : load_) {
      load = std::max(0.0, load - drained);
    }
  }
  last_epoch_ = epoch;
  const std::uint32_t* const l2_set = s_.line_space.view().l2_set;
  const std::uint32_t* index = s_.drain_index.data();
  const std::size_t n = s_.drain_index.size();
  for (std::size_t i = 0; i < n; ++i) {
    L2Request& r = s_.requests[index[i]];
    const std::uint32_t requester = module_of_sm_[r.sm];
    const std::uint32_t home = l2_set[std::size_t{r.line} << part_shift_] / sets_per_module_;
    const bool counted = r.kind != RequestKind::kPrefetch;
    std::uint64_t* const row = counted ? counters_ + std::size_t{r.counter} * kWidth : nullptr;
    if (counted) {
      ++row[kNumaAccesses];
      ++row[kNumaModule0 + home];
    }
    if (home == requester) {
      if (counted) {
        ++row[kNumaLocal];
      }
      continue;
    }
    const std::uint32_t hops = hops_[requester * modules_ + home];
    const auto bytes =
        static_cast<std::uint64_t>(std::popcount(bits_of(r.sectors))) * sector_bytes_;
    const bool store = r.kind == RequestKind::kStore;
    const std::uint32_t source = store ? requester : home;
    const std::uint32_t destination = store ? home : requester;
    double delay = hops * link_latency_;
    if (bytes_per_cycle_ > 0) {
      double& load = load_[tree_ ? source : source * modules_ + destination];
      load += static_cast<double>(bytes);
      if (load > budget_) {
        delay += (load - budget_) / bytes_per_cycle_;
      }
    }
    const auto cycles = static_cast<std::uint32_t>(delay + 0.5);
    r.fill_delay += cycles;
    if (counted) {
      ++row[kNumaRemote];
      row[kNumaLinkBytes] += bytes * hops;
      if (r.kind == RequestKind::kDemandFill) {
        row[kNumaCrossing] += cycles;
      }
    }
  }
}

}  // namespace memcarlo::sim
