// The proposer behind `memcarlo descriptors` (descriptor_proposer.hpp).
//
// How a proposal is made, per array the kernel reads or writes (docs/locality-descriptors.md):
//  - the accesses' index forms are folded for the launch (locality::compile_load: the launch shape
//    and the recorded kernel arguments); a read that is not affine (data-dependent, non-affine,
//    a loop whose range grows or shrinks with the block) leaves its array without a descriptor,
//    and a note on standard error says why;
//  - blockIdx.d's coefficient s_d (elements), with the starts of the loops folded in (a
//    grid-stride loop, or a tile loop, moves what it indexes with the block), says how far a
//    block's part moves along grid dimension d; the blocks that differ only along dimensions with
//    s_d = 0 read the same part: the C-Tile is the whole grid along those, one CTA along the
//    others;
//  - the part one block reads (TAFE's estimate, footprint::launch_footprint, moved back by the
//    block's shift and joined over the traced blocks) gives the layout: one run is a 1-D array cut
//    into D-Tiles of s_x elements (the dimensions that move chained: s_{d2} = s_{d1} x grid_{d1});
//    runs at a pitch P are a 2-D array of rows of P elements, D-Tiles s_{d1} wide and
//    s_{d2} / P rows high (all rows without a second dimension: histo's (X_tile, Y_len, 1));
//  - a part that reaches outside the block's own D-Tile (a stencil's halo) is NEARBY sharing,
//    else COACCESSED; an array no two blocks share is NO-REUSE unless its innermost loop comes
//    back to its lines (a step under a line): then INTRA-THREAD when neighbouring threads are a
//    line or more apart, else INTER-THREAD; priority by the L2 requests of the descriptor's
//    accesses in one trial of the launch (most first; ties: the traced threads' accesses, then the
//    CTAs that share a D-Tile); stride: the pitch, or the innermost loop's step in elements.
#include "descriptor_proposer.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "descriptor_ranking.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/locality/graph.hpp"
#include "memcarlo/locality/index_forms.hpp"
#include "memcarlo/locality/static_graph.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::cli {
namespace {

using tracebuf::Dim3;
using tracebuf::LocalityDescriptor;

std::uint32_t& at(Dim3& d, int k) {
  return k == 0 ? d.x : k == 1 ? d.y : d.z;
}
std::uint32_t at(const Dim3& d, int k) {
  return k == 0 ? d.x : k == 1 ? d.y : d.z;
}

/// The accesses of one array, and what the proposal learns of them.
struct ArrayReads {
  std::string allocation;
  std::uint64_t root_base = 0;
  std::vector<locality::EvaluableLoad> loads;
  std::string why_not;  // set: no descriptor, and this is why
};

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/// The most frequent difference between consecutive run starts (the smallest on a tie); 0 for
/// fewer than two runs.
std::int64_t pitch_of(const std::vector<locality::KeyInterval>& runs) {
  std::map<std::int64_t, std::uint64_t> count;
  for (std::size_t i = 1; i < runs.size(); ++i) {
    ++count[runs[i].begin - runs[i - 1].begin];
  }
  std::int64_t best = 0;
  std::uint64_t most = 0;
  for (const auto& [difference, n] : count) {
    if (n > most) {
      best = difference;
      most = n;
    }
  }
  return best;
}

/// The L1 line the proposer reasons about: 128 bytes on every preset (l1.line).
constexpr std::int64_t kLineBytes = 128;

/// The locality type of an array whose part no other block reads (§3.3.2). When every access
/// of it comes back to its lines on the next iteration of its innermost loop (a step under a
/// line), there is reuse: by the thread itself, INTRA-THREAD ("the reuse of data is by the same
/// thread itself"), when neighbouring threads (threadIdx.x) are a line or more apart (atax's and
/// bicg's rows), else by the warp's threads that share the lines, INTER-THREAD (gemm's C[i][j]
/// inside the k loop). Otherwise NO-REUSE (a block's own output, written once).
tracebuf::LocalityType unshared_type(const ArrayReads& reads) {
  bool own_lines = true;
  for (const locality::EvaluableLoad& load : reads.loads) {
    if (load.loops.empty()) {
      return tracebuf::LocalityType::kNoReuse;
    }
    const std::size_t inner = locality::kFirstInductionSlot + load.loops.size() - 1;
    std::int64_t loop_step = 0;
    std::int64_t lane_step = 0;
    for (const auto& [slot, coefficient] : load.offset.terms) {
      if (slot == inner) {
        loop_step += coefficient * load.loops.back().step;
      } else if (slot == 0) {
        lane_step += coefficient;
      }
    }
    const auto e = static_cast<std::int64_t>(load.element_size);
    if (std::abs(loop_step) * e >= kLineBytes) {
      return tracebuf::LocalityType::kNoReuse;
    }
    own_lines = own_lines && std::abs(lane_step) * e >= kLineBytes;
  }
  return own_lines ? tracebuf::LocalityType::kIntraThread : tracebuf::LocalityType::kInterThread;
}

using Shift = std::array<std::int64_t, 3>;

/// How far `form` moves per block along each grid dimension (elements): its blockIdx.d
/// coefficients, with each loop variable's start folded in (`slots`: per slot, the same for the
/// value the slot holds). A grid-stride loop `for (v = blockIdx.x; ...; v += gridDim.x)` moves
/// what it indexes with the block, as does a loop inside it that starts from v.
Shift moved_by(const locality::LinearForm& form, const std::vector<Shift>& slots) {
  Shift shift{0, 0, 0};
  for (const auto& [slot, coefficient] : form.terms) {
    for (std::size_t k = 0; k < 3; ++k)
      shift[k] += coefficient * slots[slot][k];
  }
  return shift;
}

/// Per slot of `load`'s forms (thread, block, then its loops, outermost first): how far the value
/// it holds moves per block, a loop variable by its start.
std::vector<Shift> slot_shifts(const locality::EvaluableLoad& load) {
  std::vector<Shift> slots(locality::kFirstInductionSlot + load.loops.size(), Shift{0, 0, 0});
  for (std::size_t k = 0; k < 3; ++k)
    slots[3 + k][k] = 1;
  for (std::size_t i = 0; i < load.loops.size(); ++i)
    slots[locality::kFirstInductionSlot + i] = moved_by(load.loops[i].init, slots);
  return slots;
}

/// How many elements a block's part moves per block along each grid dimension.
Shift block_shift(const locality::EvaluableLoad& load) {
  return moved_by(load.offset, slot_shifts(load));
}

/// Why the parts of `load` are not one part moved from block to block ("" when they are): each
/// loop whose range depends on the block must move whole with it (its start and its bound by the
/// same amount) or be a grid-stride loop (its bound fixed, its start moved by less than one step
/// over the whole grid, so that blocks differ by at most the last iteration).
std::string loops_against_blocks(const locality::EvaluableLoad& load, const Dim3& grid) {
  const std::vector<Shift> slots = slot_shifts(load);
  for (std::size_t i = 0; i < load.loops.size(); ++i) {
    const locality::InductionLoop& loop = load.loops[i];
    const Shift start = slots[locality::kFirstInductionSlot + i];
    const Shift bound = moved_by(loop.bound, slots);
    if (start == bound) {
      continue;
    }
    std::int64_t spread = 0;  // how far the start moves from the first block to the last
    bool forward = true;
    for (int k = 0; k < 3; ++k) {
      forward = forward && start[static_cast<std::size_t>(k)] >= 0;
      spread += start[static_cast<std::size_t>(k)] * (static_cast<std::int64_t>(at(grid, k)) - 1);
    }
    if (bound == Shift{0, 0, 0} && forward && spread < std::abs(loop.step)) {
      continue;
    }
    return "its loop `" + loop.variable + "`'s range grows or shrinks with the block";
  }
  return "";
}

/// The accesses of `reads` in groups that move alike with the block, in the order of each group's
/// first access. One data structure may have several Locality Descriptors (§3.3.2): syrk's
/// A[i][k] * A[j][k] reads a row band that blockIdx.y moves and one that blockIdx.x moves, each
/// shared by its own C-Tiles.
std::vector<ArrayReads> split_by_shift(const ArrayReads& reads) {
  std::vector<ArrayReads> parts;
  std::vector<Shift> shifts;
  for (const locality::EvaluableLoad& load : reads.loads) {
    const Shift shift = block_shift(load);
    const auto found = std::find(shifts.begin(), shifts.end(), shift);
    if (found == shifts.end()) {
      shifts.push_back(shift);
      parts.push_back({reads.allocation, reads.root_base, {load}, ""});
    } else {
      parts[static_cast<std::size_t>(found - shifts.begin())].loads.push_back(load);
    }
  }
  return parts;
}

/// "loads 3 and 5 (moved by blockIdx.y)": a group of split_by_shift, for a note.
std::string describe_part(const ArrayReads& part) {
  std::string text = part.loads.size() == 1 ? "load " : "loads ";
  for (std::size_t i = 0; i < part.loads.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == part.loads.size() ? " and " : ", ") +
            std::to_string(part.loads[i].id);
  }
  const std::array<std::int64_t, 3> shift = block_shift(part.loads.front());
  std::string moving;
  for (int k = 0; k < 3; ++k) {
    if (shift[k] != 0)
      moving += std::string(moving.empty() ? "" : " and ") + "blockIdx." +
                static_cast<char>('x' + k);
  }
  return text + " (" + (moving.empty() ? "the same part for every block" : "moved by " + moving) +
         ")";
}

/// The proposal for one array, or the reason there is none.
struct Proposal {
  std::optional<LocalityDescriptor> descriptor;
  std::string why_not;
};

Proposal propose(const std::string& name, const ArrayReads& reads,
                 const tracebuf::Allocation& allocation, const footprint::LaunchFootprint& fp,
                 const Dim3& grid) {
  const auto fail = [](std::string why) { return Proposal{std::nullopt, std::move(why)}; };
  const locality::EvaluableLoad& first = reads.loads.front();
  const std::int64_t e = first.element_size;
  // blockIdx.d's coefficient, the same for every access of the part (split_by_shift).
  const std::array<std::int64_t, 3> shift = block_shift(first);
  for (const locality::EvaluableLoad& load : reads.loads) {
    if (load.element_size != e) {
      return fail("its accesses have different element sizes");
    }
  }
  // The dimensions that move the part, by increasing step.
  std::vector<int> moving;
  for (int k = 0; k < 3; ++k) {
    if (shift[k] != 0 && at(grid, k) > 1) {
      if (shift[k] < 0)
        return fail("blockIdx moves its part backwards (a negative coefficient)");
      moving.push_back(k);
    }
  }
  std::sort(moving.begin(), moving.end(), [&](int a, int b) { return shift[a] < shift[b]; });
  if (moving.size() > 2) {
    return fail("all three grid dimensions move its part: 3-D tilings are not proposed");
  }
  const std::uint64_t available = (allocation.base + allocation.size - reads.root_base) /
                                  static_cast<std::uint64_t>(e);  // elements from the root
  LocalityDescriptor d;
  d.name = name;
  d.address = reads.root_base;
  d.element_size = static_cast<std::uint32_t>(e);
  d.pattern = tracebuf::AccessPattern::kRegular;
  d.compute_data_map = {0, 0, 0};
  d.compute_tile = grid;
  for (std::size_t r = 0; r < moving.size(); ++r) {
    at(d.compute_tile, moving[r]) = 1;
    at(d.compute_data_map, moving[r]) = static_cast<std::uint32_t>(r + 1);
  }
  // The innermost loop's step in elements: the stride of a 1-D part.
  std::int64_t loop_stride = 1;
  if (!first.loops.empty()) {
    const std::size_t inner = locality::kFirstInductionSlot + first.loops.size() - 1;
    for (const auto& [slot, coefficient] : first.offset.terms) {
      if (slot == inner && coefficient != 0)
        loop_stride = std::abs(coefficient * first.loops.back().step);
    }
  }
  if (moving.empty()) {  // every block reads the same part: one C-Tile, one D-Tile
    d.size = available * static_cast<std::uint64_t>(e);
    d.shape = {static_cast<std::uint32_t>(available), 1, 1};
    d.data_tile = d.shape;
    d.compute_data_map = {1, 2, 3};
    d.type = grid.volume() > 1 ? tracebuf::LocalityType::kInterThread : unshared_type(reads);
    d.sharing = tracebuf::SharingType::kCoaccessed;
    d.stride = loop_stride;
    return {d, ""};
  }
  // The part one block reads, relative to its shift, joined over the traced blocks (edge blocks
  // lose what falls outside the allocation; the others restore it).
  std::vector<locality::KeyInterval> relative;
  const auto base = static_cast<std::int64_t>(reads.root_base);
  const auto limit = static_cast<std::int64_t>(allocation.base + allocation.size);
  for (std::size_t b = 0; b < fp.blocks.size(); ++b) {
    const footprint::BlockFootprint& block = fp.blocks[b];
    const locality::BlockCoordinates c = locality::coordinates_of(block.block_id, grid);
    const std::int64_t by = (shift[0] * c.x + shift[1] * c.y + shift[2] * c.z) * e;
    // The block's estimate holds every array: keep what lies between the least and the greatest
    // index this array's accesses give the block (another array's halo may spill past its end).
    std::int64_t low = limit;
    std::int64_t high = base;
    for (const footprint::ExtentTable& table : fp.index_ranges) {
      const bool mine = std::any_of(reads.loads.begin(), reads.loads.end(),
                                    [&](const auto& l) { return l.id == table.primary_load; });
      if (!mine || b >= table.per_block.size() || !table.per_block[b].valid)
        continue;
      const footprint::Extent& extent = table.per_block[b];
      const auto use = std::find_if(fp.relations.begin(), fp.relations.end(), [&](const auto& u) {
        return u.relation.load == table.primary_load;
      });
      const std::int64_t unit = use != fp.relations.end() && use->relation.offset_in_bytes ? 1 : e;
      low = std::min(low, base + extent.min * unit);
      high = std::max(high, base + extent.max * unit + e);
    }
    for (const footprint::ByteRange& range : block.estimated) {
      const std::int64_t begin = std::max({static_cast<std::int64_t>(range.begin), base, low});
      const std::int64_t end = std::min({static_cast<std::int64_t>(range.end), limit, high});
      if (begin < end) {
        // In elements; a partly read element counts whole.
        relative.push_back({floor_div(begin - base - by, e), -floor_div(by + base - end, e)});
      }
    }
  }
  locality::merge_intervals(relative);
  if (relative.empty()) {
    return fail("the traced blocks read none of it");
  }
  const std::int64_t step_x = shift[moving[0]];
  const std::int64_t pitch = relative.size() > 1 ? pitch_of(relative) : 0;
  bool own_part = true;  // the block reads only its own D-Tile
  if (pitch == 0 || pitch <= step_x) {
    // 1-D: D-Tiles of step_x elements, the moving dimensions chained.
    if (moving.size() == 2 && shift[moving[1]] != step_x * at(grid, moving[0])) {
      return fail("blockIdx." + std::string(1, static_cast<char>('x' + moving[1])) +
                  " moves its part " + std::to_string(shift[moving[1]]) +
                  " elements, not past the other dimension's " +
                  std::to_string(at(grid, moving[0])) + " tiles of " + std::to_string(step_x) +
                  ": the parts are not the contiguous tiles of a 1-D array");
    }
    std::uint64_t tiles = 1;
    for (const int k : moving)
      tiles *= at(grid, k);
    std::uint64_t elements = tiles * static_cast<std::uint64_t>(step_x);
    if (elements > available) {
      // A grid rounded up over the array: the last tile holds what is left (pathfinder's 76
      // tiles of 216 over 16384 columns), but it must hold something.
      if (elements - static_cast<std::uint64_t>(step_x) >= available) {
        return fail("the grid's " + std::to_string(tiles) + " tiles of " +
                    std::to_string(step_x) + " elements reach past its allocation");
      }
      elements = available;
    }
    d.size = elements * static_cast<std::uint64_t>(e);
    d.shape = {static_cast<std::uint32_t>(elements), 1, 1};
    d.data_tile = {static_cast<std::uint32_t>(step_x), 1, 1};
    own_part = relative.front().begin >= 0 && relative.back().end <= step_x;
    d.stride = loop_stride;
  } else {
    // 2-D: rows of `pitch` elements; D-Tiles step_x wide.
    // As many tiles as blocks along the row, the last one holding what is left (hotspot's 22
    // tiles of 12 over rows of 256).
    const auto blocks_x = static_cast<std::int64_t>(at(grid, moving[0]));
    if ((pitch + step_x - 1) / step_x != blocks_x) {
      return fail("its rows hold " + std::to_string(pitch) + " elements but the grid's " +
                  std::to_string(at(grid, moving[0])) + " blocks along " +
                  std::string(1, static_cast<char>('x' + moving[0])) + " step " +
                  std::to_string(step_x) + ": the parts do not tile the rows");
    }
    const std::uint64_t rows_available = available / static_cast<std::uint64_t>(pitch);
    std::uint64_t tile_rows = rows_available;
    std::uint64_t rows = rows_available;
    if (moving.size() == 2) {
      const std::int64_t step_y = shift[moving[1]];
      if (step_y % pitch != 0) {
        return fail("blockIdx." + std::string(1, static_cast<char>('x' + moving[1])) +
                    " moves its part " + std::to_string(step_y) + " elements, not whole rows of " +
                    std::to_string(pitch));
      }
      tile_rows = static_cast<std::uint64_t>(step_y / pitch);
      rows = tile_rows * at(grid, moving[1]);
      if (rows > rows_available) {
        // The last row of tiles holds the rows that are left, if any.
        if (rows - tile_rows >= rows_available) {
          return fail("the grid's tiles of " + std::to_string(tile_rows) +
                      " rows reach past its allocation");
        }
        rows = rows_available;
      }
    }
    if (rows == 0 || tile_rows == 0) {
      return fail("it holds less than one row of " + std::to_string(pitch) + " elements");
    }
    d.size = rows * static_cast<std::uint64_t>(pitch * e);
    d.shape = {static_cast<std::uint32_t>(pitch), static_cast<std::uint32_t>(rows), 1};
    d.data_tile = {static_cast<std::uint32_t>(step_x), static_cast<std::uint32_t>(tile_rows), 1};
    for (const locality::KeyInterval& run : relative) {
      const std::int64_t row = run.begin >= 0 ? run.begin / pitch : -1;
      const std::int64_t column = run.begin - row * pitch;
      own_part = own_part && row >= 0 && row < static_cast<std::int64_t>(tile_rows) &&
                 column + (run.end - run.begin) <= step_x;
    }
    d.stride = pitch;
  }
  const bool shared = d.compute_tile.volume() > 1;
  d.sharing = own_part ? tracebuf::SharingType::kCoaccessed : tracebuf::SharingType::kNearby;
  // No other block reads the part: reuse within the block or none (unshared_type).
  d.type = shared || !own_part ? tracebuf::LocalityType::kInterThread : unshared_type(reads);
  return {d, ""};
}

}  // namespace

/// The descriptors proposed for launch `launch` (its kernel and shape), in priority order; what
/// cannot be proposed goes to `notes`, each prefixed with `prefix`.
std::vector<LocalityDescriptor> propose_for_launch(const tracebuf::TraceReader& reader,
                                                   std::uint32_t launch,
                                                   const std::map<std::string, std::int64_t>& given,
                                                   const sim::HierarchyConfig& hierarchy,
                                                   const std::string& prefix,
                                                   std::vector<std::string>& notes) {
  const tracebuf::LaunchInfo& info = reader.launches()[launch].info;
  footprint::LaunchFootprint fp;
  try {
    footprint::EstimateOptions estimate;
    estimate.given_arguments = given;
    fp = footprint::launch_footprint(reader, launch, estimate);
  } catch (const footprint::MissingInformation& e) {
    throw UserError(e.what(), 2);  // names the trace
  }
  locality::LaunchValues values{info.grid, info.block, fp.arguments};
  for (const auto& [name, value] : given) {
    values.values[name] = value;
  }
  // The accesses of the kernel, by array (allocation), in the order of their first access.
  std::vector<std::string> order;
  std::map<std::string, ArrayReads> arrays;
  const auto note = [&](const std::string& text) { notes.push_back(prefix + text); };
  // Every access of the kernel, reads and writes (a written array is placed too), in id order:
  // those the loads table names the kernel for, and those the launch's records make (a template
  // instance, `MatrixMulCUDA<32>`, is launched under a name the table's `MatrixMulCUDA` is not).
  const AccessWeights weights = weigh_accesses(reader, launch, hierarchy);
  std::vector<const tracebuf::LoadInfo*> accesses;
  for (const tracebuf::LoadInfo& entry : reader.loads()) {
    if (!entry.redundant_of &&
        (weights.threads.contains(entry.id) ||
         std::find(entry.kernels.begin(), entry.kernels.end(), info.kernel) != entry.kernels.end()))
      accesses.push_back(&entry);
  }
  std::sort(accesses.begin(), accesses.end(),
            [](const auto* a, const auto* b) { return a->id < b->id; });
  for (const tracebuf::LoadInfo* access : accesses) {
    const auto use = std::find_if(
        fp.relations.begin(), fp.relations.end(),
        [&](const footprint::RelationUse& u) { return u.relation.load == access->id; });
    const std::string what = "load " + std::to_string(access->id) + " `" + access->expression + "`";
    if (use == fp.relations.end() || use->allocation.empty()) {
      note(what + ": no descriptor: its array is in no allocation of the trace");
      continue;
    }
    // By allocation, not by name: allocations made in one helper share its variable's name.
    const auto holder = std::find_if(
        reader.allocations().begin(), reader.allocations().end(),
        [&](const tracebuf::Allocation& a) {
          return a.name == use->allocation && a.base <= use->root_base &&
                 use->root_base - a.base < a.size;
        });
    const std::string key = use->allocation + "@" +
                            std::to_string(holder != reader.allocations().end() ? holder->base
                                                                                 : use->root_base);
    if (!arrays.contains(key)) {
      order.push_back(key);
      arrays[key] = {use->allocation, use->root_base, {}, ""};
    }
    ArrayReads& array = arrays[key];
    if (!array.why_not.empty()) {
      continue;
    }
    if (use->root_base != array.root_base) {
      array.why_not = what + " starts from another element 0 of the array";
      continue;
    }
    const locality::CompiledLoad compiled = locality::compile_load(*access, values);
    if (!compiled.load) {
      // The locality command's wording ends with what it can still do; here that is nothing.
      std::string reason = compiled.not_covered;
      const std::string suffix = ": measured graph only";
      if (reason.ends_with(suffix))
        reason.resize(reason.size() - suffix.size());
      array.why_not = what + ": " + reason;
      continue;
    }
    if (const std::string why = loops_against_blocks(*compiled.load, info.grid); !why.empty()) {
      array.why_not = what + ": " + why;
      continue;
    }
    array.loads.push_back(*compiled.load);
  }
  std::vector<LocalityDescriptor> proposed;
  std::vector<std::vector<std::uint32_t>> loads_of;  // per proposed descriptor, its accesses
  if (!weights.unranked_why.empty()) {
    note("priorities by the threads' accesses alone: the launch does not run on the hierarchy "
         "that ranks them by L2 requests (" + weights.unranked_why +
         "; --hierarchy names another)");
  }
  for (const std::string& key : order) {
    const ArrayReads& array = arrays[key];
    const std::string& name = array.allocation;
    if (!array.why_not.empty()) {
      note(name + ": no descriptor: " + array.why_not);
      continue;
    }
    const auto allocation = std::find_if(
        reader.allocations().begin(), reader.allocations().end(),
        [&](const tracebuf::Allocation& a) {
          return a.name == name && a.base <= array.root_base && array.root_base - a.base < a.size;
        });
    if (allocation == reader.allocations().end()) {
      note(name + ": no descriptor: its element 0 is in no allocation of that name");
      continue;
    }
    const std::vector<ArrayReads> parts = split_by_shift(array);
    for (const ArrayReads& part : parts) {
      // With several parts each note says which accesses it is about.
      const std::string who = parts.size() == 1 ? name : name + " " + describe_part(part);
      Proposal proposal = propose(name, part, *allocation, fp, info.grid);
      if (!proposal.descriptor) {
        note(who + ": no descriptor: " + proposal.why_not);
        continue;
      }
      try {  // never print one that --descriptors would refuse
        tracebuf::check_descriptors({*proposal.descriptor}, info.grid, reader.allocations());
      } catch (const tracebuf::DescriptorError& e) {
        note(who + ": no descriptor: the proposal fails its own check (" + e.what() + ")");
        continue;
      }
      if (parts.size() > 1) {
        note(who + ": one of " + std::to_string(parts.size()) +
             " descriptors of the array, one per way its accesses move with the block");
      }
      proposed.push_back(*proposal.descriptor);
      loads_of.emplace_back();
      for (const locality::EvaluableLoad& load : part.loads)
        loads_of.back().push_back(load.id);
    }
  }
  // Priority: the key data structure first (the paper's §3.3.5; its histo example's is "the
  // predominantly accessed data structure"), by what its accesses ask of the memory system the
  // descriptors steer (descriptor_ranking.hpp).
  rank_descriptors(proposed, loads_of, weights);
  return proposed;
}

}  // namespace memcarlo::cli
