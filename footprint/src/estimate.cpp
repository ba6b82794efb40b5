// Estimated and traced footprints of one launch (footprint.hpp). The estimate follows TAFE's
// relations (§3); the extent tables (§4.2) hold the primary values each block reads, which the
// trace does not record: they are recovered from the addresses of the accesses those values
// index (docs/footprints.md says what this misses and what the runtime must add).
#include <algorithm>
#include <bit>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "form.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::footprint {
namespace {

using detail::CompiledForm;
using detail::SymbolTable;

constexpr std::uint32_t kWarpSize = 32;

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

const tracebuf::Allocation* allocation_containing(
    const std::vector<tracebuf::Allocation>& allocations, std::uint64_t address) {
  for (const tracebuf::Allocation& allocation : allocations) {
    if (address >= allocation.base && address - allocation.base < allocation.size) {
      return &allocation;
    }
  }
  return nullptr;
}

std::array<std::int64_t, 3> coordinates(std::uint64_t linear, const tracebuf::Dim3& shape) {
  return {static_cast<std::int64_t>(linear % shape.x),
          static_cast<std::int64_t>(linear / shape.x % shape.y),
          static_cast<std::int64_t>(linear / (std::uint64_t{shape.x} * shape.y))};
}

/// Calls f(thread in block, byte address, element size) for every active lane of `record`.
template <class F>
void for_each_lane(const tracebuf::RecordView& record, std::uint32_t warp, F&& f) {
  unsigned k = 0;
  for (std::uint32_t mask = record.active_mask(); mask != 0; mask &= mask - 1, ++k) {
    const auto lane = static_cast<std::uint32_t>(std::countr_zero(mask));
    f(warp * kWarpSize + lane, record.active_address(k), record.element_size());
  }
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

/// The launch's symbol values: threads and blocks (set per evaluation), launch shape, arguments.
struct Environment {
  SymbolTable table;
  std::vector<std::int64_t> values;
  std::vector<bool> known;
  std::array<std::uint32_t, 3> thread_slots{}, block_slots{};

  Environment(const tracebuf::LaunchInfo& launch,
              const std::map<std::string, std::int64_t>& arguments) {
    const char* axes[] = {"x", "y", "z"};
    const std::array<std::uint32_t, 3> block = {launch.block.x, launch.block.y, launch.block.z};
    const std::array<std::uint32_t, 3> grid = {launch.grid.x, launch.grid.y, launch.grid.z};
    for (int a = 0; a < 3; ++a) {
      thread_slots[a] = define(std::string("threadIdx.") + axes[a], 0);
      block_slots[a] = define(std::string("blockIdx.") + axes[a], 0);
      define(std::string("blockDim.") + axes[a], block[a]);
      define(std::string("gridDim.") + axes[a], grid[a]);
    }
    define("warpSize", kWarpSize);
    for (const auto& [name, value] : arguments) {
      define(name, value);
    }
  }
  std::uint32_t define(const std::string& name, std::int64_t value) {
    const std::uint32_t slot = table.slot(name);
    grow();
    values[slot] = value;
    known[slot] = true;
    return slot;
  }
  CompiledForm compile(const Form& form) {
    CompiledForm compiled(form, table);
    grow();
    return compiled;
  }
  void grow() {
    values.resize(table.size(), 0);
    known.resize(table.size(), false);
  }
  void set_block(std::uint64_t linear, const tracebuf::Dim3& grid) {
    const auto c = coordinates(linear, grid);
    for (int a = 0; a < 3; ++a)
      values[block_slots[a]] = c[a];
  }
  void set_thread(std::uint64_t linear, const tracebuf::Dim3& block) {
    const auto c = coordinates(linear, block);
    for (int a = 0; a < 3; ++a)
      values[thread_slots[a]] = c[a];
  }
  /// The first symbol of `form` that has no value and is not in `bound_here`; empty if none.
  std::string unknown_symbol(const Form& form, const std::vector<std::string>& bound_here) const {
    for (const std::string& symbol : form.symbols()) {
      if (std::find(bound_here.begin(), bound_here.end(), symbol) != bound_here.end())
        continue;
      const auto slot = table.find(symbol);
      if (!slot || !known[*slot])
        return symbol;
    }
    return {};
  }
};

/// Per-block state of the dependent accesses read back from the trace.
struct Observed {
  // INDIR: per block, the values of the primary load recovered from this access.
  std::vector<Extent> values;
  // INDIR_RANGE: per block, per thread, the first and last value of the range variable.
  std::vector<std::unordered_map<std::uint32_t, std::pair<std::int64_t, std::int64_t>>> ranges;
  std::string mismatch;  // an address that does not fit the relation
};

void widen(Extent& extent, std::int64_t value) {
  if (!extent.valid) {
    extent = {true, value, value};
  } else {
    extent.min = std::min(extent.min, value);
    extent.max = std::max(extent.max, value);
  }
}

/// floor-free exact division: nullopt unless `d` divides `n`.
std::optional<std::int64_t> divide_exactly(std::int64_t n, std::int64_t d) {
  if (d == 0 || n % d != 0)
    return std::nullopt;
  return n / d;
}

class LaunchEstimator {
 public:
  LaunchEstimator(const tracebuf::TraceReader& reader, std::uint32_t launch,
                  const EstimateOptions& options)
      : reader_(reader),
        streams_(reader.launches()[launch]),
        info_(streams_.info),
        options_(options),
        arguments_(recorded_arguments(reader, launch)),
        env_(info_, arguments_) {
    out_.launch = launch;
    out_.kernel = info_.kernel;
    out_.arguments = arguments_;
  }

  LaunchFootprint run() {
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

 private:
  // Pass 1: the blocks, the loads the launch executes and the first address of each.
  void survey() {
    for (const tracebuf::WarpStream& warp : streams_.warps) {
      if (block_index_.find(warp.block) == block_index_.end()) {
        block_index_.emplace(warp.block, out_.blocks.size());
        out_.blocks.push_back({warp.block, {}, {}});
      }
      warp.for_each([&](const tracebuf::RecordView& record) {
        auto [it, fresh] = first_address_.emplace(record.static_id(), 0);
        if (fresh) {
          it->second = record.active_address(0);
          element_size_[record.static_id()] = record.element_size();
        }
      });
    }
  }

  void select_relations() {
    for (Relation& relation : derive_relations(reader_.loads())) {
      const tracebuf::LoadInfo& load = reader_.loads()[relation.load];
      const bool in_kernel =
          std::find(load.kernels.begin(), load.kernels.end(), info_.kernel) != load.kernels.end();
      if (!in_kernel && first_address_.find(relation.load) == first_address_.end()) {
        continue;
      }
      if (relation.element_size == 0) {
        const auto size = element_size_.find(relation.load);
        relation.element_size = size == element_size_.end() ? 1 : size->second;
      }
      RelationUse use;
      use.relation = std::move(relation);
      resolve_root(use);
      relation_of_load_[use.relation.load] = out_.relations.size();
      out_.relations.push_back(std::move(use));
    }
    if (!options_.hand_registrations) {
      return;
    }
    const std::vector<TafRegistration> registrations = recorded_registrations(reader_, out_.launch);
    if (!registrations.empty()) {
      check_param_setup();
    }
    for (const TafRegistration& registration : registrations) {
      if (!registration.ready) {
        // TAFE evaluates an array's relation only once its R bit is set (taf_setRdy).
        out_.notes.push_back("taf_register(" + registration.type + ") of the array at " +
                             std::to_string(registration.base) +
                             " was not marked ready (taf_setRdy) before the launch: not used, "
                             "the derived relations stand for it");
        continue;
      }
      add_registration(registration);
    }
  }

  /// taf_paramSetup's shape against the launch's: the hand coefficients (m over threadIdx and
  /// blockIdx) are evaluated with the launch's ids; a different recorded shape means they may
  /// assume another one, which is worth a warning, not a refusal.
  void check_param_setup() {
    const std::optional<LaunchShape> shape = recorded_param_setup(reader_, out_.launch);
    if (!shape) {
      return;
    }
    const auto text = [](const auto& d) {
      return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
             std::to_string(d[2]) + "]";
    };
    const std::array<std::uint32_t, 3> block = {info_.block.x, info_.block.y, info_.block.z};
    const std::array<std::uint32_t, 3> grid = {info_.grid.x, info_.grid.y, info_.grid.z};
    if (shape->block != block || shape->grid != grid) {
      out_.notes.push_back("taf_paramSetup gave block " + text(shape->block) + ", grid " +
                           text(shape->grid) + " but launch " + std::to_string(out_.launch) +
                           " has block " + text(block) + ", grid " + text(grid) +
                           ": the hand relations are evaluated with the launch's shape");
    }
  }

  /// The access that reads a hand relation's primary array at byte address `address` (PBase of
  /// INDIR, PBase_s / PBase_e of INDIR_RANGE: `&P[0]`, or `&P[1]` for the CSR row ends): the
  /// thread-dependent access of that array whose index is that element for thread 0 of block 0
  /// (root + constant of its offset; `rowIndices[myi + 1]` for `&rowIndices[1]`); failing that,
  /// the access whose first traced address is `address`; failing that, the first access whose
  /// first traced address lies in the allocation holding `address` (an INDIR's primary read
  /// through a range, `indices[j]`).
  std::optional<std::uint32_t> primary_access(std::uint64_t address) const {
    std::optional<std::uint32_t> found;
    for (const RelationUse& use : out_.relations) {
      const Relation& relation = use.relation;
      if (use.source != "derived" || relation.kind != RelationKind::kTidDep ||
          !use.fallback.empty() || use.root_base == 0) {
        continue;
      }
      const std::int64_t unit = relation.offset_in_bytes ? 1 : relation.element_size;
      const auto at = static_cast<std::uint64_t>(static_cast<std::int64_t>(use.root_base) +
                                                 unit * relation.offset.constant);
      if (at == address && (!found || relation.load < *found)) {
        found = relation.load;
      }
    }
    if (found) {
      return found;
    }
    for (const RelationUse& use : out_.relations) {
      const auto first = first_address_.find(use.relation.load);
      if (use.source == "derived" && first != first_address_.end() && first->second == address &&
          (!found || use.relation.load < *found)) {
        found = use.relation.load;
      }
    }
    const tracebuf::Allocation* holder = allocation_containing(reader_.allocations(), address);
    if (found || holder == nullptr) {
      return found;
    }
    for (const RelationUse& use : out_.relations) {
      const auto first = first_address_.find(use.relation.load);
      if (use.source == "derived" && first != first_address_.end() &&
          first->second >= holder->base && first->second < holder->base + holder->size &&
          (!found || use.relation.load < *found)) {
        found = use.relation.load;
      }
    }
    return found;
  }

  /// A hand relation for the accesses whose first traced address lies in the registered array.
  void add_registration(const TafRegistration& registration) {
    const std::uint64_t end = registration.base + registration.size * registration.element_size;
    const auto first_access_in = [&](std::uint64_t base, std::uint64_t limit) {
      std::optional<std::uint32_t> found;
      for (const RelationUse& use : out_.relations) {
        const auto first = first_address_.find(use.relation.load);
        if (use.source == "derived" && first != first_address_.end() && first->second >= base &&
            first->second < limit && (!found || use.relation.load < *found)) {
          found = use.relation.load;
        }
      }
      return found;
    };
    const auto access = first_access_in(registration.base, end);
    if (!access)
      return;  // the launch does not touch the array
    Relation relation;
    relation.load = *access;
    relation.element_size = registration.element_size;
    relation.expression = "taf_register(" + registration.type + ")";
    if (registration.type == "TID_DEP") {
      relation.kind = RelationKind::kTidDep;
      const char* ids[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z",
                           "blockIdx.x",  "blockIdx.y",  "blockIdx.z"};
      for (int i = 0; i < 6; ++i) {
        if (registration.m[i] != 0)
          relation.offset.terms.push_back({registration.m[i], {ids[i]}});
      }
      relation.offset.constant = registration.c;
      if (registration.n > 0) {
        // {m·ID(tid) + c + i·ofs | 0 <= i < N} (§3.1)
        relation.offset.terms.push_back({registration.ofs, {"taf.i"}});
        Form zero, one, count;
        one.constant = 1;
        count.constant = registration.n;
        relation.inductions.push_back({"taf.i", 1, zero, one, count, "<"});
      }
    } else if (registration.type == "INDIR") {
      relation.kind = RelationKind::kIndirect;
      relation.primary_coefficient = registration.m[0];
      relation.primary_constant = registration.c;
      relation.primary = primary_access(registration.pbase).value_or(0);
    } else {
      relation.kind = RelationKind::kIndirectRange;
      relation.primary_constant = registration.c;
      relation.end_constant = registration.c_end;
      relation.range_variable = "k";
      relation.primary = primary_access(registration.pbase).value_or(0);
      relation.primary_end =
          registration.pbase_end == registration.pbase
              ? relation.primary
              : primary_access(registration.pbase_end).value_or(relation.primary);
    }
    RelationUse use;
    use.relation = std::move(relation);
    use.source = "taf_register";
    use.root_base = registration.base;
    use.root_source = "taf_register";
    if (const auto* allocation = allocation_containing(reader_.allocations(), registration.base)) {
      set_allocation(use, *allocation);
    }
    const std::size_t index = out_.relations.size();
    for (RelationUse& derived : out_.relations) {
      const auto first = first_address_.find(derived.relation.load);
      if (derived.source == "derived" && first != first_address_.end() &&
          first->second >= registration.base && first->second < end) {
        derived.superseded_by = index;
        relation_of_load_[derived.relation.load] = index;
      }
    }
    out_.relations.push_back(std::move(use));
  }

  static void set_allocation(RelationUse& use, const tracebuf::Allocation& allocation) {
    use.allocation = allocation.name;
    use.allocation_bytes = {allocation.base, allocation.base + allocation.size};
  }

  void resolve_root(RelationUse& use) {
    const auto& allocations = reader_.allocations();
    const std::string& root = use.relation.root;
    if (const auto argument = arguments_.find(root); argument != arguments_.end()) {
      use.root_base = static_cast<std::uint64_t>(argument->second);
      use.root_source = "argument";
      if (const auto* allocation = allocation_containing(allocations, use.root_base)) {
        set_allocation(use, *allocation);
      }
      return;
    }
    for (const tracebuf::Allocation& allocation : allocations) {
      if (!root.empty() && allocation.name == root) {
        use.root_base = allocation.base;
        set_allocation(use, allocation);
        use.root_source = "allocation name";
        return;
      }
    }
    if (const auto first = first_address_.find(use.relation.load); first != first_address_.end()) {
      if (const auto* allocation = allocation_containing(allocations, first->second)) {
        use.root_base = allocation->base;
        set_allocation(use, *allocation);
        use.root_source = "first traced address";
        return;
      }
    }
    use.fallback = "no allocation found for `" + root + "`";
  }

  [[nodiscard]] std::int64_t scale(const Relation& relation) const {
    return relation.offset_in_bytes ? 1 : static_cast<std::int64_t>(relation.element_size);
  }

  // Pass 2: every lane's bytes (the actual footprint) and, for INDIR and INDIR_RANGE, the values
  // the dependent addresses reveal.
  void read_back() {
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
            record, warp.warp,
            [&](std::uint32_t thread, std::uint64_t address, std::uint32_t size) {
              footprint.actual.push_back({address, address + size});
              if (r == SIZE_MAX || !out_.relations[r].fallback.empty())
                return;
              const RelationUse& use = out_.relations[r];
              const Relation& relation = use.relation;
              if (relation.kind != RelationKind::kIndirect &&
                  relation.kind != RelationKind::kIndirectRange) {
                return;
              }
              const auto offset = divide_exactly(static_cast<std::int64_t>(address - use.root_base),
                                                 scale(relation));
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

  void note_mismatch(std::size_t r, std::uint64_t address) {
    if (observed_[r].mismatch.empty()) {
      char text[32];
      std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
      observed_[r].mismatch = std::string("the traced address ") + text +
                              " does not fit the relation (not an element of `" +
                              out_.relations[r].relation.root + "` at m·value + c)";
    }
  }

  static std::string missing_symbol_message(const Relation& relation, const std::string& symbol) {
    const std::string_view kind = relation.symbol_kind(symbol);
    if (kind == "kernel_parameter") {
      return "kernel argument `" + symbol +
             "` is not recorded (a kernel_arguments annotation would give it)";
    }
    return "`" + symbol + "` (" + std::string(kind.empty() ? "unknown" : kind) +
           ") has no value before the launch";
  }

  /// The relation's allocation (the one its root lies in, not another of the same name).
  void whole_allocation(std::size_t r) {
    const RelationUse& use = out_.relations[r];
    if (use.allocation_bytes.end > use.allocation_bytes.begin) {
      for (BlockFootprint& block : out_.blocks) {
        block.estimated.push_back(use.allocation_bytes);
      }
    }
  }

  /// A block whose strided extent has too many elements to list takes the whole allocation.
  void whole_allocation_for_block(std::size_t r, std::size_t b) {
    const RelationUse& use = out_.relations[r];
    if (use.allocation_bytes.end > use.allocation_bytes.begin) {
      out_.blocks[b].estimated.push_back(use.allocation_bytes);
    }
  }

  /// Elements [first, last_inclusive] of the relation's array, clipped to its allocation
  /// (TAFE's Base/Limit filter, §4.4): an index before the first element or past the last is
  /// outside the footprint, whatever allocation lies there.
  void add_elements(BlockFootprint& block, const RelationUse& use, std::int64_t first,
                    std::int64_t last_inclusive) {
    const std::int64_t s = scale(use.relation);
    std::int64_t begin = static_cast<std::int64_t>(use.root_base) + first * s;
    std::int64_t end =
        static_cast<std::int64_t>(use.root_base) + last_inclusive * s + use.relation.element_size;
    if (use.allocation_bytes.end > use.allocation_bytes.begin) {
      begin = std::max(begin, static_cast<std::int64_t>(use.allocation_bytes.begin));
      end = std::min(end, static_cast<std::int64_t>(use.allocation_bytes.end));
    }
    if (end > begin && begin >= 0) {
      block.estimated.push_back(
          {static_cast<std::uint64_t>(begin), static_cast<std::uint64_t>(end)});
    }
  }

  void estimate(std::size_t r) {
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

  void estimate_thread_dependent(std::size_t r) {
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
  bool enumerate(const std::vector<std::array<CompiledForm, 3>>& loops,
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

  void add_index_runs(BlockFootprint& block, const RelationUse& use,
                      const std::vector<std::int64_t>& sorted) {
    for (std::size_t i = 0; i < sorted.size();) {
      std::size_t j = i;
      while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1)
        ++j;
      add_elements(block, use, sorted[i], sorted[j]);
      i = j + 1;
    }
  }

  void estimate_indirect(std::size_t r) {
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

  void estimate_range(std::size_t r) {
    const RelationUse& use = out_.relations[r];
    const Relation& relation = use.relation;
    ExtentTable starts{relation.primary, relation.load, {}};
    ExtentTable ends{relation.primary_end, relation.load, {}};
    ExtentTable ranges{relation.load, relation.load, {}};
    const CompiledForm rest = env_.compile(relation.offset);
    std::vector<std::int64_t> rests;
    for (std::size_t b = 0; b < out_.blocks.size(); ++b) {
      Extent start, end;
      for (const auto& [thread, range] : observed_[r].ranges[b]) {
        // k runs from P_s + c_s while k < P_e + c_e in steps of 1: the first k is P_s + c_s and
        // the last P_e + c_e - 1 (a loop left early by `break` shows a smaller P_e).
        widen(start, range.first - relation.primary_constant);
        widen(end, range.second + 1 - relation.end_constant);
      }
      starts.per_block.push_back(start);
      ends.per_block.push_back(end);
      ranges.per_block.push_back(start.valid ? Extent{true, start.min + relation.primary_constant,
                                                      end.max + relation.end_constant - 1}
                                             : Extent{});
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
      const std::int64_t first = start.min + relation.primary_constant;
      const std::int64_t last = end.max + relation.end_constant - 1;
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

  const tracebuf::TraceReader& reader_;
  const tracebuf::LaunchStreams& streams_;
  const tracebuf::LaunchInfo& info_;
  EstimateOptions options_;
  std::map<std::string, std::int64_t> arguments_;
  Environment env_;
  LaunchFootprint out_;
  std::unordered_map<std::uint64_t, std::size_t> block_index_;
  std::unordered_map<std::uint32_t, std::uint64_t> first_address_;
  std::unordered_map<std::uint32_t, std::uint32_t> element_size_;
  std::unordered_map<std::uint32_t, std::size_t> relation_of_load_;
  std::vector<Observed> observed_;
  std::uint64_t iterations_ = 0;  // loop iterations enumerated for the current block
};

}  // namespace

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
  return LaunchEstimator(reader, launch, options).run();
}

}  // namespace memcarlo::footprint
