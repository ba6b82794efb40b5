// TraceBuilder: assembles the loads table from the notional listing, lays out the arrays, and
// streams warp records to the writer in bounded batches while counting line transactions.
#include "trace_builder.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace memcarlo::synth {
namespace {

/// Arrays start here (4 GiB, so that addresses need more than 32 bits as on a real GPU) and are
/// packed one after the other at this alignment, the granularity cudaMalloc guarantees.
constexpr std::uint64_t kFirstBase = std::uint64_t{1} << 32;
constexpr std::uint64_t kArrayAlignment = 256;
/// A warp's records go to the writer in batches of this many, so memory stays bounded however
/// long a warp's stream is.
constexpr std::size_t kRecordsPerBatch = 4096;

std::uint64_t align_up(std::uint64_t value, std::uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// Distinct 128-byte lines touched by the active lanes. Lane addresses are element-aligned and
/// elements are at most 16 bytes, so no element straddles two lines.
unsigned distinct_lines(const tracebuf::WarpRecord& record) {
  std::array<std::uint64_t, tracebuf::kWarpSize> lines;
  unsigned count = 0;
  bool sorted = true;
  for (std::uint32_t mask = record.active_mask; mask != 0; mask &= mask - 1) {
    const std::uint64_t line = record.addresses[std::countr_zero(mask)] / kTransactionLineBytes;
    sorted = sorted && (count == 0 || lines[count - 1] <= line);
    lines[count++] = line;
  }
  if (!sorted) {
    std::sort(lines.begin(), lines.begin() + count);
  }
  return static_cast<unsigned>(std::unique(lines.begin(), lines.begin() + count) - lines.begin());
}

}  // namespace

std::string element_type_name(std::uint32_t element_size) {
  switch (element_size) {
    case 1:
      return "unsigned char";
    case 2:
      return "__half";
    case 4:
      return "float";
    case 8:
      return "double";
    case 16:
      return "float4";
    default:
      return "char[" + std::to_string(element_size) + "]";
  }
}

TraceBuilder::TraceBuilder(std::string path, std::string pattern, std::string command,
                           std::string parameters_json)
    : path_(std::move(path)),
      pattern_(std::move(pattern)),
      command_(std::move(command)),
      parameters_json_(std::move(parameters_json)),
      next_base_(kFirstBase) {
  pending_.reserve(kRecordsPerBatch);
}

TraceBuilder::~TraceBuilder() = default;

void TraceBuilder::set_kernel(std::string name, std::vector<std::string> listing) {
  kernel_ = std::move(name);
  listing_ = std::move(listing);
}

std::uint32_t TraceBuilder::add_array(std::string name, std::uint64_t bytes) {
  arrays_.push_back({std::move(name), next_base_, bytes});
  next_base_ = align_up(next_base_ + std::max<std::uint64_t>(bytes, 1), kArrayAlignment);
  return static_cast<std::uint32_t>(arrays_.size() - 1);
}

std::uint32_t TraceBuilder::add_access(Access access) {
  if (access.line == 0 || access.line > listing_.size()) {
    throw std::logic_error("synth " + pattern_ + ": access " + access.expression + " names line " +
                           std::to_string(access.line) + " outside the listing");
  }
  const std::size_t at = listing_[access.line - 1].find(access.expression);
  if (at == std::string::npos) {
    throw std::logic_error("synth " + pattern_ + ": " + access.expression + " is not on line " +
                           std::to_string(access.line) + " of the listing");
  }
  tracebuf::LoadInfo load;
  load.id = static_cast<std::uint32_t>(loads_.size());
  load.function = kernel_;
  load.kernels = {kernel_};
  load.file = "synthetic/" + pattern_ + ".cu";
  load.line = access.line;
  load.column = static_cast<std::uint32_t>(at + 1);
  load.expression = std::move(access.expression);
  load.kind = access.kind;
  load.element_type =
      access.element_type.empty() ? element_type_name(access.element_size) : access.element_type;
  load.element_size = access.element_size;
  load.base = arrays_.at(access.array).name;
  load.address_space = "global";
  load.loop_depth = access.loop_depth;
  load.sequence = access.sequence;
  load.depends_on = std::move(access.depends_on);
  if (!access.index_json.empty()) {
    load.extra_json = "{\"index\":" + access.index_json + "}";
  }
  loads_.push_back(std::move(load));
  return loads_.back().id;
}

void TraceBuilder::set_launch(tracebuf::Dim3 grid, tracebuf::Dim3 block,
                              std::uint64_t traced_blocks) {
  launch_.kernel = kernel_;
  launch_.grid = grid;
  launch_.block = block;
  launch_.snapshot_first_block = 0;
  launch_.snapshot_block_count = traced_blocks;
  summary_.blocks = traced_blocks;
}

void TraceBuilder::add_fact(std::string key, std::uint64_t value) {
  facts_.emplace_back(std::move(key), value);
}

void TraceBuilder::add_kernel_argument(std::string name, std::int64_t value) {
  arguments_.emplace_back(std::move(name), value);
}

void TraceBuilder::begin() {
  nlohmann::ordered_json properties;
  properties["generator"] = "memcarlo synth";
  properties["pattern"] = pattern_;
  properties["kernel"] = kernel_;
  properties["parameters"] = nlohmann::ordered_json::parse(parameters_json_);
  properties["facts"] = nlohmann::ordered_json::object();
  for (const auto& [key, value] : facts_) {
    properties["facts"][key] = value;
  }
  properties["file"] = "synthetic/" + pattern_ + ".cu";
  properties["listing"] = listing_;

  tracebuf::TraceMeta meta;
  meta.backend = "synthetic";
  meta.command = command_;
  meta.properties_json = properties.dump();
  writer_ = std::make_unique<tracebuf::TraceWriter>(path_, meta);
  writer_->write_loads(loads_);
  std::vector<tracebuf::Allocation> allocations;
  for (std::size_t i = 0; i < arrays_.size(); ++i) {
    allocations.push_back(
        {static_cast<std::uint32_t>(i), arrays_[i].base, arrays_[i].bytes, arrays_[i].name});
  }
  writer_->write_allocations(allocations);
  if (!arguments_.empty()) {
    nlohmann::ordered_json payload = nlohmann::ordered_json::object();
    for (const auto& [name, value] : arguments_) {
      payload[name] = value;
    }
    nlohmann::ordered_json annotation = {
        {"kind", "kernel_arguments"}, {"launch", 0}, {"payload", payload}};
    writer_->write_annotations(nlohmann::ordered_json::array({annotation}).dump());
  }
  launch_index_ = writer_->begin_launch(launch_);
  summary_.command = command_;
}

void TraceBuilder::begin_warp(std::uint32_t block, std::uint32_t warp) {
  if (in_warp_ || !writer_) {
    throw std::logic_error("synth: begin_warp outside the record phase or inside a warp");
  }
  in_warp_ = true;
  block_ = block;
  warp_ = warp;
  warp_records_ = 0;
}

tracebuf::WarpRecord& TraceBuilder::add_record(std::uint32_t access, std::uint32_t active_mask) {
  if (pending_.size() == kRecordsPerBatch) {
    flush();
  }
  const tracebuf::LoadInfo& load = loads_[access];
  tracebuf::WarpRecord& record = pending_.emplace_back();
  record.static_id = access;
  record.kind = load.kind;
  record.element_size = static_cast<std::uint8_t>(load.element_size);
  record.active_mask = active_mask;
  return record;
}

void TraceBuilder::flush() {
  if (pending_.empty()) {
    return;
  }
  for (const tracebuf::WarpRecord& record : pending_) {
    summary_.lane_accesses += static_cast<std::uint64_t>(std::popcount(record.active_mask));
    summary_.line_transactions += distinct_lines(record);
  }
  writer_->write_warp_records(launch_index_, block_, warp_, pending_);
  summary_.records += pending_.size();
  warp_records_ += pending_.size();
  pending_.clear();
}

void TraceBuilder::end_warp() {
  flush();
  if (warp_records_ > 0) {
    ++summary_.warp_streams;
  }
  in_warp_ = false;
}

SynthSummary TraceBuilder::finish() {
  if (in_warp_) {
    end_warp();
  }
  writer_->finish();
  return summary_;
}

}  // namespace memcarlo::synth
