// Pass 1 of a launch's footprint estimate (launch_estimator.hpp): the blocks and first addresses
// the trace shows, and the relations that apply to the launch, derived from the loads table or
// registered by hand (taf_register), each with the base of its root array.
#include <algorithm>
#include <string>

#include "launch_estimator.hpp"

namespace memcarlo::footprint::detail {
namespace {

const tracebuf::Allocation* allocation_containing(
    const std::vector<tracebuf::Allocation>& allocations, std::uint64_t address) {
  for (const tracebuf::Allocation& allocation : allocations) {
    if (address >= allocation.base && address - allocation.base < allocation.size) {
      return &allocation;
    }
  }
  return nullptr;
}

}  // namespace

// Pass 1: the blocks, the loads the launch executes and the first address of each.
void LaunchEstimator::survey() {
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

void LaunchEstimator::select_relations() {
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
void LaunchEstimator::check_param_setup() {
  const std::optional<LaunchShape> shape = recorded_param_setup(reader_, out_.launch);
  if (!shape) {
    return;
  }
  const auto text = [](const auto& d) {
    return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) +
           "]";
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
std::optional<std::uint32_t> LaunchEstimator::primary_access(std::uint64_t address) const {
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
    if (use.source == "derived" && first != first_address_.end() && first->second >= holder->base &&
        first->second < holder->base + holder->size && (!found || use.relation.load < *found)) {
      found = use.relation.load;
    }
  }
  return found;
}

/// A hand relation for the accesses whose first traced address lies in the registered array.
void LaunchEstimator::add_registration(const TafRegistration& registration) {
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
    relation.primary_end = registration.pbase_end == registration.pbase
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

void LaunchEstimator::set_allocation(RelationUse& use, const tracebuf::Allocation& allocation) {
  use.allocation = allocation.name;
  use.allocation_bytes = {allocation.base, allocation.base + allocation.size};
}

void LaunchEstimator::resolve_root(RelationUse& use) {
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

}  // namespace memcarlo::footprint::detail
