// The static locality graph from the loads table's index forms (static_graph.hpp).
#include "memcarlo/locality/static_graph.hpp"

#include <algorithm>
#include <stdexcept>

namespace memcarlo::locality {
namespace {

struct TooManyEvaluations {};

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

bool continues(std::int64_t value, const std::string& comparison, std::int64_t bound) {
  if (comparison == "<")
    return value < bound;
  if (comparison == "<=")
    return value <= bound;
  if (comparison == ">")
    return value > bound;
  if (comparison == ">=")
    return value >= bound;
  return value != bound;
}

/// Enumerates the offsets of one load for one block position (slots 3..5 already set).
class Enumerator {
 public:
  Enumerator(const EvaluableLoad& load, std::uint64_t& budget, bool with_block_terms)
      : load_(load), budget_(budget) {
    offset_ = load.offset;
    if (!with_block_terms) {
      std::erase_if(offset_.terms,
                    [](const auto& term) { return term.first >= 3 && term.first < 6; });
    }
  }

  void run(std::int64_t* slots, const tracebuf::Dim3& block, std::vector<std::int64_t>& keys) {
    keys_ = &keys;
    slots_ = slots;
    for (std::uint32_t z = 0; z < block.z; ++z) {
      for (std::uint32_t y = 0; y < block.y; ++y) {
        for (std::uint32_t x = 0; x < block.x; ++x) {
          slots_[0] = x;
          slots_[1] = y;
          slots_[2] = z;
          loop(0);
        }
      }
    }
  }

 private:
  void loop(std::size_t level) {
    if (level == load_.loops.size()) {
      if (budget_ == 0)
        throw TooManyEvaluations{};
      --budget_;
      keys_->push_back(offset_.evaluate(slots_));
      return;
    }
    const InductionLoop& induction = load_.loops[level];
    const std::int64_t bound = induction.bound.evaluate(slots_);
    std::int64_t& value = slots_[kFirstInductionSlot + level];
    if (induction.comparison == "!=" &&
        ((bound - induction.init.evaluate(slots_)) % induction.step != 0 ||
         (bound - induction.init.evaluate(slots_)) / induction.step < 0)) {
      throw TooManyEvaluations{};  // a != loop that steps past its bound never ends
    }
    for (value = induction.init.evaluate(slots_); continues(value, induction.comparison, bound);
         value += induction.step) {
      loop(level + 1);
    }
  }

  const EvaluableLoad& load_;
  std::uint64_t& budget_;
  LinearForm offset_;
  std::vector<std::int64_t>* keys_ = nullptr;
  std::int64_t* slots_ = nullptr;
};

std::string form_pattern(const std::set<char>& dimensions) {
  if (dimensions.empty())
    return "fully connected";
  if (dimensions.size() == 1)
    return std::string("index_") + *dimensions.begin() + " only";
  std::string name = "index_";
  for (const char d : dimensions)
    name += std::string(name.size() > 6 ? "+" : "") + d;
  return name;
}

/// The pattern of an array read by several loads (paper §IV): SYR2K's A[index_y*N + i] and
/// A[index_x*N + i] together are index_xy.
std::string array_pattern(const std::vector<std::set<char>>& loads) {
  bool combined = false;
  std::set<char> single;
  bool none = false;
  for (const std::set<char>& dimensions : loads) {
    if (dimensions.size() > 1)
      combined = true;
    if (dimensions.size() == 1)
      single.insert(*dimensions.begin());
    if (dimensions.empty())
      none = true;
  }
  if (none)
    return "fully connected";
  if (combined) {
    std::set<char> all;
    for (const auto& dimensions : loads)
      all.insert(dimensions.begin(), dimensions.end());
    return form_pattern(all);
  }
  if (single.size() == 1)
    return form_pattern(single);
  std::string name = "index_";
  for (const char d : single)
    name += d;
  return name;
}

std::vector<KeyInterval> shifted(const std::vector<KeyInterval>& intervals, std::int64_t by) {
  std::vector<KeyInterval> result = intervals;
  for (KeyInterval& interval : result) {
    interval.begin += by;
    interval.end += by;
  }
  return result;
}

std::vector<KeyInterval> lines_of(const std::vector<KeyInterval>& elements, std::int64_t size) {
  std::vector<KeyInterval> lines;
  lines.reserve(elements.size());
  for (const KeyInterval& interval : elements) {
    lines.push_back({floor_div(interval.begin * size, kLineBytes),
                     floor_div(interval.end * size - 1, kLineBytes) + 1});
  }
  merge_intervals(lines);
  return lines;
}

}  // namespace

std::vector<const tracebuf::LoadInfo*> kernel_reads(const std::vector<tracebuf::LoadInfo>& table,
                                                    const std::string& kernel) {
  std::vector<const tracebuf::LoadInfo*> reads;
  for (const tracebuf::LoadInfo& info : table) {
    if (info.kind != tracebuf::AccessKind::kRead || info.redundant_of)
      continue;
    if (std::find(info.kernels.begin(), info.kernels.end(), kernel) == info.kernels.end())
      continue;
    reads.push_back(&info);
  }
  std::sort(reads.begin(), reads.end(), [](const auto* a, const auto* b) { return a->id < b->id; });
  return reads;
}

std::string table_kernel(const std::vector<tracebuf::LoadInfo>& table, const std::string& kernel) {
  const std::size_t open = kernel.find('<');
  if (open == 0 || open == std::string::npos || !kernel_reads(table, kernel).empty())
    return kernel;
  const std::string name = kernel.substr(0, open);
  return kernel_reads(table, name).empty() ? kernel : name;
}

StaticGraph static_graph(const std::vector<tracebuf::LoadInfo>& table,
                         const StaticOptions& options) {
  const std::string kernel = table_kernel(table, options.kernel);
  const std::vector<const tracebuf::LoadInfo*> reads = kernel_reads(table, kernel);
  if (reads.empty()) {
    std::set<std::string> kernels;
    for (const auto& info : table)
      kernels.insert(info.kernels.begin(), info.kernels.end());
    std::string known;
    for (const auto& name : kernels)
      known += (known.empty() ? "" : ", ") + name;
    throw std::runtime_error("kernel `" + options.kernel +
                             "` has no reads in the loads table (kernels there: " +
                             (known.empty() ? "none" : known) + ")");
  }
  const tracebuf::Dim3& grid = options.launch.grid;
  const std::uint64_t blocks = grid.volume();
  const std::uint64_t first = std::min(options.first_block, blocks);
  const std::uint64_t last = first + std::min(options.block_count, blocks - first);
  StaticGraph result;
  result.kernel = kernel;
  GraphBuilder elements(blocks);
  GraphBuilder lines(blocks);
  std::map<std::string, std::uint32_t> spaces;
  std::map<std::string, std::vector<std::set<char>>> root_dimensions;
  for (const tracebuf::LoadInfo* info : reads) {
    if (options.only_loads && !options.only_loads->contains(info->id))
      continue;
    StaticLoad report{info->id, location_of(*info), info->expression, info->base, "", ""};
    CompiledLoad compiled = compile_load(*info, options.launch);
    if (!compiled.load) {
      report.not_covered = compiled.not_covered;
      result.loads.push_back(std::move(report));
      continue;
    }
    const EvaluableLoad& load = *compiled.load;
    report.root = load.root;
    report.pattern = form_pattern(load.block_dimensions);
    const std::uint32_t space =
        spaces.emplace(load.root, static_cast<std::uint32_t>(spaces.size())).first->second;
    std::vector<std::vector<KeyInterval>> element_sets;  // per block of [first, last)
    std::uint64_t budget = options.max_evaluations;
    std::vector<std::int64_t> slots(kFirstInductionSlot + load.loops.size(), 0);
    std::vector<std::int64_t> keys;
    try {
      if (load.loops_depend_on_block) {
        Enumerator enumerator(load, budget, true);
        for (std::uint64_t block = first; block < last; ++block) {
          const BlockCoordinates at = coordinates_of(block, grid);
          slots[3] = at.x;
          slots[4] = at.y;
          slots[5] = at.z;
          keys.clear();
          enumerator.run(slots.data(), options.launch.block, keys);
          element_sets.push_back(intervals_of_keys(keys));
        }
      } else {
        // The block only shifts the set: enumerate once, shift per block.
        Enumerator enumerator(load, budget, false);
        enumerator.run(slots.data(), options.launch.block, keys);
        const std::vector<KeyInterval> relative = intervals_of_keys(keys);
        for (std::uint64_t block = first; block < last; ++block) {
          const BlockCoordinates at = coordinates_of(block, grid);
          const std::int64_t at_slot[6] = {0, 0, 0, at.x, at.y, at.z};
          std::int64_t shift = 0;
          for (const auto& [slot, coefficient] : load.offset.terms) {
            if (slot >= 3 && slot < 6)
              shift += coefficient * at_slot[slot];
          }
          element_sets.push_back(shifted(relative, shift));
        }
      }
    } catch (const TooManyEvaluations&) {
      report.not_covered = "more than " + std::to_string(options.max_evaluations) +
                           " index evaluations, or a `!=` loop that never meets its bound";
      result.loads.push_back(std::move(report));
      continue;
    }
    for (std::uint64_t block = first; block < last; ++block) {
      const auto& set = element_sets[block - first];
      elements.add(space, static_cast<std::uint32_t>(block), set);
      lines.add(space, static_cast<std::uint32_t>(block), lines_of(set, load.element_size));
    }
    root_dimensions[load.root].push_back(load.block_dimensions);
    result.loads.push_back(std::move(report));
  }
  for (const auto& [root, dimensions] : root_dimensions) {
    result.array_patterns[root] = array_pattern(dimensions);
  }
  result.elements = elements.finish();
  result.lines = lines.finish();
  return result;
}

}  // namespace memcarlo::locality
