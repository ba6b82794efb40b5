// Estimated against traced footprints per page x module (footprint.hpp): TAFE's Fig. 11 cells,
// of the allocations each launch uses.
#include <algorithm>
#include <bit>

#include "memcarlo/footprint/footprint.hpp"

namespace memcarlo::footprint {
namespace {

constexpr std::uint64_t kMaxPagesPerAllocation = std::uint64_t{1} << 26;

/// Marks bit `module` of every page of `pages` that `range` overlaps.
void mark(AllocationPages& pages, std::uint64_t page_bytes, std::uint64_t alloc_begin,
          std::uint64_t alloc_end, const ByteRange& range, std::uint32_t module,
          std::vector<std::uint64_t>& bits) {
  const std::uint64_t begin = std::max(range.begin, alloc_begin);
  const std::uint64_t end = std::min(range.end, alloc_end);
  if (begin >= end)
    return;
  const std::uint64_t first = begin / page_bytes - pages.first_page;
  const std::uint64_t last = (end - 1) / page_bytes - pages.first_page;
  for (std::uint64_t page = first; page <= last; ++page) {
    bits[page] |= std::uint64_t{1} << module;
  }
}

}  // namespace

Confusion& Confusion::operator+=(const Confusion& other) {
  true_positives += other.true_positives;
  false_positives += other.false_positives;
  false_negatives += other.false_negatives;
  true_negatives += other.true_negatives;
  return *this;
}

double Confusion::accuracy() const {
  const std::uint64_t all = cells();
  return all == 0 ? 1.0
                  : static_cast<double>(true_positives + true_negatives) / static_cast<double>(all);
}

FootprintComparison compare_footprints(const tracebuf::TraceReader& reader,
                                       const LaunchFootprint& footprint,
                                       const std::vector<std::uint32_t>& block_module,
                                       std::uint32_t modules, std::uint64_t page_bytes) {
  if (modules == 0 || modules > 64) {
    throw std::invalid_argument("footprint comparison: modules must be 1..64, got " +
                                std::to_string(modules));
  }
  if (page_bytes == 0) {
    throw std::invalid_argument("footprint comparison: the page size must be positive");
  }
  if (block_module.size() != footprint.blocks.size()) {
    throw std::invalid_argument("footprint comparison: a module for each of the " +
                                std::to_string(footprint.blocks.size()) + " blocks is needed");
  }
  FootprintComparison out;
  out.page_bytes = page_bytes;
  out.modules = modules;
  for (const tracebuf::Allocation& allocation : reader.allocations()) {
    if (allocation.size == 0)
      continue;
    AllocationPages pages;
    pages.name =
        allocation.name.empty() ? "allocation " + std::to_string(allocation.id) : allocation.name;
    pages.first_page = allocation.base / page_bytes;
    pages.pages = (allocation.base + allocation.size - 1) / page_bytes - pages.first_page + 1;
    if (pages.pages > kMaxPagesPerAllocation) {
      throw MissingInformation(reader.path() + ": allocation " + pages.name + " spans " +
                               std::to_string(pages.pages) + " pages of " +
                               std::to_string(page_bytes) +
                               " bytes, more than the comparison holds; use a larger --page");
    }
    pages.modules = modules;
    pages.estimated.assign(pages.pages, 0);
    pages.actual.assign(pages.pages, 0);
    const std::uint64_t end = allocation.base + allocation.size;
    for (std::size_t b = 0; b < footprint.blocks.size(); ++b) {
      const std::uint32_t module = block_module[b];
      if (module >= modules) {
        throw std::invalid_argument("footprint comparison: module " + std::to_string(module) +
                                    " of " + std::to_string(modules));
      }
      for (const ByteRange& range : footprint.blocks[b].estimated) {
        mark(pages, page_bytes, allocation.base, end, range, module, pages.estimated);
      }
      for (const ByteRange& range : footprint.blocks[b].actual) {
        mark(pages, page_bytes, allocation.base, end, range, module, pages.actual);
      }
    }
    // An allocation the launch neither touches nor is estimated to touch has only true
    // negatives, which would inflate the accuracy of every launch that leaves it alone.
    const auto any = [](const std::vector<std::uint64_t>& bits) {
      return std::any_of(bits.begin(), bits.end(), [](std::uint64_t b) { return b != 0; });
    };
    if (!any(pages.estimated) && !any(pages.actual)) {
      continue;
    }
    const std::uint64_t all = modules == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << modules) - 1;
    for (std::uint64_t p = 0; p < pages.pages; ++p) {
      const std::uint64_t e = pages.estimated[p];
      const std::uint64_t a = pages.actual[p];
      pages.confusion.true_positives += static_cast<std::uint64_t>(std::popcount(e & a));
      pages.confusion.false_positives += static_cast<std::uint64_t>(std::popcount(e & ~a));
      pages.confusion.false_negatives += static_cast<std::uint64_t>(std::popcount(~e & a));
      pages.confusion.true_negatives += static_cast<std::uint64_t>(std::popcount(~e & ~a & all));
    }
    out.overall += pages.confusion;
    out.allocations.push_back(std::move(pages));
  }
  // Lane bytes that lie in no allocation (not cells of the comparison, but worth reporting).
  std::vector<ByteRange> inside;
  for (const tracebuf::Allocation& allocation : reader.allocations()) {
    inside.push_back({allocation.base, allocation.base + allocation.size});
  }
  std::sort(inside.begin(), inside.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
  for (const BlockFootprint& block : footprint.blocks) {
    for (const ByteRange& range : block.actual) {
      std::uint64_t covered = 0;
      for (const ByteRange& allocation : inside) {
        const std::uint64_t begin = std::max(range.begin, allocation.begin);
        const std::uint64_t finish = std::min(range.end, allocation.end);
        if (begin < finish)
          covered += finish - begin;
      }
      out.actual_bytes_outside_allocations += range.end - range.begin - covered;
    }
  }
  return out;
}

}  // namespace memcarlo::footprint
