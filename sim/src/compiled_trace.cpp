// Trace compilation: the phases that run coalescing and bulk sequences (compile_stream.cpp) in
// parallel over warp streams, counter slots, dense line ids and their set / DRAM mappings.
#include "memcarlo/sim/compiled_trace.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>
#include <nlohmann/json.hpp>

#include "compile_stream.hpp"
#include "ldesc/descriptors.hpp"
#include "memcarlo/footprint/block_order.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/sim/placement/placement.hpp"
#include "memcarlo/tsan_annotations.hpp"
#include "occupancy.hpp"
#include "parallel.hpp"

namespace memcarlo::sim {
namespace {

std::uint16_t kernel_index(std::vector<std::string>& names, const std::string& kernel) {
  const auto found = std::find(names.begin(), names.end(), kernel);
  if (found != names.end()) {
    return static_cast<std::uint16_t>(found - names.begin());
  }
  if (names.size() == std::numeric_limits<std::uint16_t>::max()) {
    throw std::invalid_argument("more than 65535 distinct kernels in the replayed launches");
  }
  names.push_back(kernel);
  return static_cast<std::uint16_t>(names.size() - 1);
}

constexpr std::uint32_t kNoStream = std::numeric_limits<std::uint32_t>::max();

/// Phase 0: the launches to compile, and which warp stream (if any) each of their warps has.
struct Plan {
  struct Stream {
    const tracebuf::WarpStream* stream;
    std::uint16_t kernel;  // index into CompiledTrace::kernel_names
    std::uint32_t launch;  // index into CompiledTrace::launches
  };
  std::vector<Stream> streams;  // in (launch, block, warp) order: the order of the transactions
  std::vector<std::uint32_t>
      warp_streams;  // per CompiledTrace::warps entry: streams index or kNoStream
  /// The error of the first launch the trace cannot run; the plan stops before that launch, and
  /// compile_trace throws it unless a stream of an earlier launch fails first (as a serial
  /// compile would).
  std::string error;
};

/// Fills out.launches (all but their transaction counts) and out.kernel_names.
Plan plan_launches(const tracebuf::TraceReader& reader, const HierarchyConfig& config,
                   const CompileOptions& options, CompiledTrace& out) {
  const auto descriptor_file = ldesc::file_descriptors(config);
  const std::string descriptor_file_name =
      descriptor_file
          ? nlohmann::json::parse(config.params.text(ldesc::kDescriptorsFile)).get<std::string>()
          : std::string();
  if (descriptor_file) {
    ldesc::check_scopes(reader, *descriptor_file, descriptor_file_name);
  }
  const auto& launches = reader.launches();
  std::vector<const tracebuf::LaunchStreams*> selected;
  if (options.launches.empty()) {
    for (const auto& launch : launches) {
      selected.push_back(&launch);
    }
  } else {
    for (const std::uint32_t index : options.launches) {
      selected.push_back(index < launches.size() ? &launches[index] : nullptr);
    }
  }
  Plan plan;
  out.launches.reserve(selected.size());
  for (std::size_t n = 0; n < selected.size(); ++n) {
    if (selected[n] == nullptr) {
      plan.error = "launch " + std::to_string(options.launches[n]) + " is not in the trace (" +
                   std::to_string(launches.size()) + " launches)";
      break;
    }
    const tracebuf::LaunchStreams& launch = *selected[n];
    LaunchTrace trace;
    trace.kernel = launch.info.kernel;
    try {
      trace.kernel_index = kernel_index(out.kernel_names, launch.info.kernel);
    } catch (const std::invalid_argument& error) {
      plan.error = error.what();
      break;
    }
    trace.index = launch.info.index;
    trace.sequence_in_program = launch.info.sequence_in_program;
    trace.warps_per_block = launch.info.warps_per_block();
    trace.grid = launch.info.grid;
    trace.block = launch.info.block;
    trace.arguments = footprint::recorded_arguments(reader, launch.info.index);
    if (const auto registered = footprint::registered_block_order(
            footprint::recorded_registrations(reader, launch.info.index))) {
      trace.tafe_registered_axes.assign(registered->fastest_first.begin(),
                                        registered->fastest_first.end());
    }
    try {
      trace.descriptors = ldesc::launch_descriptors(reader, launch.info.index, descriptor_file,
                                                    descriptor_file_name);
    } catch (const tracebuf::DescriptorError& error) {
      plan.error = error.what();
      break;
    }
    trace.occupancy = plan_occupancy(launch.info, config);
    trace.resident_blocks_per_sm = trace.occupancy.resident_blocks;
    if (trace.resident_blocks_per_sm == 0) {
      plan.error = "launch " + std::to_string(launch.info.index) + " (" + launch.info.kernel +
                   "): a block of " + std::to_string(launch.info.block.volume()) +
                   " threads does not fit on one SM of hierarchy " + config.name + ": " +
                   detail::exceeded_limits(launch.info, config.sm) +
                   detail::presets_that_fit(launch.info, config.name);
      break;
    }
    const auto launch_index = static_cast<std::uint32_t>(out.launches.size());
    std::size_t next_stream = 0;
    const auto& streams = launch.warps;
    trace.blocks.reserve(launch.info.snapshot_block_count);
    for (std::uint64_t b = 0; b < launch.info.snapshot_block_count; ++b) {
      const std::uint64_t block_id = launch.info.snapshot_first_block + b;
      trace.blocks.push_back(
          {block_id, static_cast<std::uint32_t>(plan.warp_streams.size()), trace.warps_per_block});
      for (std::uint32_t w = 0; w < trace.warps_per_block; ++w) {
        while (next_stream < streams.size() &&
               (streams[next_stream].block < block_id ||
                (streams[next_stream].block == block_id && streams[next_stream].warp < w))) {
          ++next_stream;  // streams outside the snapshot (check_invariants rejects those)
        }
        std::uint32_t stream = kNoStream;
        if (next_stream < streams.size() && streams[next_stream].block == block_id &&
            streams[next_stream].warp == w) {
          stream = static_cast<std::uint32_t>(plan.streams.size());
          plan.streams.push_back({&streams[next_stream], trace.kernel_index, launch_index});
          ++next_stream;
        }
        plan.warp_streams.push_back(stream);
      }
    }
    out.launches.push_back(std::move(trace));
  }
  out.kernel_names.shrink_to_fit();
  return plan;
}

/// Per-thread scratch of a parallel loop: a vector of arena_slots() entries indexed by
/// arena_slot() (parallel.hpp).
std::size_t arena_slots() {
  return detail::parallel_slots();
}
std::size_t arena_slot() {
  return detail::current_parallel_slot;
}

/// Calls f(i) for i in [0, count) in parallel, one warp stream each: streams are uneven, so TBB
/// splits the range down to single streams where it needs to.
template <class F>
void parallel_for_each_stream(std::size_t count, F f) {
  detail::parallel_for_index(count, 1, f);
}

/// Sums of a sequence's sizes: offsets[i] = the sizes of elements before i (n + 1 entries).
template <class Size>
std::vector<std::uint64_t> prefix_sums(std::size_t n, Size size) {
  std::vector<std::uint64_t> offsets(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    offsets[i + 1] = offsets[i] + size(i);
  }
  return offsets;
}

}  // namespace

void require_counter_slots_fit(std::uint64_t slots) {
  if (slots > Transaction::kMaxSlots) {
    throw std::invalid_argument(
        "more than " + std::to_string(Transaction::kMaxSlots) +
        " (2^30) counter slots ((kernel, static load, allocation) triples): a compiled "
        "transaction holds its slot in 30 bits");
  }
}

std::array<std::uint8_t, 256> l1_sectors_of_chunks(const HierarchyConfig& config) {
  const std::uint32_t chunks_per_sector = std::max(1u, config.l1.sector / config.l2.sector);
  std::array<std::uint8_t, 256> out{};
  for (std::uint32_t chunks = 0; chunks < out.size(); ++chunks) {
    std::uint32_t sectors = 0;
    for (std::uint32_t m = chunks; m != 0; m &= m - 1) {
      sectors |= 1u << (static_cast<std::uint32_t>(std::countr_zero(m)) / chunks_per_sector);
    }
    out[chunks] = static_cast<std::uint8_t>(sectors);
  }
  return out;
}

std::optional<std::uint32_t> CompiledTrace::find_line(std::uint64_t line_address) const {
  const auto found =
      std::partition_point(line_ids_by_address.begin(), line_ids_by_address.end(),
                           [&](std::uint32_t id) { return l1_line_address[id] < line_address; });
  if (found == line_ids_by_address.end() || l1_line_address[*found] != line_address) {
    return std::nullopt;
  }
  return *found;
}

std::uint64_t CompiledTrace::bytes() const {
  return transactions.capacity() * sizeof(Transaction) + bulks.capacity() * sizeof(Bulk) +
         warps.capacity() * sizeof(WarpTrace) + l1_line_address.capacity() * 8 +
         line_ids_by_address.capacity() * 4 + l1_set.capacity() * 4 + l2_set.capacity() * 4 +
         dram_location.capacity() * sizeof(DramLocation) + line_module.capacity() * 2 +
         line_page.capacity() * 4 + access_sites.capacity() * sizeof(AccessSite);
}

namespace {

void require_l1_sets_fit(const HierarchyConfig& config) {
  if (config.l1.enabled && config.l1.sets() > kMaxL1Sets) {
    throw std::invalid_argument(
        "hierarchy " + config.name + ": the L1 has " + std::to_string(config.l1.sets()) +
        " sets; a compiled trace supports at most " + std::to_string(kMaxL1Sets) +
        " (2^16) L1 sets (a transaction holds its L1 set in 16 bits)");
  }
}

/// The compiler of the streams that one thread compiles, and its sums of their loads. It owns the
/// slabs holding their transactions, which must live until phase 3 has copied them out.
struct StreamWorker {
  detail::StreamCompiler compiler;
  std::vector<LoadStatic> loads;
};

/// One worker per slot of the calling arena (each of its threads has its own index), made on
/// first use: plain memory that ThreadSanitizer follows, unlike enumerable_thread_specific's.
using StreamWorkers = std::vector<std::optional<StreamWorker>>;

/// Phase 1: each planned warp stream compiled on its own, in parallel, by the calling thread's
/// worker. Throws the error a serial compile meets first (a stream's, else the plan's); fills
/// out.loads.
std::vector<detail::CompiledStream> compile_streams(const Plan& plan,
                                                    const detail::AllocationIndex& allocations,
                                                    const detail::CoalescingGeometry& geometry,
                                                    bool with_sites, StreamWorkers& workers,
                                                    CompiledTrace& out) {
  const std::size_t stream_count = plan.streams.size();
  std::vector<detail::CompiledStream> streams(stream_count);
  parallel_for_each_stream(stream_count, [&](std::size_t i) {
    std::optional<StreamWorker>& slot = workers.at(arena_slot());
    if (!slot) {
      slot.emplace(
          StreamWorker{detail::StreamCompiler(out.load_info, allocations, geometry, with_sites),
                       std::vector<LoadStatic>(out.load_info.size())});
    }
    slot->compiler.compile(*plan.streams[i].stream, streams[i], slot->loads);
  });
  for (const detail::CompiledStream& stream : streams) {  // the error a serial compile meets first
    if (!stream.error.empty()) {
      throw std::invalid_argument(stream.error);
    }
  }
  if (!plan.error.empty()) {
    throw std::invalid_argument(plan.error);
  }
  out.loads.resize(out.load_info.size());
  for (const std::optional<StreamWorker>& slot : workers) {  // sums of integers: any order
    if (!slot) {
      continue;
    }
    const StreamWorker& worker = *slot;
    for (std::size_t id = 0; id < out.loads.size(); ++id) {
      out.loads[id].requests += worker.loads[id].requests;
      out.loads[id].transactions += worker.loads[id].transactions;
      out.loads[id].lane_accesses += worker.loads[id].lane_accesses;
    }
  }
  return streams;
}

/// Phase 2, counter slots: each stream's (static load, allocation) pairs, in stream order.
struct SlotNumbers {
  std::vector<std::uint64_t> offset;  // per stream: where its pairs start in `global`
  std::vector<std::uint32_t> global;  // per pair of each stream: its counter slot
};

/// Numbers the counter slots (out.slots). Key: kernel (16 bits) << 48 | static id (32) << 16 |
/// allocation (16).
SlotNumbers number_counter_slots(const Plan& plan,
                                 const std::vector<detail::CompiledStream>& streams,
                                 CompiledTrace& out) {
  const std::size_t stream_count = streams.size();
  std::vector<std::uint64_t> slot_offset =
      prefix_sums(stream_count, [&](std::size_t i) { return streams[i].slot_keys.size(); });
  std::vector<std::uint32_t> global_slot(slot_offset.back());
  {
    std::unordered_map<std::uint64_t, std::uint32_t> slot_ids;
    for (std::size_t i = 0; i < stream_count; ++i) {
      const std::uint16_t kernel = plan.streams[i].kernel;
      for (std::size_t k = 0; k < streams[i].slot_keys.size(); ++k) {
        const std::uint64_t pair = streams[i].slot_keys[k];
        const auto [it, inserted] = slot_ids.try_emplace(
            std::uint64_t{kernel} << 48 | pair, static_cast<std::uint32_t>(out.slots.size()));
        if (inserted) {
          require_counter_slots_fit(out.slots.size() + 1);
          out.slots.push_back({static_cast<std::uint32_t>(pair >> 16),
                               static_cast<std::uint16_t>(pair & 0xFFFF), kernel});
        }
        global_slot[slot_offset[i] + k] = it->second;
      }
    }
    out.slots.shrink_to_fit();
  }
  return {std::move(slot_offset), std::move(global_slot)};
}

/// The distinct lines of the trace in address order, grouped by 64 into words (line number / 64).
struct LineWords {
  std::vector<std::uint64_t> words;         // the distinct words, ascending
  std::vector<std::uint64_t> word_lines;    // per word: the set of its lines touched
  std::vector<std::uint64_t> lines_before;  // per word: the lines touched in the words before
  std::uint64_t line_count = 0;
};

/// The distinct words of every stream's lines, ascending.
std::vector<std::uint64_t> distinct_words(const std::vector<detail::CompiledStream>& streams) {
  const std::size_t stream_count = streams.size();
  const std::vector<std::uint64_t> word_offset =
      prefix_sums(stream_count, [&](std::size_t i) { return streams[i].words.size(); });
  std::vector<std::uint64_t> all(word_offset.back());
  parallel_for_each_stream(stream_count, [&](std::size_t i) {
    std::copy(streams[i].words.begin(), streams[i].words.end(),
              all.begin() + static_cast<std::ptrdiff_t>(word_offset[i]));
  });
#ifdef MEMCARLO_TSAN
  std::sort(all.begin(), all.end());  // TBB's sort moves elements where TSan cannot follow
#else
  tbb::parallel_sort(all.begin(), all.end());
#endif
  const auto last = std::unique(all.begin(), all.end());
  return std::vector<std::uint64_t>(all.begin(), last);  // sized exactly, `all` freed
}

/// Phase 2, the lines in address order: a line's rank is the lines touched in the words before
/// its own (a prefix sum) plus those below it in its own word (a popcount). Rewrites each
/// stream's words to their index in LineWords::words.
LineWords collect_line_words(std::vector<detail::CompiledStream>& streams) {
  const std::size_t stream_count = streams.size();
  LineWords result;
  result.words = distinct_words(streams);
  const std::vector<std::uint64_t>& words = result.words;
  std::vector<std::uint64_t>& word_lines = result.word_lines;
  word_lines.assign(words.size(), 0);
  parallel_for_each_stream(stream_count, [&](std::size_t i) {
    detail::CompiledStream& stream = streams[i];
    for (std::size_t k = 0; k < stream.words.size(); ++k) {
      const std::uint64_t word = static_cast<std::uint64_t>(
          std::lower_bound(words.begin(), words.end(), stream.words[k]) - words.begin());
      stream.words[k] = word;  // from here on: the index in `words`
      const std::uint64_t lines = stream.word_lines[k];
      std::atomic_ref<std::uint64_t> global(word_lines[word]);
      if ((global.load(std::memory_order_relaxed) & lines) != lines) {
        global.fetch_or(lines, std::memory_order_relaxed);  // OR: the same in any order
      }
    }
  });
  std::vector<std::uint64_t>& lines_before = result.lines_before;  // per word
  lines_before.assign(words.size() + 1, 0);
  for (std::size_t w = 0; w < words.size(); ++w) {
    lines_before[w + 1] =
        lines_before[w] + static_cast<std::uint64_t>(std::popcount(word_lines[w]));
  }
  result.line_count = lines_before.back();
  if (result.line_count > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("more than 2^32 - 1 distinct L1 lines in the replayed launches");
  }
  return result;
}

/// Phase 2, line ids in first-seen order (out.line_ids_by_address): where each line is first
/// seen is the least (stream, local id) of its sightings (a minimum, the same in any order). The
/// stream holding a line's first sighting gives it its id: streams number the lines they hold in
/// local order, after those of the streams before. Rewrites each stream's line_word_bits to the
/// line's rank in address order.
void assign_line_ids(std::vector<detail::CompiledStream>& streams, const LineWords& lines,
                     CompiledTrace& out) {
  const std::size_t stream_count = streams.size();
  const std::vector<std::uint64_t>& word_lines = lines.word_lines;
  const std::vector<std::uint64_t>& lines_before = lines.lines_before;
  std::vector<std::uint64_t> first_seen(lines.line_count,
                                        std::numeric_limits<std::uint64_t>::max());
  parallel_for_each_stream(stream_count, [&](std::size_t i) {
    detail::CompiledStream& stream = streams[i];
    for (std::size_t k = 0; k < stream.line_word_bits.size(); ++k) {
      const std::uint32_t word_bit = stream.line_word_bits[k];
      const std::uint64_t word = stream.words[word_bit >> 6];
      const std::uint64_t below = (std::uint64_t{1} << (word_bit & 63)) - 1;
      const auto rank = static_cast<std::uint32_t>(
          lines_before[word] + static_cast<std::uint64_t>(std::popcount(word_lines[word] & below)));
      stream.line_word_bits[k] = rank;  // from here on: the line's rank in address order
      const std::uint64_t sighting = std::uint64_t{i} << 32 | k;
      std::atomic_ref<std::uint64_t> first(first_seen[rank]);
      std::uint64_t current = first.load(std::memory_order_relaxed);
      while (sighting < current &&
             !first.compare_exchange_weak(current, sighting, std::memory_order_relaxed)) {
      }
    }
  });
  std::vector<std::uint64_t> held(stream_count);
  parallel_for_each_stream(stream_count, [&](std::size_t i) {
    for (std::size_t k = 0; k < streams[i].line_word_bits.size(); ++k) {
      held[i] += first_seen[streams[i].line_word_bits[k]] == (std::uint64_t{i} << 32 | k) ? 1 : 0;
    }
  });
  const std::vector<std::uint64_t> held_before =
      prefix_sums(stream_count, [&](std::size_t i) { return held[i]; });
  out.line_ids_by_address.resize(lines.line_count);
  parallel_for_each_stream(stream_count, [&](std::size_t i) {
    const detail::CompiledStream& stream = streams[i];
    auto id = static_cast<std::uint32_t>(held_before[i]);
    for (std::size_t k = 0; k < stream.line_word_bits.size(); ++k) {
      const std::uint32_t rank = stream.line_word_bits[k];
      if (first_seen[rank] == (std::uint64_t{i} << 32 | k)) {
        out.line_ids_by_address[rank] = id++;
      }
    }
  });
}

/// Phase 3: every stream's transactions, access sites and bulks rewritten to the global slots
/// and line ids at their offsets in out.transactions, out.access_sites and out.bulks; each
/// stream is emptied. Returns the bulk offset of each stream (stream count + 1 entries).
std::vector<std::uint64_t> write_transactions(const Plan& plan,
                                              std::vector<detail::CompiledStream>& streams,
                                              const SlotNumbers& slot_numbers, bool with_sites,
                                              CompiledTrace& out) {
  const std::size_t stream_count = streams.size();
  const std::vector<std::uint64_t>& slot_offset = slot_numbers.offset;
  const std::vector<std::uint32_t>& global_slot = slot_numbers.global;
  const std::vector<std::uint64_t> transaction_offset =
      prefix_sums(stream_count, [&](std::size_t i) { return streams[i].transactions.size(); });
  std::vector<std::uint64_t> bulk_offset =
      prefix_sums(stream_count, [&](std::size_t i) { return streams[i].bulks.size(); });
  if (transaction_offset.back() > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument(
        "more than 2^32 - 1 transactions in the replayed launches (Bulk::first_transaction "
        "has 32 bits); replay fewer launches (--launches)");
  }
  for (std::size_t i = 0; i < stream_count; ++i) {
    out.launches[plan.streams[i].launch].transactions += streams[i].transactions.size();
  }
  out.transactions.resize(transaction_offset.back());
  out.bulks.resize(bulk_offset.back());
  if (with_sites) {
    out.access_sites.resize(transaction_offset.back());
  }
  std::vector<std::vector<std::uint32_t>> line_maps(arena_slots());
  parallel_for_each_stream(stream_count, [&](std::size_t i) {
    detail::CompiledStream& stream = streams[i];
    const std::uint32_t* const slots = global_slot.data() + slot_offset[i];
    std::vector<std::uint32_t>& global_line = line_maps.at(arena_slot());
    global_line.resize(stream.line_word_bits.size());
    for (std::size_t k = 0; k < global_line.size(); ++k) {
      global_line[k] = out.line_ids_by_address[stream.line_word_bits[k]];
    }
    Transaction* to = out.transactions.data() + transaction_offset[i];
    for (const Transaction& t : stream.transactions) {
      *to++ = {global_line[t.line], Transaction::pack(slots[t.slot()], t.kind()), t.l1_set,
               t.l2_sectors, t.l1_full_sectors};
    }
    if (with_sites) {  // otherwise access_sites is empty: no offset into it is valid
      std::copy(stream.sites.begin(), stream.sites.end(),
                out.access_sites.begin() + static_cast<std::ptrdiff_t>(transaction_offset[i]));
    }
    if (stream.slab != nullptr) {
      stream.slab->release();
    }
    Bulk* bulk = out.bulks.data() + bulk_offset[i];
    for (Bulk b : stream.bulks) {
      b.first_transaction += static_cast<std::uint32_t>(transaction_offset[i]);
      *bulk++ = b;
    }
    stream = detail::CompiledStream{};
  });
  return bulk_offset;
}

/// Phase 3, out.warps: each warp's bulks, none for a warp without a stream.
void index_warp_bulks(const Plan& plan, const std::vector<std::uint64_t>& bulk_offset,
                      CompiledTrace& out) {
  out.warps.resize(plan.warp_streams.size());
  std::uint64_t bulks_before = 0;
  for (std::size_t w = 0; w < out.warps.size(); ++w) {
    const std::uint32_t stream = plan.warp_streams[w];
    const std::uint64_t count =
        stream == kNoStream ? 0 : bulk_offset[stream + 1] - bulk_offset[stream];
    out.warps[w] = {static_cast<std::uint32_t>(bulks_before), static_cast<std::uint32_t>(count)};
    bulks_before += count;
  }
}

/// Phase 4: the address, L1 set, L2 sets, DRAM location, module and page of every line, placed
/// by the hierarchy's placement or its allocation's own.
void place_lines(const tracebuf::TraceReader& reader, const HierarchyConfig& config,
                 const detail::AllocationIndex& allocations,
                 const detail::CoalescingGeometry& geometry, const LineWords& lines,
                 CompiledTrace& out) {
  const std::vector<std::uint64_t>& words = lines.words;
  const std::uint64_t line_count = lines.line_count;
  const std::uint32_t parts = out.l2_lines_per_l1_line;
  const std::unique_ptr<placement::Placement> placement = placement::make(config);
  // placement.allocations: the placement of each allocation that has its own (else null).
  const std::vector<std::unique_ptr<placement::Placement>> allocation_placements =
      placement::make_per_allocation(config, out.allocation_names);
  placement->prepare(reader);
  for (const std::unique_ptr<placement::Placement>& own : allocation_placements) {
    if (own)
      own->prepare(reader);
  }
  out.l1_line_address.resize(line_count);
  out.l1_set.resize(line_count);
  out.dram_location.resize(line_count);
  out.line_module.resize(line_count);
  out.line_page.resize(line_count);
  out.l2_set.resize(line_count * parts);
  detail::parallel_for_index(words.size(), 1, [&](std::size_t w) {
    std::uint64_t rank = lines.lines_before[w];
    for (std::uint64_t bits = lines.word_lines[w]; bits != 0; bits &= bits - 1, ++rank) {
      const std::size_t id = out.line_ids_by_address[rank];
      const std::uint64_t number =
          words[w] * 64 + static_cast<std::uint64_t>(std::countr_zero(bits));
      const std::uint64_t address = number * config.l1.line;
      out.l1_line_address[id] = address;
      out.l1_set[id] = static_cast<std::uint32_t>(geometry.l1_sets.remainder(number));
      const placement::Placement* line_placement = placement.get();
      if (!allocation_placements.empty()) {
        const std::uint16_t allocation = allocations.find(address);
        if (allocation != kNoAllocation && allocation_placements[allocation]) {
          line_placement = allocation_placements[allocation].get();
        }
      }
      const placement::LineHome home =
          line_placement->place(ByteAddress{address}, {out.l2_set.data() + id * parts, parts});
      out.dram_location[id] = home.dram;
      out.line_module[id] = home.module;
      out.line_page[id] = home.page;
    }
  });
}

}  // namespace

// The compile runs in phases so that the work per record, per transaction and per line runs in
// parallel while the result stays bit-identical whatever the thread count:
//   0. (serial, per launch) occupancy, kernel names, blocks, and the warp stream of each warp;
//   1. (parallel, per warp stream) coalescing and bulks, with ids local to the stream: its lines
//      and its (static load, allocation) pairs, each in first-seen order;
//   2. (serial over the streams' distinct pairs) counter slots, numbered in first-seen order over
//      (launch, block, warp, record) as a serial compile numbers them: the slot order is the
//      order trials add floating-point counters in. (parallel) line ids, in first-seen order
//      too, from each line's rank in address order (counted over a sorted set of 64-line words
//      with the lines touched in each) and its first sighting (a minimum over the streams);
//   3. (parallel, per warp stream) the stream's transactions and bulks rewritten to the global
//      ids into arrays sized exactly, at offsets given by prefix sums over the streams;
//   4. (parallel, per line) the L1 set, the L2 sets and the DRAM location of every line.
// A stream the compile refuses (say, a static id outside the loads table) is reported after
// phase 1, the first in (launch, block, warp) order, which is the error a serial compile meets.
bool needs_access_sites(const HierarchyConfig& config) {
  return config.prefetch.policy != "none";
}

CompiledTrace compile_trace(const tracebuf::TraceReader& reader, const HierarchyConfig& config,
                            const CompileOptions& options) {
  require_l1_sets_fit(config);
  CompiledTrace out;
  out.load_info = reader.loads();
  out.l2_lines_per_l1_line = config.l1.line / config.l2.line;
  out.l2_sectors_per_l2_line = config.l2.line / config.l2.sector;
  const detail::AllocationIndex allocations(reader.allocations(), out.allocation_names);
  out.allocation_names.shrink_to_fit();
  const detail::CoalescingGeometry geometry{
      detail::Divisor(config.l1.line), detail::Divisor(config.l1.sector),
      detail::Divisor(config.l2.sector),
      detail::Divisor(config.l1.enabled ? config.l1.sets() : 1u)};

  const Plan plan = plan_launches(reader, config, options, out);  // phase 0
  const bool with_sites = needs_access_sites(config);
  StreamWorkers workers(arena_slots());  // until phase 3 has copied out their slabs
  std::vector<detail::CompiledStream> streams =
      compile_streams(plan, allocations, geometry, with_sites, workers, out);  // phase 1

  // Phase 2: counter slots, then line ids, in first-seen order over (launch, block, warp,
  // record), as a serial compile gives them: lines a warp touches together get neighbouring ids,
  // which keeps the replay's per-line state of a strided access in a few cache lines (in address
  // order, a column walk over a matrix touches a cache line per row, and ATAX replays 15 %
  // slower).
  const SlotNumbers slots = number_counter_slots(plan, streams, out);
  const LineWords lines = collect_line_words(streams);
  assign_line_ids(streams, lines, out);

  // Phase 3.
  const std::vector<std::uint64_t> bulk_offset =
      write_transactions(plan, streams, slots, with_sites, out);
  index_warp_bulks(plan, bulk_offset, out);

  place_lines(reader, config, allocations, geometry, lines, out);  // phase 4
  return out;
}

}  // namespace memcarlo::sim
