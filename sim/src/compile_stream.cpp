// Phase 1 of trace compilation: coalescing (paper §3.2.2: a warp instruction becomes one
// transaction per distinct L1 line) and bulk sequences (paper §2) of one warp stream.
#include "compile_stream.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace memcarlo::sim::detail {

AllocationIndex::AllocationIndex(const std::vector<tracebuf::Allocation>& allocations,
                                 std::vector<std::string>& names) {
  for (const auto& a : allocations) {
    if (names.size() >= kNoAllocation) {
      break;
    }
    ranges_.push_back({a.base, a.size, static_cast<std::uint16_t>(names.size())});
    names.push_back(a.name.empty() ? "allocation " + std::to_string(a.id) : a.name);
  }
  std::sort(ranges_.begin(), ranges_.end(),
            [](const Range& x, const Range& y) { return x.base < y.base; });
}

std::uint16_t AllocationIndex::find(std::uint64_t address) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                             [](std::uint64_t a, const Range& r) { return a < r.base; });
  if (it == ranges_.begin()) {
    return kNoAllocation;
  }
  --it;
  return address - it->base < it->size ? it->index : kNoAllocation;
}

void DenseIds::clear() {
  // Sized for as many keys as the last stream had: neighbouring streams are alike, and a table
  // grown anew for each would rehash its keys a few times over.
  resize(std::max(kInitialSize, std::bit_ceil(2 * (keys_.size() + 1))));
  keys_.clear();
}

void DenseIds::resize(std::size_t size) {
  table_.assign(size, Entry{kEmpty, 0});  // keeps the capacity of a larger table
  mask_ = size - 1;
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(size));
}

void DenseIds::grow() {
  resize(2 * table_.size());
  for (std::uint32_t id = 0; id < keys_.size(); ++id) {
    std::size_t at = slot(keys_[id]);
    while (table_[at].key != kEmpty) {
      at = (at + 1) & mask_;
    }
    table_[at] = {keys_[id], id};
  }
}

StreamCompiler::StreamCompiler(const std::vector<tracebuf::LoadInfo>& loads,
                               const AllocationIndex& allocations,
                               const CoalescingGeometry& geometry, bool access_sites)
    : loads_(loads), allocations_(allocations), geometry_(geometry), access_sites_(access_sites) {}

void StreamCompiler::compile(const tracebuf::WarpStream& stream, CompiledStream& out,
                             std::vector<LoadStatic>& load_totals) {
  transactions_.clear();
  bulks_.clear();
  sites_.clear();
  line_ids_.clear();
  slot_ids_.clear();
  word_ids_.clear();
  line_allocation_.clear();
  line_set_.clear();
  line_word_bit_.clear();
  word_lines_.clear();
  last_slot_key_ = kNoSlotKey;
  try {
    compile_records(stream, load_totals);
  } catch (const std::invalid_argument& error) {
    out = CompiledStream{};
    out.error = error.what();
    return;
  }
  finish(out);
}

void StreamCompiler::compile_records(const tracebuf::WarpStream& stream,
                                     std::vector<LoadStatic>& load_totals) {
  Bulk bulk{};
  bool open = false;
  std::int64_t sequence = -2;
  bulk_loads_.clear();
  auto close = [&] {
    if (open) {
      bulks_.push_back(bulk);
      open = false;
    }
  };
  stream.for_each([&](const tracebuf::RecordView& record) {
    const std::uint32_t id = record.static_id();
    if (id >= loads_.size()) {
      throw std::invalid_argument("record static id " + std::to_string(id) +
                                  " is not in the loads table");
    }
    const tracebuf::LoadInfo& load = loads_[id];
    const bool repeated =
        std::find(bulk_loads_.begin(), bulk_loads_.end(), id) != bulk_loads_.end();
    bool depends = false;
    for (std::uint32_t d : load.depends_on) {
      depends =
          depends || std::find(bulk_loads_.begin(), bulk_loads_.end(), d) != bulk_loads_.end();
    }
    const bool other_sequence = load.sequence >= 0 && load.sequence != sequence;
    if (!open || record.barriers() > 0 || repeated || depends || other_sequence) {
      close();
      bulk = Bulk{static_cast<std::uint32_t>(transactions_.size()), 0,
                  static_cast<std::uint8_t>(std::min(record.barriers(), 255u)), 0, {0, 0}};
      bulk_loads_.clear();
      open = true;
      sequence = load.sequence;
    }
    bulk_loads_.push_back(id);
    if (record.kind() != tracebuf::AccessKind::kWrite) {
      bulk.has_loads = 1;
    }
    const std::size_t before = transactions_.size();
    coalesce(record, id);
    const std::size_t added = transactions_.size() - before;
    if (access_sites_) {
      add_sites(record, added);
    }
    bulk.transaction_count += static_cast<std::uint32_t>(added);
    LoadStatic& totals = load_totals[id];
    ++totals.requests;
    totals.transactions += added;
    totals.lane_accesses += record.active_lanes();
  });
  close();
}

void StreamCompiler::coalesce(const tracebuf::RecordView& record, std::uint32_t id) {
  const Divisor l1_line = geometry_.l1_line;
  const Divisor l2_sector = geometry_.l2_sector;
  std::array<Piece, 2 * tracebuf::kWarpSize> pieces;
  std::size_t count = 0;
  std::size_t last = 0;             // the piece the previous chunk went to
  std::uint64_t highest_line = 0;   // of the pieces so far: a line above it is a new piece
  const std::uint64_t size = record.element_size();
  record.for_each_address([&](unsigned, std::uint64_t address) {
    const std::uint64_t last_chunk = l2_sector.quotient(address + size - 1);
    for (std::uint64_t chunk = l2_sector.quotient(address); chunk <= last_chunk; ++chunk) {
      const std::uint64_t byte = chunk * l2_sector.value();
      const std::uint64_t line = l1_line.quotient(byte);
      // Lanes mostly go to their neighbour's line (coalesced) or to lines above it (strided).
      if (count == 0 || pieces[last].line_number != line) {
        std::size_t found = count;
        if (count != 0 && line <= highest_line) {
          for (found = 0; found < count && pieces[found].line_number != line; ++found) {
          }
        }
        if (found == count) {
          if (count == pieces.size()) {
            throw std::invalid_argument("a warp access spans more than 64 lines");
          }
          pieces[count++] = {line, 0, 0};  // full_sectors: mark_full_sectors, for stores
          highest_line = std::max(highest_line, line);
        }
        last = found;
      }
      pieces[last].l2_sectors |=
          static_cast<std::uint8_t>(1u << l2_sector.quotient(l1_line.remainder(byte)));
    }
  });
  std::sort(pieces.begin(), pieces.begin() + static_cast<std::ptrdiff_t>(count),
            [](const Piece& a, const Piece& b) { return a.line_number < b.line_number; });
  const tracebuf::AccessKind kind = record.kind();
  if (kind == tracebuf::AccessKind::kWrite) {
    mark_full_sectors(record, pieces.data(), count);
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t line_number = pieces[i].line_number;
    const std::size_t lines_before = line_ids_.keys().size();
    const std::uint32_t line = line_ids_.id(line_number);
    if (line_ids_.keys().size() != lines_before) {  // new to this stream
      line_allocation_.push_back(allocations_.find(line_number * l1_line.value()));
      line_set_.push_back(static_cast<std::uint16_t>(geometry_.l1_sets.remainder(line_number)));
      const std::uint32_t word = word_ids_.id(line_number / 64);
      if (word == word_lines_.size()) {
        if (word == kMaxWords) {
          throw std::invalid_argument(
              "a warp stream touches lines in more than 2^26 distinct 64-line groups");
        }
        word_lines_.push_back(0);
      }
      word_lines_[word] |= std::uint64_t{1} << (line_number % 64);
      line_word_bit_.push_back(word << 6 | static_cast<std::uint32_t>(line_number % 64));
    }
    // Static id: 32 bits, allocation: 16 bits (the kernel, the same for the whole stream, is
    // added when the slots are numbered over the trace).
    const std::uint64_t slot_key = std::uint64_t{id} << 16 | line_allocation_[line];
    if (slot_key != last_slot_key_) {
      last_slot_key_ = slot_key;
      last_slot_ = slot_ids_.id(slot_key);
      if (slot_ids_.keys().size() > Transaction::kMaxSlots) {
        require_counter_slots_fit(slot_ids_.keys().size());
      }
    }
    transactions_.push_back({line, Transaction::pack(last_slot_, kind),
                             line_set_[line], pieces[i].l2_sectors, pieces[i].full_sectors});
  }
}

/// Sets each piece's full_sectors: the L1 sectors whose every byte some active lane of the
/// store writes (lanes may overlap, so the lanes' byte ranges are merged first). `pieces` is
/// sorted by line.
void StreamCompiler::mark_full_sectors(const tracebuf::RecordView& record, Piece* pieces,
                                       std::size_t count) const {
  const Divisor l1_line = geometry_.l1_line;
  const Divisor l1_sector = geometry_.l1_sector;
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
      const std::uint64_t sector_end = (l1_sector.quotient(at) + 1) * l1_sector.value();
      const std::uint64_t stop = std::min(end, sector_end);
      const std::uint64_t line = l1_line.quotient(at);
      for (std::size_t i = 0; i < count; ++i) {
        if (pieces[i].line_number == line) {
          covered[i][l1_sector.quotient(l1_line.remainder(at))] +=
              static_cast<std::uint32_t>(stop - at);
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
      if (covered[i][sector] == l1_sector.value()) {
        pieces[i].full_sectors |= static_cast<std::uint8_t>(1u << sector);
      }
    }
  }
}

void StreamCompiler::add_sites(const tracebuf::RecordView& record, std::size_t count) {
  AccessSite site{0, 0, AccessSite::kUniformStride | AccessSite::kFirstOfInstruction, {0, 0, 0}};
  // Uniform: every active lane at base + (lane - first lane) * stride, for one stride that fits
  // 32 bits (one active lane is uniform with stride 0).
  unsigned first_lane = 0;
  std::int64_t stride = 0;
  bool first = true;
  bool have_stride = false;
  record.for_each_address([&](unsigned lane, std::uint64_t address) {
    if (first) {
      first = false;
      first_lane = lane;
      site.base_address = address;
      return;
    }
    const auto offset = static_cast<std::int64_t>(address - site.base_address);
    const auto lanes = static_cast<std::int64_t>(lane - first_lane);
    if (!have_stride) {
      have_stride = true;
      stride = offset / lanes;
    }
    if (offset != stride * lanes) {
      site.flags &= static_cast<std::uint8_t>(~AccessSite::kUniformStride);
    }
  });
  const bool fits = stride >= std::numeric_limits<std::int32_t>::min() &&
                    stride <= std::numeric_limits<std::int32_t>::max();
  if ((site.flags & AccessSite::kUniformStride) != 0 && fits) {
    site.stride = static_cast<std::int32_t>(stride);
  } else {
    site.flags &= static_cast<std::uint8_t>(~AccessSite::kUniformStride);
  }
  for (std::size_t i = 0; i < count; ++i) {
    sites_.push_back(site);
    site.flags &= static_cast<std::uint8_t>(~AccessSite::kFirstOfInstruction);
  }
}

/// Copies the scratch out, sized exactly.
void StreamCompiler::finish(CompiledStream& out) {
  if (!transactions_.empty()) {
    Transaction* at = slabs_.empty() ? nullptr : slabs_.back()->take(transactions_.size());
    if (at == nullptr) {
      slabs_.push_back(std::make_unique<TransactionSlab>(
          std::max(TransactionSlab::kTransactions, transactions_.size())));
      at = slabs_.back()->take(transactions_.size());
    }
    std::copy(transactions_.begin(), transactions_.end(), at);
    out.transactions = {at, transactions_.size()};
    out.slab = slabs_.back().get();
  }
  out.bulks.assign(bulks_.begin(), bulks_.end());
  out.sites.assign(sites_.begin(), sites_.end());
  out.line_word_bits.assign(line_word_bit_.begin(), line_word_bit_.end());
  out.words.assign(word_ids_.keys().begin(), word_ids_.keys().end());
  out.word_lines.assign(word_lines_.begin(), word_lines_.end());
  out.slot_keys.assign(slot_ids_.keys().begin(), slot_ids_.keys().end());
  out.error.clear();
}

}  // namespace memcarlo::sim::detail
