// Estimated and traced footprints of one launch (footprint.hpp). The estimate follows TAFE's
// relations (§3); the extent tables (§4.2) hold the primary values each block reads, which the
// trace does not record: they are recovered from the addresses of the accesses those values
// index (docs/footprints.md says what this misses and what the runtime must add). This file: the
// entry point and the estimate of each relation; the passes before it are
// estimate_relations.cpp (survey, relations) and extent_recovery.cpp (launch_estimator.hpp).
#include <algorithm>

#include "launch_estimator.hpp"
#include "memcarlo/footprint/footprint.hpp"

namespace memcarlo::footprint {
namespace detail {
namespace {

void merge_ranges(std::vector<ByteRange>& ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) {
    return a.begin < b.begin || (a.begin == b.begin && a.end < b.end);
  });
  std::size_t out = 0;
  for (const ByteRange& range : ranges) {
    if (out > 0 && range.begin <= ranges[out - 1].end) {
      ranges[out - 1].end = std::max(ranges[out - 1].end, range.end);
    } else {
      ranges[out++] = range;
    }
  }
  ranges.resize(out);
}

bool compare(std::int64_t value, const std::string& comparison, std::int64_t bound) {
  if (comparison == "<")
    return value < bound;
  if (comparison == "<=")
    return value <= bound;
  if (comparison == ">")
    return value > bound;
  if (comparison == ">=")
    return value >= bound;
  return value != bound;  // "!="
}

}  // namespace

LaunchEstimator::LaunchEstimator(const tracebuf::TraceReader& reader, std::uint32_t launch,
                                 const EstimateOptions& options)
    : reader_(reader),
      streams_(reader.launches()[launch]),
      info_(streams_.info),
      options_(options),
      arguments_([&] {
        std::map<std::string, std::int64_t> arguments = recorded_arguments(reader, launch);
        arguments.insert(options.given_arguments.begin(), options.given_arguments.end());
        return arguments;
      }()),
      env_(info_, arguments_) {
  out_.launch = launch;
  out_.kernel = info_.kernel;
  out_.arguments = arguments_;
}

LaunchFootprint LaunchEstimator::run() {
  survey();
  select_relations();
  read_back();
  for (std::size_t r = 0; r < out_.relations.size(); ++r) {
    estimate(r);
  }
  for (BlockFootprint& block : out_.blocks) {
    merge_ranges(block.estimated);
    merge_ranges(block.actual);
  }
  return std::move(out_);
}

/// The relation's allocation (the one its root lies in, not another of the same name).
void LaunchEstimator::whole_allocation(std::size_t r) {
  const RelationUse& use = out_.relations[r];
  if (use.allocation_bytes.end > use.allocation_bytes.begin) {
    for (BlockFootprint& block : out_.blocks) {
      block.estimated.push_back(use.allocation_bytes);
    }
  }
}

/// A block whose strided extent has too many elements to list takes the whole allocation.
void LaunchEstimator::whole_allocation_for_block(std::size_t r, std::size_t b) {
  const RelationUse& use = out_.relations[r];
  if (use.allocation_bytes.end > use.allocation_bytes.begin) {
    out_.blocks[b].estimated.push_back(use.allocation_bytes);
  }
}

/// Elements [first, last_inclusive] of the relation's array, clipped to its allocation
/// (TAFE's Base/Limit filter, §4.4): an index before the first element or past the last is
/// outside the footprint, whatever allocation lies there.
void LaunchEstimator::add_elements(BlockFootprint& block, const RelationUse& use,
                                   std::int64_t first, std::int64_t last_inclusive) {
  const std::int64_t s = scale(use.relation);
  std::int64_t begin = static_cast<std::int64_t>(use.root_base) + first * s;
  std::int64_t end =
      static_cast<std::int64_t>(use.root_base) + last_inclusive * s + use.relation.element_size;
  if (use.allocation_bytes.end > use.allocation_bytes.begin) {
    begin = std::max(begin, static_cast<std::int64_t>(use.allocation_bytes.begin));
    end = std::min(end, static_cast<std::int64_t>(use.allocation_bytes.end));
  }
  if (end > begin && begin >= 0) {
    block.estimated.push_back({static_cast<std::uint64_t>(begin), static_cast<std::uint64_t>(end)});
  }
}

void LaunchEstimator::estimate(std::size_t r) {
  RelationUse& use = out_.relations[r];
  if (use.superseded_by)
    return;
  const Relation& relation = use.relation;
  if (use.fallback.empty() && !observed_[r].mismatch.empty()) {
    use.fallback = observed_[r].mismatch;
  }
  if (use.fallback.empty() && relation.kind == RelationKind::kUnsupported) {
    use.fallback = relation.reason;
  }
  if (use.fallback.empty()) {
    switch (relation.kind) {
      case RelationKind::kTidDep:
        estimate_thread_dependent(r);
        break;
      case RelationKind::kIndirect:
        estimate_indirect(r);
        break;
      case RelationKind::kIndirectRange:
        estimate_range(r);
        break;
      case RelationKind::kUnsupported:
        break;
    }
  }
  if (!use.fallback.empty()) {
    whole_allocation(r);
  }
}

void LaunchEstimator::estimate_thread_dependent(std::size_t r) {
  RelationUse& use = out_.relations[r];
  const Relation& relation = use.relation;
  std::vector<std::string> loop_variables;
  std::vector<std::array<CompiledForm, 3>> loops;  // init, step, bound
  std::vector<std::uint32_t> loop_slots;
  std::vector<std::string> comparisons;
  for (const Induction& induction : relation.inductions) {
    comparisons.push_back(induction.comparison);
    for (const Form* form : {&*induction.init, &*induction.step, &*induction.bound}) {
      if (const std::string unknown = env_.unknown_symbol(*form, loop_variables);
          !unknown.empty()) {
        use.fallback = missing_symbol_message(relation, unknown);
        return;
      }
    }
    loop_variables.push_back(induction.variable);
    loops.push_back({env_.compile(*induction.init), env_.compile(*induction.step),
                     env_.compile(*induction.bound)});
    loop_slots.push_back(env_.table.slot(induction.variable));
    env_.grow();
  }
  if (const std::string unknown = env_.unknown_symbol(relation.offset, loop_variables);
      !unknown.empty()) {
    use.fallback = missing_symbol_message(relation, unknown);
    return;
  }
  const CompiledForm offset = env_.compile(relation.offset);
  std::vector<std::int64_t> indices;
  const std::uint64_t threads = info_.block.volume();
  ExtentTable ranges{relation.load, relation.load, {}};
  for (BlockFootprint& block : out_.blocks) {
    env_.set_block(block.block_id, info_.grid);
    indices.clear();
    iterations_ = 0;
    bool capped = false;
    for (std::uint64_t thread = 0; thread < threads && !capped; ++thread) {
      env_.set_thread(thread, info_.block);
      capped = !enumerate(loops, comparisons, loop_slots, 0, offset, indices);
    }
    if (capped) {
      use.fallback = "more than " + std::to_string(options_.max_indices_per_block) +
                     " indices per block (a loop without a usable bound?)";
      return;
    }
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    ranges.per_block.push_back(indices.empty() ? Extent{}
                                               : Extent{true, indices.front(), indices.back()});
    add_index_runs(block, use, indices);
  }
  out_.index_ranges.push_back(std::move(ranges));
}

/// Appends the indices of the loops from `depth` in; false past the cap.
bool LaunchEstimator::enumerate(const std::vector<std::array<CompiledForm, 3>>& loops,
                                const std::vector<std::string>& comparisons,
                                const std::vector<std::uint32_t>& slots, std::size_t depth,
                                const CompiledForm& offset, std::vector<std::int64_t>& indices) {
  if (depth == loops.size()) {
    indices.push_back(offset.evaluate(env_.values));
    return indices.size() <= options_.max_indices_per_block;
  }
  const std::string& comparison = comparisons[depth];
  const std::int64_t step = loops[depth][1].evaluate(env_.values);
  for (std::int64_t value = loops[depth][0].evaluate(env_.values);
       compare(value, comparison, loops[depth][2].evaluate(env_.values)); value += step) {
    env_.values[slots[depth]] = value;
    // Every iteration counts, so that an outer loop with empty inner ones still ends.
    if (++iterations_ > options_.max_indices_per_block ||
        !enumerate(loops, comparisons, slots, depth + 1, offset, indices))
      return false;
    if (step == 0)
      break;
  }
  return true;
}

void LaunchEstimator::add_index_runs(BlockFootprint& block, const RelationUse& use,
                                     const std::vector<std::int64_t>& sorted) {
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1)
      ++j;
    add_elements(block, use, sorted[i], sorted[j]);
    i = j + 1;
  }
}

void LaunchEstimator::estimate_indirect(std::size_t r) {
  const RelationUse& use = out_.relations[r];
  const Relation& relation = use.relation;
  ExtentTable table{relation.primary, relation.load, observed_[r].values};
  std::vector<std::int64_t> indices;
  for (std::size_t b = 0; b < out_.blocks.size(); ++b) {
    const Extent& extent = table.per_block[b];
    if (!extent.valid)
      continue;
    const std::int64_t m = relation.primary_coefficient;
    const std::int64_t c = relation.primary_constant;
    if (m == 1 || m == -1) {
      add_elements(out_.blocks[b], use, std::min(m * extent.min, m * extent.max) + c,
                   std::max(m * extent.min, m * extent.max) + c);
      continue;
    }
    if (static_cast<std::uint64_t>(extent.max - extent.min) >= options_.max_indices_per_block) {
      whole_allocation_for_block(r, b);
      continue;
    }
    indices.clear();
    for (std::int64_t v = extent.min; v <= extent.max; ++v)
      indices.push_back(m * v + c);
    std::sort(indices.begin(), indices.end());
    add_index_runs(out_.blocks[b], use, indices);
  }
  out_.extents.push_back(std::move(table));
}

void LaunchEstimator::estimate_range(std::size_t r) {
  const RelationUse& use = out_.relations[r];
  const Relation& relation = use.relation;
  ExtentTable starts{relation.primary, relation.load, {}};
  ExtentTable ends{relation.primary_end, relation.load, {}};
  ExtentTable ranges{relation.load, relation.load, {}};
  const CompiledForm rest = env_.compile(relation.offset);
  std::vector<std::int64_t> rests;
  for (std::size_t b = 0; b < out_.blocks.size(); ++b) {
    Extent start, end, span;  // span: the range variable's first and last values in the block
    for (const auto& [thread, range] : observed_[r].ranges[b]) {
      widen(span, range.first);
      widen(span, range.second);
      // k runs from P_s + c_s while k < P_e + c_e in steps of 1: the first k is P_s + c_s and
      // the last P_e + c_e - 1 (a loop left early by `break` shows a smaller P_e). A count from
      // the start (end_adds_start) ends at P_e + P_s + c_e - 1: the thread's P_s is taken off.
      const std::int64_t thread_start = range.first - relation.primary_constant;
      widen(start, thread_start);
      widen(end, range.second + 1 - relation.end_constant -
                     (relation.end_adds_start ? thread_start : 0));
    }
    starts.per_block.push_back(start);
    ends.per_block.push_back(end);
    ranges.per_block.push_back(span);
    if (!start.valid)
      continue;
    BlockFootprint& block = out_.blocks[b];
    env_.set_block(block.block_id, info_.grid);
    rests.clear();
    for (std::uint64_t thread = 0; thread < info_.block.volume(); ++thread) {
      env_.set_thread(thread, info_.block);
      rests.push_back(rest.evaluate(env_.values));
    }
    std::sort(rests.begin(), rests.end());
    rests.erase(std::unique(rests.begin(), rests.end()), rests.end());
    const std::int64_t first = span.min;
    const std::int64_t last = span.max;
    const std::int64_t a = relation.range_coefficient;
    for (const std::int64_t base : rests) {
      if (a == 1) {
        add_elements(block, use, first + base, last + base);
      } else {
        if (last - first >= static_cast<std::int64_t>(options_.max_indices_per_block)) {
          whole_allocation_for_block(r, b);
          continue;
        }
        std::vector<std::int64_t> indices;
        for (std::int64_t k = first; k <= last; ++k)
          indices.push_back(a * k + base);
        std::sort(indices.begin(), indices.end());
        add_index_runs(block, use, indices);
      }
    }
  }
  out_.index_ranges.push_back(std::move(ranges));
  out_.extents.push_back(std::move(starts));
  out_.extents.push_back(std::move(ends));
}

}  // namespace detail

LaunchFootprint launch_footprint(const tracebuf::TraceReader& reader, std::uint32_t launch,
                                 const EstimateOptions& options) {
  if (launch >= reader.launches().size()) {
    throw MissingInformation(reader.path() + ": no launch " + std::to_string(launch) +
                             " (the trace has " + std::to_string(reader.launches().size()) + ")");
  }
  if (!has_index_forms(reader.loads()) && recorded_registrations(reader, launch).empty()) {
    throw MissingInformation(
        reader.path() +
        ": the loads table has no index forms, so no TAF relation can be derived (traces from "
        "memcarlo synth and Accel-Sim carry none; trace the program with memcarlo-cc)");
  }
  if (reader.allocations().empty()) {
    throw MissingInformation(reader.path() +
                             ": the trace lists no allocations, which bound every footprint");
  }
  return detail::LaunchEstimator(reader, launch, options).run();
}

}  // namespace memcarlo::footprint
