// Builds small traces record by record for engine tests whose answers are computed by hand.
#pragma once

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/trial.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::sim::testing {

class TraceBuilder {
 public:
  /// A launch of `blocks` blocks of `threads` threads, all in the snapshot.
  TraceBuilder(std::uint32_t blocks, std::uint32_t threads) : blocks_(blocks), threads_(threads) {}

  /// Starts another launch (of the same shape) of `kernel`: later accesses belong to it. The
  /// launches follow each other in the program (sequence_in_program 0, 1, ...) unless
  /// `skipped` launches the trace does not hold came in between.
  void next_launch(std::string kernel, std::uint64_t skipped = 0) {
    kernels_.push_back(std::move(kernel));
    sequences_.push_back(sequences_.back() + 1 + skipped);
    dynamic_shared_.push_back(0);
  }

  /// Dynamic shared memory per block of the current launch.
  void set_dynamic_shared(std::uint64_t bytes) { dynamic_shared_.back() = bytes; }

  /// Adds a static access; returns its id. Loads of one `sequence` may issue back to back.
  std::uint32_t add_load(tracebuf::AccessKind kind, std::string expression,
                         std::int64_t sequence = -1, std::vector<std::uint32_t> depends_on = {}) {
    tracebuf::LoadInfo load;
    load.id = static_cast<std::uint32_t>(loads_.size());
    load.kind = kind;
    load.expression = std::move(expression);
    load.element_size = 4;
    load.sequence = sequence;
    load.depends_on = std::move(depends_on);
    loads_.push_back(load);
    return load.id;
  }

  /// One warp instruction: lane i (of the mask) accesses address(i).
  template <class AddressOfLane>
  void access(std::uint32_t block, std::uint32_t warp, std::uint32_t id, AddressOfLane address,
              std::uint32_t mask = 0xFFFFFFFF, std::uint8_t element_size = 4,
              std::uint8_t barriers = 0) {
    tracebuf::WarpRecord record;
    record.static_id = id;
    record.kind = loads_.at(id).kind;
    record.element_size = element_size;
    record.active_mask = mask;
    record.barriers = barriers;
    for (unsigned lane = 0; lane < 32; ++lane) {
      record.addresses[lane] = address(lane);
    }
    records_[{kernels_.size() - 1, block, warp}].push_back(record);
  }

  /// A coalesced access of 32 consecutive 4-byte elements starting at `base`.
  void coalesced(std::uint32_t block, std::uint32_t warp, std::uint32_t id, std::uint64_t base,
                 std::uint8_t barriers = 0) {
    access(block, warp, id, [base](unsigned lane) { return base + 4 * lane; }, 0xFFFFFFFF, 4,
           barriers);
  }

  std::string write(const std::string& name) const {
    const auto dir = std::filesystem::temp_directory_path() / "memcarlo-tests";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / (name + "-" + std::to_string(::getpid()) + ".mct")).string();
    tracebuf::TraceWriter writer(path, tracebuf::TraceMeta{});
    writer.write_loads(std::vector<tracebuf::LoadInfo>(
        loads_.begin(), loads_.begin() + static_cast<std::ptrdiff_t>(
                                              std::min(kept_loads_, loads_.size()))));
    writer.write_allocations(allocations_);
    if (!annotations_.empty()) {
      writer.write_annotations(annotations_);
    }
    for (std::size_t l = 0; l < kernels_.size(); ++l) {
      tracebuf::LaunchInfo launch;
      launch.kernel = kernels_[l];
      launch.grid = {blocks_, 1, 1};
      launch.block = {threads_, 1, 1};
      launch.snapshot_block_count = blocks_;
      launch.sequence_in_program = sequences_[l];
      launch.dynamic_shared_bytes = dynamic_shared_[l];
      const auto index = writer.begin_launch(launch);
      for (const auto& [key, records] : records_) {
        if (std::get<0>(key) == l) {
          writer.write_warp_records(index, std::get<1>(key), std::get<2>(key), records);
        }
      }
    }
    writer.finish();
    return path;
  }

  /// Writes only the first `count` loads into the loads table: records of the others then name
  /// static ids the table lacks, as in a malformed trace.
  void keep_loads(std::size_t count) { kept_loads_ = count; }

  /// The trace's annotation records (a JSON array).
  void set_annotations(std::string json_array) { annotations_ = std::move(json_array); }

  void add_allocation(std::uint64_t base, std::uint64_t size, std::string name) {
    allocations_.push_back(
        {static_cast<std::uint32_t>(allocations_.size()), base, size, std::move(name)});
  }

 private:
  std::uint32_t blocks_;
  std::uint32_t threads_;
  std::vector<tracebuf::LoadInfo> loads_;
  std::vector<tracebuf::Allocation> allocations_;
  std::size_t kept_loads_ = static_cast<std::size_t>(-1);
  std::string annotations_;
  std::vector<std::string> kernels_{"test_kernel"};
  std::vector<std::uint64_t> sequences_{0};
  std::vector<std::uint64_t> dynamic_shared_{0};
  // (launch, block, warp) -> records
  std::map<std::tuple<std::size_t, std::uint32_t, std::uint32_t>, std::vector<tracebuf::WarpRecord>>
      records_;
};

/// Compiles `path` for `config` and runs trial `trial`.
inline TrialResult run_one(const std::string& path, const HierarchyConfig& config,
                           std::uint64_t trial = 0, std::uint64_t seed = 7) {
  const auto reader = tracebuf::TraceReader::open(path);
  const CompiledTrace compiled = compile_trace(reader, config);
  TrialWorkspace workspace;
  return run_trial(compiled, config, seed, trial, workspace);
}

}  // namespace memcarlo::sim::testing
