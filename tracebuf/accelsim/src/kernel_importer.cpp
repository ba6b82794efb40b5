// Accel-Sim instruction streams to memcarlo records: block and warp structure, classification
// of each memory PC, generic-address resolution, barriers and the exporter's read-modify-writes.
#include "kernel_importer.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace memcarlo::accelsim::detail {
namespace {

using tracebuf::AccessKind;
using tracebuf::WarpRecord;

/// Generic addresses this far above the kernel's shared or local window base are in that window.
/// Real windows are far smaller (shared memory per block, local memory per thread), and the driver
/// maps no global memory near them.
constexpr std::uint64_t kWindowBytes = std::uint64_t{16} << 20;

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%04llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

std::uint32_t StaticIds::assign(PcEntry& entry, const std::string& kernel, std::uint64_t pc,
                                std::uint32_t source_line) {
  if (entry.static_id < 0) {
    tracebuf::LoadInfo load;
    load.id = static_cast<std::uint32_t>(loads.size());
    load.function = kernel;
    load.kernels = {kernel};
    load.line = source_line;
    load.expression = entry.opcode + " @ " + hex(pc);
    load.kind = entry.kind;
    load.element_size = entry.element_size;
    load.address_space = "global";
    load.extra_json = nlohmann::json{{"accelsim_pc", pc}, {"opcode", entry.opcode}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
    entry.static_id = load.id;
    loads.push_back(std::move(load));
  }
  return static_cast<std::uint32_t>(entry.static_id);
}

KernelImporter::KernelImporter(LineSource& source, const KernelHeader& header, std::uint32_t launch,
                               ImportContext context)
    : source_(source),
      header_(header),
      launch_(launch),
      context_(context),
      pcs_(context.ids.kernel(header.kernel_name)),
      layout_(header.layout),
      rmw_pcs_(header.rmw_pcs.begin(), header.rmw_pcs.end()) {
  const std::uint64_t threads = header.block.volume();
  warps_per_block_ = static_cast<std::uint32_t>((threads + 31) / 32);
  const auto last_lanes = static_cast<std::uint32_t>(threads - (warps_per_block_ - 1) * 32ULL);
  last_warp_mask_ = last_lanes >= 32 ? 0xFFFFFFFFu : (1u << last_lanes) - 1;
  batch_.reserve(kBatchRecords);
}

std::uint64_t KernelImporter::run(std::string_view first_line) {
  std::string_view line = first_line;
  bool have_line = !first_line.empty();
  std::uint64_t lines = 0;
  while (have_line || source_.next(line)) {
    have_line = false;
    on_line(line);
    if ((++lines & 0xFFF) == 0) {
      context_.progress();
    }
  }
  if (in_block_) {
    source_.fail("file ends inside thread block " + std::to_string(block_) + " (no #END_TB)");
  }
  return blocks_;
}

void KernelImporter::on_line(std::string_view line) {
  if (line.empty() || line.find_first_not_of(" \t") == std::string_view::npos) {
    return;
  }
  const char first = line.front();
  if (first == '#') {
    if (line.starts_with("#BEGIN_TB")) {
      if (in_block_) {
        source_.fail("#BEGIN_TB inside thread block " + std::to_string(block_) +
                     " (missing #END_TB)");
      }
      in_block_ = true;
      block_ = blocks_++;
      warps_seen_.assign(warps_per_block_, false);
    } else if (line.starts_with("#END_TB")) {
      require_block("#END_TB");
      end_warp();
      in_block_ = false;
      ++context_.stats.blocks;
    }
    return;  // any other '#' line is a comment
  }
  if (first == '-') {
    source_.fail("header line inside the instruction stream");
  }
  if (line.starts_with("thread block")) {
    require_block("'thread block = x,y,z'");
    unsigned x = 0, y = 0, z = 0;
    if (std::sscanf(std::string(line).c_str(), "thread block = %u,%u,%u", &x, &y, &z) != 3) {
      source_.fail("expected 'thread block = x,y,z'");
    }
    return;
  }
  if (line.starts_with("warp")) {
    require_block("'warp = n'");
    end_warp();
    unsigned warp = 0;
    if (std::sscanf(std::string(line).c_str(), "warp = %u", &warp) != 1) {
      source_.fail("expected 'warp = n'");
    }
    if (warp >= warps_per_block_) {
      source_.fail("warp " + std::to_string(warp) + ", but blocks of " +
                   std::to_string(header_.block.volume()) + " threads have " +
                   std::to_string(warps_per_block_) + " warps");
    }
    if (warps_seen_[warp]) {
      source_.fail("warp " + std::to_string(warp) + " appears twice in thread block " +
                   std::to_string(block_));
    }
    warps_seen_[warp] = true;
    warp_ = warp;
    in_warp_ = true;
    insts_line_ = 0;
    ++context_.stats.warps;
    return;
  }
  if (line.starts_with("insts")) {
    if (!in_warp_ || insts_line_ != 0) {
      source_.fail("'insts = n' must follow 'warp = n'");
    }
    unsigned long long count = 0;
    if (std::sscanf(std::string(line).c_str(), "insts = %llu", &count) != 1) {
      source_.fail("expected 'insts = n'");
    }
    declared_ = count;
    seen_ = 0;
    insts_line_ = source_.line_number();
    return;
  }
  on_instruction(line);
}

void KernelImporter::require_block(const char* what) {
  if (!in_block_) {
    source_.fail(std::string(what) + " outside a thread block (no #BEGIN_TB before it)");
  }
}

void KernelImporter::end_warp() {
  if (!in_warp_) {
    return;
  }
  if (pending_rmw_) {
    source_.fail("warp " + std::to_string(warp_) +
                 " ends after the load of a read-modify-write"
                 " (memcarlo rmw pcs) without its store");
  }
  if (insts_line_ != 0 && seen_ != declared_) {
    throw ImportError(source_.path(), insts_line_,
                      "warp " + std::to_string(warp_) +
                          " declares insts = " + std::to_string(declared_) + " but has " +
                          std::to_string(seen_) + " instruction lines");
  }
  flush();
  pending_barriers_ = 0;  // barriers after a warp's last access leave no trace in memcarlo
  in_warp_ = false;
}

void KernelImporter::flush() {
  if (!batch_.empty()) {
    context_.writer.write_warp_records(launch_, static_cast<std::uint32_t>(block_), warp_, batch_);
    context_.stats.records += batch_.size();
    batch_.clear();
  }
}

void KernelImporter::parse(std::string_view line) {
  try {
    detail::parse_instruction(line, layout_, instruction_);
  } catch (const LineError& error) {
    // Without a tracer version, the layout is decided on the first instruction line: old tracers
    // (version < 3) lead each line with the thread block and warp ids.
    if (layout_decided_ || header_.tracer_version) {
      source_.fail(error.what());
    }
    LineLayout prefixed = layout_;
    prefixed.block_prefix = true;
    try {
      parse_instruction(line, prefixed, instruction_);
    } catch (const LineError&) {
      source_.fail(error.what());
    }
    layout_ = prefixed;
  }
  layout_decided_ = true;
}

void KernelImporter::on_instruction(std::string_view line) {
  if (!in_warp_ || insts_line_ == 0) {
    source_.fail("instruction line outside a warp (expected 'warp = n' and 'insts = n' first)");
  }
  if (++seen_ > declared_) {
    source_.fail("more instruction lines than the warp's 'insts = " + std::to_string(declared_) +
                 "'");
  }
  parse(line);
  ImportStats& stats = context_.stats;
  ++stats.instructions;
  const Instruction& in = instruction_;
  if (pending_rmw_ && (in.width == 0 || in.pc != rmw_store_pc_)) {
    source_.fail("expected the store half of the read-modify-write at " + hex(rmw_store_pc_ - 16) +
                 " (memcarlo rmw pcs), found " + std::string(in.opcode) + " at " + hex(in.pc));
  }
  if (in.width == 0) {
    if (in.opcode.starts_with("BAR") && classify_opcode(in.opcode).barrier) {
      ++stats.barriers;
      ++pending_barriers_;
    }
    return;
  }
  ++stats.memory_instructions;
  PcEntry& entry = entry_for(in);
  if (entry.space != Space::kGlobal && entry.space != Space::kGeneric) {
    count_dropped(entry);
    return;
  }
  if (in.mask == 0) {
    ++stats.dropped_inactive;
    return;
  }
  const std::uint32_t mask = entry.space == Space::kGeneric ? global_lanes(in.mask) : in.mask;
  if (mask == 0) {
    return;
  }
  if (warp_ == warps_per_block_ - 1 && (mask & ~last_warp_mask_) != 0) {
    source_.fail("active mask " + hex(in.mask) + " has lanes beyond the block's " +
                 std::to_string(header_.block.volume()) + " threads");
  }
  if (pending_rmw_) {
    merge_rmw_store(entry, mask);
    return;
  }
  WarpRecord& record = batch_.emplace_back();
  record.static_id = context_.ids.assign(entry, header_.kernel_name, in.pc, in.source_line);
  record.kind = entry.kind;
  record.element_size = element_size_;
  record.barriers = static_cast<std::uint8_t>(std::min<std::uint32_t>(pending_barriers_, 255));
  pending_barriers_ = 0;
  record.active_mask = mask;
  for (std::uint32_t lanes = mask; lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(lanes));
    record.addresses[lane] = in.addresses[lane];
  }
  if (entry.kind == AccessKind::kReadModifyWrite) {
    pending_rmw_ = true;
    rmw_store_pc_ = in.pc + 16;
  } else if (batch_.size() >= kBatchRecords) {
    flush();
  }
}

void KernelImporter::merge_rmw_store(const PcEntry& store, std::uint32_t mask) {
  const WarpRecord& load = batch_.back();
  bool same = store.kind == AccessKind::kWrite && mask == load.active_mask &&
              element_size_ == load.element_size;
  for (std::uint32_t lanes = mask; same && lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(lanes));
    same = instruction_.addresses[lane] == load.addresses[lane];
  }
  if (!same) {
    source_.fail("the store of the read-modify-write at " + hex(rmw_store_pc_ - 16) +
                 " does not repeat its load's size, lanes and addresses");
  }
  pending_rmw_ = false;
  if (batch_.size() >= kBatchRecords) {
    flush();
  }
}

PcEntry& KernelImporter::entry_for(const Instruction& in) {
  auto [it, inserted] = pcs_.try_emplace(in.pc);
  PcEntry& entry = it->second;
  if (inserted) {
    const OpcodeInfo info = classify_opcode(in.opcode);
    entry.opcode = std::string(in.opcode);
    entry.space = info.space == Space::kNone ? Space::kOther : info.space;
    entry.kind = info.kind;
    entry.element_size = static_cast<std::uint8_t>(info.element_size);
    if (rmw_pcs_.contains(in.pc) && entry.space == Space::kGlobal &&
        entry.kind == AccessKind::kRead) {
      entry.kind = AccessKind::kReadModifyWrite;
    }
    if (entry.space == Space::kOther) {
      ++context_.other_opcodes[std::string(info.base)];
    }
    element_size_ = entry.element_size;
  } else if (entry.opcode == in.opcode) {
    element_size_ = entry.element_size;
  } else {
    // One PC is one instruction in a real trace; a producer that varies only the access size
    // (memcarlo exports a record's own size) is accepted, anything else is not.
    const OpcodeInfo info = classify_opcode(in.opcode);
    const AccessKind base_kind =
        entry.kind == AccessKind::kReadModifyWrite ? AccessKind::kRead : entry.kind;
    if (info.space != entry.space || info.kind != base_kind) {
      source_.fail("PC " + hex(in.pc) + " is " + std::string(in.opcode) + " here but " +
                   entry.opcode + " earlier in kernel " + header_.kernel_name);
    }
    element_size_ = static_cast<std::uint8_t>(info.element_size);
  }
  return entry;
}

void KernelImporter::count_dropped(const PcEntry& entry) {
  ImportStats& stats = context_.stats;
  switch (entry.space) {
    case Space::kShared:
      ++stats.dropped_shared;
      break;
    case Space::kLocal:
      ++stats.dropped_local;
      break;
    case Space::kConstant:
      ++stats.dropped_constant;
      break;
    case Space::kTexture:
      ++stats.dropped_texture;
      break;
    default:
      ++stats.dropped_other;
  }
}

std::uint32_t KernelImporter::global_lanes(std::uint32_t mask) {
  const std::uint64_t shared = header_.shared_window_base;
  const std::uint64_t local = header_.local_window_base;
  if (shared == 0 && local == 0) {
    ++context_.generic_without_windows;
    return mask;
  }
  std::uint32_t kept = mask, in_shared = 0;
  for (std::uint32_t lanes = mask; lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(lanes));
    const std::uint64_t address = instruction_.addresses[lane];
    const bool is_shared = shared != 0 && address - shared < kWindowBytes;
    const bool is_local = local != 0 && address - local < kWindowBytes;
    if (is_shared || is_local) {
      kept &= ~(1u << lane);
      in_shared += is_shared ? 1 : 0;
      ++context_.stats.generic_lanes_dropped;
    }
  }
  if (kept == 0) {
    in_shared > 0 ? ++context_.stats.dropped_shared : ++context_.stats.dropped_local;
  }
  return kept;
}

}  // namespace memcarlo::accelsim::detail
