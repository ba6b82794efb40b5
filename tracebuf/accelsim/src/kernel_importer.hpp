// The second pass of an Accel-Sim import over one kernel file: the state machine over thread
// blocks, warps and instruction lines that turns global accesses into batches of warp records.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "instruction.hpp"
#include "kernel_file.hpp"
#include "line_source.hpp"
#include "memcarlo/accelsim/accelsim.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::accelsim::detail {

/// Records a warp accumulates before they are handed to the trace writer.
inline constexpr std::size_t kBatchRecords = 4096;

/// A memory instruction of one kernel, classified at its first execution.
struct PcEntry {
  std::string opcode;
  Space space = Space::kNone;
  tracebuf::AccessKind kind = tracebuf::AccessKind::kRead;
  std::uint8_t element_size = 4;
  std::int64_t static_id = -1;  // assigned when it first yields a record
};

/// The loads table: one static id per (kernel, PC) that yields records.
class StaticIds {
 public:
  /// The PCs seen so far in kernel `name`.
  std::unordered_map<std::uint64_t, PcEntry>& kernel(const std::string& name) {
    return by_kernel_[name];
  }
  /// The static id of `entry`, creating its loads-table row at its first record.
  std::uint32_t assign(PcEntry& entry, const std::string& kernel, std::uint64_t pc,
                       std::uint32_t source_line);

  std::vector<tracebuf::LoadInfo> loads;

 private:
  std::map<std::string, std::unordered_map<std::uint64_t, PcEntry>> by_kernel_;
};

/// What a kernel import needs from its surroundings.
struct ImportContext {
  tracebuf::TraceWriter& writer;
  StaticIds& ids;
  ImportStats& stats;
  std::map<std::string, std::uint64_t>& other_opcodes;  // dropped "other" memory opcodes
  std::uint64_t& generic_without_windows;
  const std::function<void()>& progress;
};

/// Streams the instruction part of one kernel file into warp records. Each warp's records are
/// written when the warp ends or its batch is full, so memory stays bounded by one batch.
class KernelImporter {
 public:
  KernelImporter(LineSource& source, const KernelHeader& header, std::uint32_t launch,
                 ImportContext context);

  /// Imports every line from `first_line` to the end of the file; returns the blocks seen.
  std::uint64_t run(std::string_view first_line);

 private:
  void on_line(std::string_view line);
  void require_block(const char* what);
  void end_warp();
  void flush();
  void parse(std::string_view line);
  void on_instruction(std::string_view line);

  /// The store that completes the pending read-modify-write must repeat its lanes and addresses.
  void merge_rmw_store(const PcEntry& store, std::uint32_t mask);

  /// The entry of the instruction's PC, created at its first execution; sets element_size_.
  PcEntry& entry_for(const Instruction& in);
  void count_dropped(const PcEntry& entry);

  /// Drops the lanes of a generic access that fall in the kernel's shared or local window.
  std::uint32_t global_lanes(std::uint32_t mask);

  LineSource& source_;
  const KernelHeader& header_;
  std::uint32_t launch_;
  ImportContext context_;
  std::unordered_map<std::uint64_t, PcEntry>& pcs_;
  LineLayout layout_;
  bool layout_decided_ = false;
  std::unordered_set<std::uint64_t> rmw_pcs_;
  std::uint32_t warps_per_block_ = 1;
  std::uint32_t last_warp_mask_ = 0xFFFFFFFFu;

  bool in_block_ = false;
  std::uint64_t block_ = 0;   // position of the current block in the file = its linear id
  std::uint64_t blocks_ = 0;  // blocks begun so far
  std::vector<bool> warps_seen_;
  bool in_warp_ = false;
  std::uint32_t warp_ = 0;
  std::uint64_t declared_ = 0;
  std::uint64_t seen_ = 0;
  std::uint64_t insts_line_ = 0;  // line of the current warp's 'insts = n'; 0 before it
  std::uint32_t pending_barriers_ = 0;
  bool pending_rmw_ = false;
  std::uint64_t rmw_store_pc_ = 0;
  std::uint8_t element_size_ = 4;  // of the current instruction, set by entry_for
  std::vector<tracebuf::WarpRecord> batch_;
  Instruction instruction_;
};

}  // namespace memcarlo::accelsim::detail
