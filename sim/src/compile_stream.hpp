// Phase 1 of trace compilation (compiled_trace.cpp runs the phases): one warp stream coalesced
// into transactions and bulks, with line and counter-slot ids local to the stream, so that
// streams compile in parallel and share nothing; compile_trace renumbers the ids afterwards.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::sim::detail {

/// The trace's allocations by base address: which one a byte belongs to.
class AllocationIndex {
 public:
  /// Indexes `allocations`, appending their names to `names` (at most kNoAllocation of them).
  AllocationIndex(const std::vector<tracebuf::Allocation>& allocations,
                  std::vector<std::string>& names);

  /// The index into `names` of the allocation holding `address`, or kNoAllocation.
  [[nodiscard]] std::uint16_t find(std::uint64_t address) const;

 private:
  struct Range {
    std::uint64_t base, size;
    std::uint16_t index;
  };
  std::vector<Range> ranges_;  // sorted by base
};

/// Division by a size that is a power of two in every validated cache (a shift, where a 64-bit
/// division would cost the coalescing loop most of its time), or, for the sizes of a disabled
/// L1, which the loader does not check, anything else.
class Divisor {
 public:
  explicit Divisor(std::uint64_t value)
      : value_(value), shift_(std::has_single_bit(value) ? std::countr_zero(value) : -1) {}
  [[nodiscard]] std::uint64_t value() const { return value_; }
  [[nodiscard]] std::uint64_t quotient(std::uint64_t x) const {
    return shift_ >= 0 ? x >> shift_ : x / value_;
  }
  [[nodiscard]] std::uint64_t remainder(std::uint64_t x) const {
    return shift_ >= 0 ? x & (value_ - 1) : x % value_;
  }

 private:
  std::uint64_t value_;
  int shift_;
};

/// The hierarchy geometry coalescing needs (sizes in bytes; l1_sets is 1 when there is no L1).
struct CoalescingGeometry {
  Divisor l1_line;
  Divisor l1_sector;
  Divisor l2_sector;
  Divisor l1_sets;
};

/// Holds streams' transactions from phase 1 to phase 3: filled by one thread, freed as soon as
/// phase 3 has copied out the last of its streams. Slabs are large enough (48 MiB) for the C
/// library to map each from the system and give it back when freed, and left uninitialized, so
/// the compile's peak memory is the compiled trace plus the slabs in flight, not twice the
/// transactions (as it would be with a vector per stream, all alive when the output is sized).
class TransactionSlab {
 public:
  static constexpr std::size_t kTransactions = std::size_t{1} << 22;

  explicit TransactionSlab(std::size_t capacity)
      : storage_(new Transaction[capacity]), capacity_(capacity) {}

  /// Room for `count` more transactions, or null when the slab has not that much left.
  Transaction* take(std::size_t count) {
    if (count > capacity_ - used_) {
      return nullptr;
    }
    Transaction* at = storage_.get() + used_;
    used_ += count;
    streams_.fetch_add(1, std::memory_order_relaxed);
    return at;
  }
  /// Says that one of its streams is copied out; the last one frees the slab. Thread-safe.
  void release() {
    if (streams_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      storage_.reset();
    }
  }

 private:
  std::unique_ptr<Transaction[]> storage_;
  std::size_t capacity_;
  std::size_t used_ = 0;
  std::atomic<std::size_t> streams_{0};
};

/// One warp stream compiled with ids local to it.
struct CompiledStream {
  /// As in CompiledTrace, except: line indexes `line_word_bits`, slot() indexes `slot_keys`.
  std::span<const Transaction> transactions;
  TransactionSlab* slab = nullptr;  // holding `transactions`
  std::vector<Bulk> bulks;          // first_transaction: index into `transactions`
  std::vector<AccessSite> sites;    // per transaction, when the compiler keeps them
  /// The stream's lines in first-seen order, each as its index in `words` << 6 | its line
  /// number % 64. compile_trace replaces each by the line's rank among the trace's lines in
  /// address order, then by its id.
  std::vector<std::uint32_t> line_word_bits;
  /// The distinct line numbers / 64 of the stream's lines, first-seen order, and per word the
  /// set of its lines touched (bit line number % 64): the trace's distinct lines are the union
  /// of these sets, in which compile_trace finds a line's rank in address order with a prefix sum
  /// and a popcount.
  std::vector<std::uint64_t> words;
  std::vector<std::uint64_t> word_lines;
  /// The distinct (static id << 16 | allocation) pairs, in first-seen order: counter slots are
  /// numbered in first-seen order over the whole trace, which changes the order in which trials
  /// sum floating-point counters, so that order must survive the parallel compile.
  std::vector<std::uint64_t> slot_keys;
  std::string error;  // why the stream cannot be compiled (a std::invalid_argument), or empty
};

/// Dense ids 0, 1, 2... for 64-bit keys in first-seen order: an open-addressing table (linear
/// probing, Fibonacci hashing) for one stream at a time. Far cheaper than std::unordered_map
/// on the compile's per-transaction path; `clear` sizes it for as many keys as it last held, so
/// that a small stream after a large one stays in the CPU's caches.
class DenseIds {
 public:
  DenseIds() { clear(); }

  /// The id of `key`, which becomes keys().size() if the key is new. ~0 is not a valid key.
  std::uint32_t id(std::uint64_t key) {
    if (2 * (keys_.size() + 1) > table_.size()) {
      grow();
    }
    for (std::size_t at = slot(key);; at = (at + 1) & mask_) {
      Entry& entry = table_[at];
      if (entry.key == key) {
        return entry.id;
      }
      if (entry.key == kEmpty) {
        entry = {key, static_cast<std::uint32_t>(keys_.size())};
        keys_.push_back(key);
        return entry.id;
      }
    }
  }
  /// The keys, indexed by id.
  [[nodiscard]] const std::vector<std::uint64_t>& keys() const { return keys_; }
  void clear();

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static constexpr std::size_t kInitialSize = 1024;
  struct Entry {
    std::uint64_t key;
    std::uint32_t id;
  };

  [[nodiscard]] std::size_t slot(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void resize(std::size_t size);
  void grow();

  std::vector<Entry> table_;
  std::vector<std::uint64_t> keys_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
};

/// Compiles warp streams one at a time, reusing its scratch memory: one per worker thread.
class StreamCompiler {
 public:
  StreamCompiler(const std::vector<tracebuf::LoadInfo>& loads, const AllocationIndex& allocations,
                 const CoalescingGeometry& geometry, bool access_sites);

  /// Compiles `stream` into `out` (every vector sized exactly; the transactions in one of the
  /// compiler's slabs, which outlive it until released) and adds its records to
  /// `load_totals` (indexed by static id). A stream the compile refuses leaves out.error set.
  void compile(const tracebuf::WarpStream& stream, CompiledStream& out,
               std::vector<LoadStatic>& load_totals);

 private:
  struct Piece {
    std::uint64_t line_number;
    std::uint8_t l2_sectors;
    std::uint8_t full_sectors;  // L1 sectors every byte of which a store writes
  };

  void compile_records(const tracebuf::WarpStream& stream, std::vector<LoadStatic>& load_totals);
  void coalesce(const tracebuf::RecordView& record, std::uint32_t id);
  /// Appends `count` copies of the record's AccessSite (the first flagged first).
  void add_sites(const tracebuf::RecordView& record, std::size_t count);
  void mark_full_sectors(const tracebuf::RecordView& record, Piece* pieces, std::size_t count) const;
  void finish(CompiledStream& out);

  const std::vector<tracebuf::LoadInfo>& loads_;
  const AllocationIndex& allocations_;
  CoalescingGeometry geometry_;
  bool access_sites_;
  // Scratch, reused from stream to stream.
  std::vector<Transaction> transactions_;
  std::vector<Bulk> bulks_;
  std::vector<AccessSite> sites_;
  DenseIds line_ids_;
  DenseIds slot_ids_;
  DenseIds word_ids_;
  // Per local line id (first-seen order): its allocation, its L1 set, and its word index << 6 |
  // line number % 64.
  std::vector<std::uint16_t> line_allocation_;
  std::vector<std::uint16_t> line_set_;
  std::vector<std::uint32_t> line_word_bit_;
  std::vector<std::uint64_t> word_lines_;  // per word index
  std::vector<std::uint32_t> bulk_loads_;
  std::vector<std::unique_ptr<TransactionSlab>> slabs_;  // the last one is being filled
  static constexpr std::uint32_t kMaxWords = std::uint32_t{1} << 26;  // with 6 bits for the line
  // The slot of the previous transaction: consecutive transactions mostly share it.
  static constexpr std::uint64_t kNoSlotKey = ~std::uint64_t{0};
  std::uint64_t last_slot_key_ = kNoSlotKey;
  std::uint32_t last_slot_ = 0;
};

}  // namespace memcarlo::sim::detail
