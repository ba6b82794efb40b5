// Builds one synthetic trace: collects the notional kernel (listing, arrays, static accesses,
// launch), writes the metadata, then streams each warp's records to the TraceWriter.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "memcarlo/synth/synth.hpp"
#include "memcarlo/tracebuf/model.hpp"
#include "memcarlo/tracebuf/record.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::synth {

/// The C type named in the loads table for elements of `element_size` bytes ("float", ...).
std::string element_type_name(std::uint32_t element_size);

class TraceBuilder {
 public:
  /// One static access of the notional listing (one loads-table row).
  struct Access {
    std::uint32_t line = 0;  // 1-based line of the listing; `expression` must appear on it
    std::string expression{};
    std::string index_json{};  // the loads table's `index` form (index_forms.hpp), if any
    tracebuf::AccessKind kind = tracebuf::AccessKind::kRead;
    std::uint32_t array = 0;  // from add_array; names the `base` variable
    std::uint32_t element_size = 4;
    std::string element_type{};
    std::uint32_t loop_depth = 0;
    std::int64_t sequence = 0;  // bulk scheduling sequence (paper §2)
    std::vector<std::uint32_t> depends_on{};
  };

  /// `command` and `parameters_json` (a JSON object) go into the Meta chunk.
  TraceBuilder(std::string path, std::string pattern, std::string command,
               std::string parameters_json);
  ~TraceBuilder();
  TraceBuilder(const TraceBuilder&) = delete;
  TraceBuilder& operator=(const TraceBuilder&) = delete;

  // Declaration phase, before begin().
  void set_kernel(std::string name, std::vector<std::string> listing);
  /// Places an array after the previous one, 256-byte aligned; returns its index.
  std::uint32_t add_array(std::string name, std::uint64_t bytes);
  [[nodiscard]] std::uint64_t base(std::uint32_t array) const { return arrays_.at(array).base; }
  /// Returns the access's static id (0, 1, 2, ... in call order).
  std::uint32_t add_access(Access access);
  void set_launch(tracebuf::Dim3 grid, tracebuf::Dim3 block, std::uint64_t traced_blocks);
  /// A derived fact recorded under properties.facts (e.g. "nonzeros").
  void add_fact(std::string key, std::uint64_t value);
  /// A kernel argument of the listing, recorded as a kernel_arguments annotation
  /// (docs/footprints.md).
  void add_kernel_argument(std::string name, std::int64_t value);
  /// Writes meta, loads, allocations and the launch.
  void begin();

  // Record phase: warps in (block, warp) order, each warp's records in program order.
  void begin_warp(std::uint32_t block, std::uint32_t warp);
  /// Appends a record of `access` with `active_mask` (non-zero); the caller sets the addresses of
  /// the active lanes. The reference is valid until the next add_record or end_warp.
  tracebuf::WarpRecord& add_record(std::uint32_t access, std::uint32_t active_mask);
  void end_warp();
  /// Writes the End chunk and returns the totals.
  SynthSummary finish();

 private:
  struct Array {
    std::string name;
    std::uint64_t base = 0;
    std::uint64_t bytes = 0;
  };

  void flush();

  std::string path_;
  std::string pattern_;
  std::string command_;
  std::string parameters_json_;
  std::string kernel_;
  std::vector<std::string> listing_;
  std::vector<Array> arrays_;
  std::vector<tracebuf::LoadInfo> loads_;
  std::vector<std::pair<std::string, std::uint64_t>> facts_;
  std::vector<std::pair<std::string, std::int64_t>> arguments_;
  tracebuf::LaunchInfo launch_;
  std::unique_ptr<tracebuf::TraceWriter> writer_;
  std::uint32_t launch_index_ = 0;
  std::uint64_t next_base_;
  bool in_warp_ = false;
  std::uint32_t block_ = 0;
  std::uint32_t warp_ = 0;
  std::uint64_t warp_records_ = 0;
  std::vector<tracebuf::WarpRecord> pending_;
  SynthSummary summary_;
};

}  // namespace memcarlo::synth
