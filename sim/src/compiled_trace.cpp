// Trace compilation: coalescing (paper §3.2.2: a warp instruction becomes one transaction per
// distinct L1 line), bulk sequences (paper §2), dense line ids and their set / DRAM mappings.
#include "memcarlo/sim/compiled_trace.hpp"

#include "memcarlo/sim/placement/placement.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace memcarlo::sim {
namespace {

/// What one block of a launch takes from an SM.
struct BlockNeeds {
  std::uint64_t threads;  // whole warps
  std::uint64_t warps;
  std::uint64_t registers_per_thread;
  std::uint64_t registers;
  std::uint64_t shared;  // bytes allocated: static + dynamic + reserved, rounded up
};

BlockNeeds block_needs(const tracebuf::LaunchInfo& launch, const SmConfig& sm) {
  BlockNeeds needs{};
  needs.warps = launch.warps_per_block();
  needs.threads = needs.warps * 32;
  needs.registers_per_thread = launch.registers_per_thread != 0 ? launch.registers_per_thread
                                                                 : sm.default_registers_per_thread;
  needs.registers = needs.registers_per_thread * needs.threads;
  const std::uint64_t used =
      launch.dynamic_shared_bytes + launch.static_shared_bytes + sm.reserved_shared_per_block;
  needs.shared = (used + sm.shared_granularity - 1) / sm.shared_granularity * sm.shared_granularity;
  return needs;
}

/// The smallest carveout of `l1` that holds `bytes`, or none.
std::optional<std::uint64_t> carveout_holding(const CacheConfig& l1, std::uint64_t bytes) {
  for (const std::uint64_t carveout : l1.carveouts) {
    if (carveout >= bytes) {
      return carveout;
    }
  }
  return std::nullopt;
}

/// The SM limits one block of `launch` exceeds, with the numbers (for the error that no block
/// fits).
std::string exceeded_limits(const tracebuf::LaunchInfo& launch, const SmConfig& sm) {
  const BlockNeeds needs = block_needs(launch, sm);
  std::string out;
  const auto add = [&out](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
  if (needs.threads > sm.max_threads) {
    add(std::to_string(needs.threads) + " threads > sm.max_threads " +
        std::to_string(sm.max_threads));
  }
  if (needs.warps > sm.max_warps) {
    add(std::to_string(needs.warps) + " warps > sm.max_warps " + std::to_string(sm.max_warps));
  }
  if (needs.registers > sm.registers) {
    add(std::to_string(needs.registers) + " registers (" +
        std::to_string(needs.registers_per_thread) + " per thread" +
        (launch.registers_per_thread == 0 ? ", sm.default_registers_per_thread" : "") +
        ") > sm.registers " + std::to_string(sm.registers));
  }
  if (needs.shared > sm.shared_memory) {
    add(std::to_string(needs.shared) + " bytes of shared memory (static " +
        std::to_string(launch.static_shared_bytes) + " + dynamic " +
        std::to_string(launch.dynamic_shared_bytes) + " + sm.reserved_shared_per_block " +
        std::to_string(sm.reserved_shared_per_block) + ", in multiples of sm.shared_granularity " +
        std::to_string(sm.shared_granularity) + ") > sm.shared_memory " +
        std::to_string(sm.shared_memory));
  }
  return out;
}

struct AllocationIndex {
  struct Range {
    std::uint64_t base, size;
    std::uint16_t index;
  };
  std::vector<Range> ranges;  // sorted by base

  explicit AllocationIndex(const std::vector<tracebuf::Allocation>& allocations,
                           std::vector<std::string>& names) {
    for (const auto& a : allocations) {
      if (names.size() >= kNoAllocation) {
        break;
      }
      ranges.push_back({a.base, a.size, static_cast<std::uint16_t>(names.size())});
      names.push_back(a.name.empty() ? "allocation " + std::to_string(a.id) : a.name);
    }
    std::sort(ranges.begin(), ranges.end(),
              [](const Range& x, const Range& y) { return x.base < y.base; });
  }

  [[nodiscard]] std::uint16_t find(std::uint64_t address) const {
    auto it = std::upper_bound(ranges.begin(), ranges.end(), address,
                               [](std::uint64_t a, const Range& r) { return a < r.base; });
    if (it == ranges.begin()) {
      return kNoAllocation;
    }
    --it;
    return address - it->base < it->size ? it->index : kNoAllocation;
  }
};

class Compiler {
 public:
  Compiler(const tracebuf::TraceReader& reader, const HierarchyConfig& config, CompiledTrace& out)
      : reader_(reader),
        config_(config),
        out_(out),
        allocations_(reader.allocations(), out.allocation_names) {
    l1_line_ = config.l1.line;
    l1_sector_ = config.l1.sector;
    l2_sector_ = config.l2.sector;
    out_.l2_lines_per_l1_line = config.l1.line / config.l2.line;
    out_.l2_sectors_per_l2_line = config.l2.line / config.l2.sector;
    l1_sets_ = config.l1.enabled ? config.l1.sets() : 1;
  }

  void compile_launch(const tracebuf::LaunchStreams& launch) {
    LaunchTrace trace;
    trace.kernel = launch.info.kernel;
    trace.kernel_index = kernel_index(launch.info.kernel);
    kernel_ = trace.kernel_index;
    trace.index = launch.info.index;
    trace.sequence_in_program = launch.info.sequence_in_program;
    trace.warps_per_block = launch.info.warps_per_block();
    trace.occupancy = plan_occupancy(launch.info, config_);
    trace.resident_blocks_per_sm = trace.occupancy.resident_blocks;
    if (trace.resident_blocks_per_sm == 0) {
      throw std::invalid_argument(
          "launch " + std::to_string(launch.info.index) + " (" + launch.info.kernel +
          "): a block of " + std::to_string(launch.info.block.volume()) +
          " threads does not fit on one SM of hierarchy " + config_.name + ": " +
          exceeded_limits(launch.info, config_.sm));
    }
    std::size_t next_stream = 0;
    const auto& streams = launch.warps;
    for (std::uint64_t b = 0; b < launch.info.snapshot_block_count; ++b) {
      const std::uint64_t block_id = launch.info.snapshot_first_block + b;
      BlockTrace block{block_id, static_cast<std::uint32_t>(out_.warps.size()),
                       trace.warps_per_block};
      for (std::uint32_t w = 0; w < trace.warps_per_block; ++w) {
        WarpTrace warp{static_cast<std::uint32_t>(out_.bulks.size()), 0};
        while (next_stream < streams.size() && (streams[next_stream].block < block_id ||
                                                (streams[next_stream].block == block_id &&
                                                 streams[next_stream].warp < w))) {
          ++next_stream;  // streams outside the snapshot (check_invariants rejects those)
        }
        if (next_stream < streams.size() && streams[next_stream].block == block_id &&
            streams[next_stream].warp == w) {
          compile_warp(streams[next_stream], trace);
          ++next_stream;
        }
        warp.bulk_count = static_cast<std::uint32_t>(out_.bulks.size()) - warp.first_bulk;
        out_.warps.push_back(warp);
      }
      trace.blocks.push_back(block);
    }
    out_.launches.push_back(std::move(trace));
  }

  void finish() {
    const std::uint32_t parts = out_.l2_lines_per_l1_line;
    const std::uint32_t lines = out_.l1_line_count();
    out_.l2_set.resize(std::size_t{lines} * parts);
    out_.dram_location.resize(lines);
    out_.line_module.resize(lines);
    out_.line_page.resize(lines);
    const std::unique_ptr<placement::Placement> placement = placement::make(config_);
    for (std::uint32_t l1 = 0; l1 < lines; ++l1) {
      const placement::LineHome home = placement->place(
          out_.l1_line_address[l1], {out_.l2_set.data() + std::size_t{l1} * parts, parts});
      out_.dram_location[l1] = home.dram;
      out_.line_module[l1] = home.module;
      out_.line_page[l1] = home.page;
    }
    out_.lines_by_address.resize(lines);
    std::iota(out_.lines_by_address.begin(), out_.lines_by_address.end(), 0u);
    std::sort(out_.lines_by_address.begin(), out_.lines_by_address.end(),
              [&](std::uint32_t a, std::uint32_t b) {
                return out_.l1_line_address[a] < out_.l1_line_address[b];
              });
  }

 private:
  std::uint16_t kernel_index(const std::string& kernel) {
    const auto found = std::find(out_.kernel_names.begin(), out_.kernel_names.end(), kernel);
    if (found != out_.kernel_names.end()) {
      return static_cast<std::uint16_t>(found - out_.kernel_names.begin());
    }
    if (out_.kernel_names.size() == std::numeric_limits<std::uint16_t>::max()) {
      throw std::invalid_argument("more than 65535 distinct kernels in the replayed launches");
    }
    out_.kernel_names.push_back(kernel);
    return static_cast<std::uint16_t>(out_.kernel_names.size() - 1);
  }

  std::uint32_t slot_of(std::uint32_t load, std::uint16_t allocation) {
    // load: 32 bits, allocation: 16 bits, kernel: 16 bits.
    const std::uint64_t key =
        std::uint64_t{kernel_} << 48 | std::uint64_t{load} << 16 | allocation;
    auto [it, inserted] =
        slot_ids_.try_emplace(key, static_cast<std::uint32_t>(out_.slots.size()));
    if (inserted) {
      out_.slots.push_back({load, allocation, kernel_});
    }
    return it->second;
  }

  std::uint32_t line_id(std::uint64_t line_number) {
    auto [it, inserted] =
        line_ids_.try_emplace(line_number, static_cast<std::uint32_t>(out_.l1_line_address.size()));
    if (inserted) {
      const std::uint64_t address = line_number * l1_line_;
      out_.l1_line_address.push_back(address);
      out_.l1_set.push_back(static_cast<std::uint32_t>(line_number % l1_sets_));
      line_allocation_.push_back(allocations_.find(address));
    }
    return it->second;
  }

  struct Piece {
    std::uint64_t line_number;
    std::uint8_t l1_sectors;
    std::uint8_t l2_sectors;
    std::uint8_t full_sectors;  // L1 sectors every byte of which a store writes
  };

  /// Sets each piece's full_sectors: the L1 sectors whose every byte some active lane of the
  /// store writes (lanes may overlap, so the lanes' byte ranges are merged first). `pieces` is
  /// sorted by line.
  void mark_full_sectors(const tracebuf::RecordView& record, Piece* pieces, std::size_t count) {
    std::array<std::pair<std::uint64_t, std::uint64_t>, tracebuf::kWarpSize> ranges;
    std::size_t lanes = 0;
    const std::uint64_t size = record.element_size();
    record.for_each_address([&](unsigned, std::uint64_t address) {
      ranges[lanes++] = {address, address + size};
    });
    std::sort(ranges.begin(), ranges.begin() + static_cast<std::ptrdiff_t>(lanes));
    std::array<std::array<std::uint32_t, 8>, 2 * tracebuf::kWarpSize> covered{};
    const auto cover = [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t at = begin; at < end;) {
        const std::uint64_t sector_end = (at / l1_sector_ + 1) * l1_sector_;
        const std::uint64_t stop = std::min(end, sector_end);
        const std::uint64_t line = at / l1_line_;
        for (std::size_t i = 0; i < count; ++i) {
          if (pieces[i].line_number == line) {
            covered[i][(at % l1_line_) / l1_sector_] += static_cast<std::uint32_t>(stop - at);
            break;
          }
        }
        at = stop;
      }
    };
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    for (std::size_t r = 0; r < lanes; ++r) {
      if (r == 0 || ranges[r].first > end) {
        if (r != 0) {
          cover(begin, end);
        }
        begin = ranges[r].first;
        end = ranges[r].second;
      } else {
        end = std::max(end, ranges[r].second);
      }
    }
    if (lanes != 0) {
      cover(begin, end);
    }
    for (std::size_t i = 0; i < count; ++i) {
      for (std::uint32_t sector = 0; sector < 8; ++sector) {
        if (covered[i][sector] == l1_sector_) {
          pieces[i].full_sectors |= static_cast<std::uint8_t>(1u << sector);
        }
      }
    }
  }

  void compile_warp(const tracebuf::WarpStream& stream, LaunchTrace& trace) {
    const auto& loads = reader_.loads();
    Bulk bulk{};
    bool open = false;
    std::int64_t sequence = -2;
    std::vector<std::uint32_t> bulk_loads;
    auto close = [&] {
      if (open) {
        out_.bulks.push_back(bulk);
        open = false;
      }
    };
    stream.for_each([&](const tracebuf::RecordView& record) {
      const std::uint32_t id = record.static_id();
      if (id >= loads.size()) {
        throw std::invalid_argument("record static id " + std::to_string(id) +
                                    " is not in the loads table");
      }
      const tracebuf::LoadInfo& load = loads[id];
      const bool repeated = std::find(bulk_loads.begin(), bulk_loads.end(), id) != bulk_loads.end();
      bool depends = false;
      for (std::uint32_t d : load.depends_on) {
        depends = depends || std::find(bulk_loads.begin(), bulk_loads.end(), d) != bulk_loads.end();
      }
      const bool other_sequence = load.sequence >= 0 && load.sequence != sequence;
      if (!open || record.barriers() > 0 || repeated || depends || other_sequence) {
        close();
        bulk = Bulk{static_cast<std::uint32_t>(out_.transactions.size()), 0,
                    static_cast<std::uint8_t>(std::min(record.barriers(), 255u)), 0, {0, 0}};
        bulk_loads.clear();
        open = true;
        sequence = load.sequence;
      }
      bulk_loads.push_back(id);
      const auto kind = record.kind();
      if (kind != tracebuf::AccessKind::kWrite) {
        bulk.has_loads = 1;
      }
      const std::size_t before = out_.transactions.size();
      coalesce(record, id);
      const std::size_t added = out_.transactions.size() - before;
      bulk.transaction_count += static_cast<std::uint32_t>(added);
      trace.transactions += added;
      LoadStatic& stats = out_.loads[id];
      ++stats.requests;
      stats.transactions += added;
      stats.lane_accesses += record.active_lanes();
    });
    close();
  }

  void coalesce(const tracebuf::RecordView& record, std::uint32_t id) {
    std::array<Piece, 2 * tracebuf::kWarpSize> pieces;
    std::size_t count = 0;
    const std::uint64_t size = record.element_size();
    record.for_each_address([&](unsigned, std::uint64_t address) {
      const std::uint64_t last = address + size - 1;
      for (std::uint64_t chunk = address / l2_sector_; chunk <= last / l2_sector_; ++chunk) {
        const std::uint64_t byte = chunk * l2_sector_;
        const std::uint64_t line = byte / l1_line_;
        const std::uint64_t offset = byte % l1_line_;
        Piece* piece = nullptr;
        for (std::size_t i = 0; i < count; ++i) {
          if (pieces[i].line_number == line) {
            piece = &pieces[i];
            break;
          }
        }
        if (piece == nullptr) {
          if (count == pieces.size()) {
            throw std::invalid_argument("a warp access spans more than 64 lines");
          }
          piece = &pieces[count++];
          *piece = {line, 0, 0, 0};  // full_sectors: mark_full_sectors, for stores
        }
        piece->l1_sectors |= static_cast<std::uint8_t>(1u << (offset / l1_sector_));
        piece->l2_sectors |= static_cast<std::uint8_t>(1u << (offset / l2_sector_));
      }
    });
    std::sort(pieces.begin(), pieces.begin() + static_cast<std::ptrdiff_t>(count),
              [](const Piece& a, const Piece& b) { return a.line_number < b.line_number; });
    if (record.kind() == tracebuf::AccessKind::kWrite) {
      mark_full_sectors(record, pieces.data(), count);
    }
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint32_t line = line_id(pieces[i].line_number);
      Transaction t{};
      t.line = line;
      t.slot = slot_of(id, line_allocation_[line]);
      t.l1_set = out_.l1_set[line];
      t.kind = static_cast<std::uint8_t>(record.kind());
      t.l1_sectors = pieces[i].l1_sectors;
      t.l2_sectors = pieces[i].l2_sectors;
      t.l1_full_sectors = pieces[i].full_sectors;
      out_.transactions.push_back(t);
    }
  }

  const tracebuf::TraceReader& reader_;
  const HierarchyConfig& config_;
  CompiledTrace& out_;
  AllocationIndex allocations_;
  std::unordered_map<std::uint64_t, std::uint32_t> line_ids_;
  std::unordered_map<std::uint64_t, std::uint32_t> slot_ids_;
  std::uint16_t kernel_ = 0;  // kernel index of the launch being compiled
  std::vector<std::uint16_t> line_allocation_;
  std::uint64_t l1_line_ = 128;
  std::uint64_t l1_sector_ = 128;
  std::uint64_t l2_sector_ = 32;
  std::uint64_t l1_sets_ = 1;
};

}  // namespace

std::optional<std::uint32_t> CompiledTrace::find_line(std::uint64_t line_address) const {
  const auto found = std::lower_bound(
      lines_by_address.begin(), lines_by_address.end(), line_address,
      [&](std::uint32_t id, std::uint64_t address) { return l1_line_address[id] < address; });
  if (found == lines_by_address.end() || l1_line_address[*found] != line_address) {
    return std::nullopt;
  }
  return *found;
}

std::uint64_t CompiledTrace::bytes() const {
  return transactions.capacity() * sizeof(Transaction) + bulks.capacity() * sizeof(Bulk) +
         warps.capacity() * sizeof(WarpTrace) + l1_line_address.capacity() * 8 +
         l1_set.capacity() * 4 + l2_set.capacity() * 4 +
         dram_location.capacity() * sizeof(DramLocation) + line_module.capacity() * 2 +
         line_page.capacity() * 4 + lines_by_address.capacity() * 4;
}

// Occupancy and the carveout decide each other. The rule is the CUDA occupancy calculator's
// (cuda_occupancy.h: cudaOccMaxBlocksPerSMSmemLimit, cudaOccSMemPreferenceVoltaPlus,
// cudaOccAlignUpShmemSizeVoltaPlus) for the blocks, and the CUDA C Programming Guide's
// (compute capabilities 7.x-9.x, "Shared Memory": the driver picks the carveout per kernel so as
// not to limit occupancy by shared memory) for the carveout:
//   a = round_up(static + dynamic + reserved per block, granularity)   (reserved: 1 KiB on 8.x+)
//   P = the preference: -1 -> sm.shared_memory; p % -> p x sm.shared_memory / 100; then aligned
//       up to the smallest listed carveout that holds it
//   S = P if P >= a, else the smallest carveout that holds a   (shared memory the SM offers)
//   blocks = min(thread, warp, block, register limits, S / a)   (no shared-memory limit if a = 0)
//   carveout = the smallest listed carveout that holds blocks x a, and at least P when a
//              preference is set (the driver honours it); the L1 is unified_size - carveout.
// Accel-Sim's adaptive L1 (gpgpu-sim shader.cc, adaptive_cache_config) follows the same rule:
// occupancy first with the most shared memory, then the smallest carveout that holds it.
LaunchOccupancy plan_occupancy(const tracebuf::LaunchInfo& launch, const HierarchyConfig& config) {
  const SmConfig& sm = config.sm;
  const CacheConfig& l1 = config.l1;
  const BlockNeeds needs = block_needs(launch, sm);
  LaunchOccupancy out;
  out.shared_per_block = needs.shared;
  std::uint64_t blocks = sm.max_blocks;
  blocks = std::min(blocks, sm.max_threads / needs.threads);
  blocks = std::min(blocks, sm.max_warps / needs.warps);
  blocks = std::min(blocks, sm.registers / needs.registers);
  if (needs.shared > sm.shared_memory) {
    blocks = 0;
  }
  const bool adaptive = l1.enabled && l1.adaptive;
  std::uint64_t preference = 0;
  if (adaptive) {
    const std::uint64_t wanted =
        l1.preferred_carveout < 0
            ? sm.shared_memory
            : static_cast<std::uint64_t>(l1.preferred_carveout) * sm.shared_memory / 100;
    preference = carveout_holding(l1, wanted).value_or(l1.carveouts.back());
    const std::uint64_t offered =
        preference >= needs.shared ? preference
                                   : carveout_holding(l1, needs.shared).value_or(sm.shared_memory);
    if (needs.shared > 0) {
      blocks = std::min(blocks, offered / needs.shared);
    }
  } else if (needs.shared > 0) {
    blocks = std::min(blocks, sm.shared_memory / needs.shared);
  }
  out.resident_blocks = static_cast<std::uint32_t>(blocks);
  if (adaptive) {
    out.adaptive = true;
    const std::uint64_t floor = l1.preferred_carveout < 0 ? 0 : preference;
    out.carveout = std::max(floor, carveout_holding(l1, blocks * needs.shared)
                                       .value_or(l1.carveouts.back()));
    out.l1_bytes = l1.unified_size - out.carveout;
    out.l1_ways = static_cast<std::uint32_t>(out.l1_bytes / (std::uint64_t{l1.line} * l1.sets()));
  } else {
    out.l1_bytes = l1.enabled ? l1.size : 0;
    out.l1_ways = l1.associativity;
  }
  return out;
}

std::uint32_t resident_blocks_per_sm(const tracebuf::LaunchInfo& launch,
                                     const HierarchyConfig& config) {
  return plan_occupancy(launch, config).resident_blocks;
}

CompiledTrace compile_trace(const tracebuf::TraceReader& reader, const HierarchyConfig& config,
                            const CompileOptions& options) {
  CompiledTrace out;
  out.load_info = reader.loads();
  out.loads.resize(reader.loads().size());
  Compiler compiler(reader, config, out);
  const auto& launches = reader.launches();
  if (options.launches.empty()) {
    for (const auto& launch : launches) {
      compiler.compile_launch(launch);
    }
  } else {
    for (std::uint32_t index : options.launches) {
      if (index >= launches.size()) {
        throw std::invalid_argument("launch " + std::to_string(index) + " is not in the trace (" +
                                    std::to_string(launches.size()) + " launches)");
      }
      compiler.compile_launch(launches[index]);
    }
  }
  compiler.finish();
  return out;
}

}  // namespace memcarlo::sim
