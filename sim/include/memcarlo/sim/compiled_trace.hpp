// A trace compiled for one hierarchy geometry: coalesced into line transactions, grouped into
// bulk scheduling sequences, with every line pre-mapped to its L1 set, L2 set and DRAM location.
// Built once per (trace, hierarchy); every Monte Carlo trial reads it and touches nothing else.
#pragma once

#include <array>
#include <map>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "memcarlo/sim/config.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::sim {

inline constexpr std::uint16_t kNoAllocation = 0xFFFF;

/// One warp instruction's access to one L1 line (the paper's "memory transaction"). Every trial
/// streams through all of them, so the layout is packed to 12 bytes: the L1 sectors touched are
/// not stored but derived from l2_sectors (l1_sectors_of_chunks).
struct Transaction {
  static constexpr std::uint32_t kSlotBits = 30;
  static constexpr std::uint64_t kMaxSlots = std::uint64_t{1} << kSlotBits;  // counter slots

  std::uint32_t line;           // dense L1 line id (index into CompiledTrace::l1_set)
  std::uint32_t slot_and_kind;  // counter slot (low 30 bits), tracebuf::AccessKind (top 2 bits)
  std::uint16_t l1_set;         // CompiledTrace::l1_set[line], here to spare the replay a lookup
  std::uint8_t l2_sectors;      // L2-sector-sized chunks of the L1 line touched (bit i: chunk i)
  std::uint8_t l1_full_sectors;  // stores: L1 sectors every byte of which the warp writes

  /// The counter slot: an index into CompiledTrace::slots.
  [[nodiscard]] std::uint32_t slot() const {
    return slot_and_kind & static_cast<std::uint32_t>(kMaxSlots - 1);
  }
  [[nodiscard]] tracebuf::AccessKind kind() const {
    return static_cast<tracebuf::AccessKind>(slot_and_kind >> kSlotBits);
  }
  /// slot_and_kind for `slot` (below kMaxSlots, which compile_trace checks) and `kind`.
  [[nodiscard]] static constexpr std::uint32_t pack(std::uint32_t slot, tracebuf::AccessKind kind) {
    return static_cast<std::uint32_t>(static_cast<std::uint32_t>(kind) << kSlotBits) | slot;
  }
  friend bool operator==(const Transaction&, const Transaction&) = default;
};
static_assert(sizeof(Transaction) == 12);
static_assert(tracebuf::kAccessKindCount <= 4, "the kind takes the top 2 bits of slot_and_kind");

/// What a GPU prefetcher sees of the warp instruction behind one transaction, beside it (the
/// per-transaction array CompiledTrace::access_sites, parallel to `transactions`): compiled only
/// for hierarchies with a prefetcher (needs_access_sites), so the replay without one neither
/// builds nor touches it. 16 bytes a transaction.
struct AccessSite {
  static constexpr std::uint8_t kUniformStride = 1;       // active lanes are `stride` bytes apart
  static constexpr std::uint8_t kFirstOfInstruction = 2;  // the instruction's first transaction

  std::uint64_t base_address;  // byte address of the lowest active lane (lane 0 when active)
  std::int32_t stride;         // bytes between consecutive lanes (uniform only; else 0)
  std::uint8_t flags;
  std::uint8_t reserved[3];
  friend bool operator==(const AccessSite&, const AccessSite&) = default;
};
static_assert(sizeof(AccessSite) == 16);

/// The most L1 sets a compiled trace can index (Transaction::l1_set has 16 bits).
inline constexpr std::uint64_t kMaxL1Sets = std::uint64_t{1} << 16;

/// Throws std::invalid_argument, naming the limit, when `slots` counter slots do not fit
/// Transaction::slot_and_kind (more than kMaxSlots). compile_trace checks its slots with it.
void require_counter_slots_fit(std::uint64_t slots);

/// The L1 sectors a transaction touches, indexed by its Transaction::l2_sectors: an L1 sector is
/// touched iff one of the L2-sector-sized chunks inside it is (the hierarchy loader checks that
/// l1.sector is a multiple of l2.sector).
std::array<std::uint8_t, 256> l1_sectors_of_chunks(const HierarchyConfig& config);

/// An allocator whose vectors leave trivially constructible elements uninitialized when they
/// grow (std::allocator zeroes them). The compile sizes the transaction array once and fills it
/// in parallel: zeroing it first would cost a serial pass and would make the whole array
/// resident while the streams' own copies still are.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  explicit UninitializedAllocator(const UninitializedAllocator<U>& /*other*/) noexcept {}
  template <class U>
  void construct(U* at) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(at)) U;
  }
  template <class U, class... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
  friend bool operator==(const UninitializedAllocator&, const UninitializedAllocator&) {
    return true;
  }
};

/// Trials count events per (kernel, static load, allocation) triple: one counter update per
/// event, split into per-load, per-allocation and per-kernel totals when the trial ends. (A
/// `__device__` function called by two kernels has one static id but a slot per kernel.)
struct CounterSlot {
  std::uint32_t load;
  std::uint16_t allocation;  // index into CompiledTrace::allocation_names, or kNoAllocation
  std::uint16_t kernel;      // index into CompiledTrace::kernel_names
  friend bool operator==(const CounterSlot&, const CounterSlot&) = default;
};

/// Records of one warp that issue back to back (paper §2, bulk instruction scheduling).
struct Bulk {
  std::uint32_t first_transaction;
  std::uint32_t transaction_count;
  std::uint8_t barriers;   // __syncthreads the warp crosses before issuing this bulk
  std::uint8_t has_loads;  // the warp waits for this bulk's data before its next bulk
  std::uint8_t reserved[2];
  friend bool operator==(const Bulk&, const Bulk&) = default;
};

struct WarpTrace {
  std::uint32_t first_bulk;
  std::uint32_t bulk_count;
  friend bool operator==(const WarpTrace&, const WarpTrace&) = default;
};

struct BlockTrace {
  std::uint64_t block_id;  // linear id in the grid
  std::uint32_t first_warp;
  std::uint32_t warp_count;  // warps of the block (all of them, traced or not)
  friend bool operator==(const BlockTrace&, const BlockTrace&) = default;
};

/// How one launch occupies an SM under a hierarchy: the resident blocks and, for an adaptive
/// (unified) L1, the shared-memory carveout chosen for them and the L1 that is left (see
/// plan_occupancy for the rule and its source).
struct LaunchOccupancy {
  std::uint32_t resident_blocks = 0;
  std::uint64_t shared_per_block = 0;  // allocated: static + dynamic + reserved, rounded up
  bool adaptive = false;               // the carveout below was chosen for this launch
  std::uint64_t carveout = 0;          // shared-memory bytes per SM (adaptive L1 only)
  std::uint64_t l1_bytes = 0;          // the L1 data cache this launch gets per SM
  std::uint32_t l1_ways = 0;           // ... as ways of the hierarchy's L1 sets
  friend bool operator==(const LaunchOccupancy&, const LaunchOccupancy&) = default;
};

struct LaunchTrace {
  std::string kernel;
  std::uint16_t kernel_index = 0;  // index into CompiledTrace::kernel_names
  std::uint32_t index = 0;
  std::uint64_t sequence_in_program = 0;  // launches the program made before this one
  std::uint32_t warps_per_block = 0;
  std::uint32_t resident_blocks_per_sm = 0;  // occupancy under the hierarchy's limits
  LaunchOccupancy occupancy;                 // the same, with the carveout and the L1 it leaves
  std::vector<BlockTrace> blocks;            // snapshot blocks in launch order
  std::uint64_t transactions = 0;
  tracebuf::Dim3 grid;   // the launch's shape, for policies that read block coordinates (tafe)
  tracebuf::Dim3 block;
  /// Kernel arguments the trace records (kernel_arguments annotations, docs/footprints.md).
  std::map<std::string, std::int64_t> arguments;
  /// TAFE's block order from the program's hand registrations (taf_register TID_DEP: the block
  /// axes, fastest first, footprint::registered_block_order), empty when it made none: the tafe
  /// scheduler then derives the order from the loads table.
  std::vector<std::uint8_t> tafe_registered_axes;
  /// Its Locality Descriptors in priority order, checked against it (sim/src/ldesc/
  /// descriptors.hpp): hierarchy key ldesc.descriptors's file, else the trace's annotations.
  std::vector<tracebuf::LocalityDescriptor> descriptors;
  friend bool operator==(const LaunchTrace&, const LaunchTrace&) = default;
};

/// Per static load facts that do not depend on ordering.
struct LoadStatic {
  std::uint64_t requests = 0;      // warp instructions (records)
  std::uint64_t transactions = 0;  // L1 line transactions they coalesce into
  std::uint64_t lane_accesses = 0;
  friend bool operator==(const LoadStatic&, const LoadStatic&) = default;
};

struct DramLocation {
  std::uint32_t row;
  std::uint16_t channel;
  std::uint16_t bank;
  friend bool operator==(const DramLocation&, const DramLocation&) = default;
};

struct CompiledTrace {
  std::vector<LaunchTrace> launches;
  std::vector<WarpTrace> warps;
  std::vector<Bulk> bulks;
  std::vector<Transaction, UninitializedAllocator<Transaction>> transactions;
  // Per transaction, its warp instruction as a prefetcher sees it; empty unless the hierarchy
  // compiled for has a prefetcher (needs_access_sites).
  std::vector<AccessSite> access_sites;

  // Per dense L1 line id. Ids are given in first-seen order over (launch, block, warp, record):
  // lines a warp touches together get neighbouring ids, so the replay's per-line state of one
  // access shares cache lines.
  std::vector<std::uint64_t> l1_line_address;  // byte address of the line
  // The line ids in the order of their addresses (for find_line, a binary search).
  std::vector<std::uint32_t> line_ids_by_address;
  std::vector<std::uint32_t> l1_set;
  // Per dense L2 line id = L1 line id * l2_lines_per_l1_line + part.
  std::uint32_t l2_lines_per_l1_line = 1;
  std::uint32_t l2_sectors_per_l2_line = 1;
  std::vector<std::uint32_t> l2_set;  // global set index (slice-major)
  // Per dense L1 line id: an L1 line lies in one DRAM row (the loader checks that
  // dram.interleave_bytes is a multiple of l1.line), so its L2 lines share this location.
  std::vector<DramLocation> dram_location;
  // Per dense L1 line id, from the placement policy (as l2_set and dram_location): the line's
  // home module and its page (address / placement.page_bytes).
  std::vector<std::uint16_t> line_module;
  std::vector<std::uint32_t> line_page;

  std::vector<CounterSlot> slots;
  std::vector<std::string> kernel_names;  // distinct kernels of the replayed launches, first-seen order
  std::vector<LoadStatic> loads;  // indexed by static id
  std::vector<std::string> allocation_names;
  std::vector<tracebuf::LoadInfo> load_info;

  [[nodiscard]] std::uint32_t l1_line_count() const {
    return static_cast<std::uint32_t>(l1_set.size());
  }
  [[nodiscard]] std::uint32_t l2_line_count() const {
    return static_cast<std::uint32_t>(l2_set.size());
  }
  /// The id of the L1 line whose first byte is at `line_address` (a value of l1_line_address),
  /// or nothing when the trace does not touch that line. O(log lines).
  [[nodiscard]] std::optional<std::uint32_t> find_line(std::uint64_t line_address) const;
  /// Memory held by the per-transaction and per-line arrays (their capacity, which is their size).
  [[nodiscard]] std::uint64_t bytes() const;
};

struct CompileOptions {
  /// Launch indices to replay; empty = all launches of the trace.
  std::vector<std::uint32_t> launches;
};

/// Whether a trace compiled for `config` carries CompiledTrace::access_sites: only with a GPU
/// prefetcher (prefetch.policy other than none), which is what keeps `none` free.
bool needs_access_sites(const HierarchyConfig& config);

/// Coalesces and indexes `reader`'s records for `config`. Throws std::invalid_argument with a
/// message for traces the hierarchy cannot run (e.g. a block larger than an SM allows) or the
/// compiled form cannot hold (more than Transaction::kMaxSlots counter slots, an L1 of more than
/// kMaxL1Sets sets). Runs on the calling thread's TBB arena, in parallel over warp streams; the
/// result is the same, bit for bit, whatever the number of threads.
CompiledTrace compile_trace(const tracebuf::TraceReader& reader, const HierarchyConfig& config,
                            const CompileOptions& options = {});

/// Blocks of `launch` that fit on one SM at once under `config`'s limits (0 if none fits).
std::uint32_t resident_blocks_per_sm(const tracebuf::LaunchInfo& launch,
                                     const HierarchyConfig& config);

/// Occupancy and carveout of `launch`, decided together as the CUDA occupancy calculator does
/// (cuda_occupancy.h, cudaOccMaxBlocksPerSMSmemLimit); resident_blocks is 0 if no block fits.
LaunchOccupancy plan_occupancy(const tracebuf::LaunchInfo& launch, const HierarchyConfig& config);

}  // namespace memcarlo::sim
