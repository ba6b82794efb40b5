// Pass 2 of a launch's footprint estimate (launch_estimator.hpp): every lane's bytes, the actual
// footprint, and the extent recovery of §4.2: the primary values each block read, which the trace
// does not record, recovered from the addresses of the INDIR and INDIR_RANGE accesses they index.
#include <bit>
#include <cstdio>
#include <string>

#include "launch_estimator.hpp"

namespace memcarlo::footprint::detail {
namespace {

/// Calls f(thread in block, byte address, element size) for every active lane of `record`.
template <class F>
void for_each_lane(const tracebuf::RecordView& record, std::uint32_t warp, F&& f) {
  unsigned k = 0;
  for (std::uint32_t mask = record.active_mask(); mask != 0; mask &= mask - 1, ++k) {
    const auto lane = static_cast<std::uint32_t>(std::countr_zero(mask));
    f(warp * kWarpSize + lane, record.active_address(k), record.element_size());
  }
}

/// floor-free exact division: nullopt unless `d` divides `n`.
std::optional<std::int64_t> divide_exactly(std::int64_t n, std::int64_t d) {
  if (d == 0 || n % d != 0)
    return std::nullopt;
  return n / d;
}

}  // namespace

// Pass 2: every lane's bytes (the actual footprint) and, for INDIR and INDIR_RANGE, the values
// the dependent addresses reveal.
void LaunchEstimator::read_back() {
  observed_.resize(out_.relations.size());
  std::vector<CompiledForm> rests(out_.relations.size());
  for (std::size_t r = 0; r < out_.relations.size(); ++r) {
    const Relation& relation = out_.relations[r].relation;
    if (relation.kind == RelationKind::kIndirect) {
      observed_[r].values.assign(out_.blocks.size(), Extent{});
    } else if (relation.kind == RelationKind::kIndirectRange) {
      observed_[r].ranges.resize(out_.blocks.size());
      const std::string unknown = env_.unknown_symbol(relation.offset, {});
      if (!unknown.empty()) {
        out_.relations[r].fallback = missing_symbol_message(relation, unknown);
      }
      rests[r] = env_.compile(relation.offset);
    }
  }
  for (const tracebuf::WarpStream& warp : streams_.warps) {
    const std::size_t block = block_index_.at(warp.block);
    BlockFootprint& footprint = out_.blocks[block];
    env_.set_block(warp.block, info_.grid);
    warp.for_each([&](const tracebuf::RecordView& record) {
      const auto found = relation_of_load_.find(record.static_id());
      const std::size_t r = found == relation_of_load_.end() ? SIZE_MAX : found->second;
      for_each_lane(
          record, warp.warp, [&](std::uint32_t thread, std::uint64_t address, std::uint32_t size) {
            footprint.actual.push_back({address, address + size});
            if (r == SIZE_MAX || !out_.relations[r].fallback.empty())
              return;
            const RelationUse& use = out_.relations[r];
            const Relation& relation = use.relation;
            if (relation.kind != RelationKind::kIndirect &&
                relation.kind != RelationKind::kIndirectRange) {
              return;
            }
            const auto offset =
                divide_exactly(static_cast<std::int64_t>(address - use.root_base), scale(relation));
            if (relation.kind == RelationKind::kIndirect) {
              const auto value = offset ? divide_exactly(*offset - relation.primary_constant,
                                                         relation.primary_coefficient)
                                        : std::nullopt;
              if (!value)
                return note_mismatch(r, address);
              widen(observed_[r].values[block], *value);
              return;
            }
            env_.set_thread(thread, info_.block);
            const auto k = offset ? divide_exactly(*offset - rests[r].evaluate(env_.values),
                                                   relation.range_coefficient)
                                  : std::nullopt;
            if (!k)
              return note_mismatch(r, address);
            auto [it, fresh] = observed_[r].ranges[block].emplace(thread, std::pair{*k, *k});
            if (!fresh)
              it->second.second = *k;
          });
    });
  }
}

void LaunchEstimator::note_mismatch(std::size_t r, std::uint64_t address) {
  if (observed_[r].mismatch.empty()) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
    observed_[r].mismatch = std::string("the traced address ") + text +
                            " does not fit the relation (not an element of `" +
                            out_.relations[r].relation.root + "` at m·value + c)";
  }
}

std::string LaunchEstimator::missing_symbol_message(const Relation& relation,
                                                    const std::string& symbol) {
  const std::string_view kind = relation.symbol_kind(symbol);
  if (kind == "kernel_parameter") {
    return "kernel argument `" + symbol +
           "` is not recorded (a kernel_arguments annotation would give it)";
  }
  return "`" + symbol + "` (" + std::string(kind.empty() ? "unknown" : kind) +
         ") has no value before the launch";
}

}  // namespace memcarlo::footprint::detail
