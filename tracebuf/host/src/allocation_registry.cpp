// The allocation registry: a reserved, never-reused address range for device and managed memory
// (deterministic addresses across runs) and the bookkeeping that traces and probes read.
#include "allocation_registry.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include "page_size.hpp"

namespace memcarlo::host::detail {
namespace {

constexpr std::uint64_t kAlignment = 256;  // cudaMalloc guarantees at least 256-byte alignment
// Where device memory lives when the address is free: above ASan's shadow on x86-64, so the
// same addresses are used with and without sanitizers. 4 TiB of address space, reserved only.
constexpr std::uint64_t kArenaHint = 0x200000000000ull;
constexpr std::uint64_t kArenaSize = std::uint64_t{1} << 42;
// Reserved below the arena and never handed out, so that a negative index into the first
// allocations (up to 1 GiB before them) is recognised as an out-of-bounds device access.
constexpr std::uint64_t kGuardBelow = std::uint64_t{1} << 30;

std::uint64_t round_up(std::uint64_t value, std::uint64_t to) {
  return (value + to - 1) / to * to;
}

}  // namespace

std::ptrdiff_t DeviceRanges::find(std::uint64_t address) const {
  const auto it = std::upper_bound(bases.begin(), bases.end(), address);
  if (it == bases.begin()) {
    return -1;
  }
  const auto index = std::distance(bases.begin(), it) - 1;
  return address < ends[static_cast<std::size_t>(index)] ? index : -1;
}

AllocationRegistry::AllocationRegistry() {
  // One reservation holds the guard and the arena above it.
  // NOLINTNEXTLINE(performance-no-int-to-ptr): a fixed address is the point.
  void* reserved =
      ::mmap(reinterpret_cast<void*>(kArenaHint - kGuardBelow), kGuardBelow + kArenaSize, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  std::uint64_t size = kArenaSize;
  if (reserved == MAP_FAILED) {
    // Somebody holds that range: any address will do, only run-to-run determinism is lost.
    // Where the address space is limited (ulimit -v, ThreadSanitizer's layout), a smaller arena,
    // down to 16 GiB, still keeps freed device addresses from being reused.
    for (; reserved == MAP_FAILED && size >= (std::uint64_t{1} << 34); size /= 2) {
      reserved = ::mmap(nullptr, kGuardBelow + size, PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (reserved != MAP_FAILED) {
        break;
      }
    }
  }
  if (reserved != MAP_FAILED) {
    arena_ = static_cast<std::byte*>(reserved) + kGuardBelow;
    arena_base_ = reinterpret_cast<std::uint64_t>(arena_);
    arena_size_ = size;
    arena_next_ = arena_base_;
    window_ = DeviceWindow{reinterpret_cast<std::uint64_t>(reserved), kGuardBelow + size};
  }
  auto empty = std::make_shared<DeviceRanges>();
  empty->generation = ++generation_;
  ranges_ = std::move(empty);
}

void AllocationRegistry::open_below_first(std::uint64_t bytes) {
  bytes = std::min(round_up(bytes, page_size()), kGuardBelow);
  if (arena_size_ != 0) {
    static_cast<void>(::mprotect(arena_ - bytes, bytes, PROT_READ | PROT_WRITE));
  }
}

void* AllocationRegistry::allocate_device_range(std::uint64_t size) {
  const std::uint64_t base = round_up(arena_next_, kAlignment);
  if (arena_size_ != 0 && base + size <= arena_base_ + arena_size_) {
    // Make the pages under [base, base + size) usable; neighbours may share the edge pages.
    const std::uint64_t first_page = base / page_size() * page_size();
    const std::uint64_t end_page = round_up(base + size, page_size());
    if (::mprotect(arena_ + (first_page - arena_base_), end_page - first_page,
                   PROT_READ | PROT_WRITE) == 0) {
      arena_next_ = base + size;
      return arena_ + (base - arena_base_);
    }
    return nullptr;
  }
  // The arena is spent (or was never had): ordinary heap memory, still registered.
  return std::aligned_alloc(kAlignment, round_up(size, kAlignment));
}

void AllocationRegistry::release_device_range(void* pointer, std::uint64_t size) {
  const auto base = reinterpret_cast<std::uint64_t>(pointer);
  if (base >= arena_base_ && base < arena_base_ + arena_size_) {
    // Give back the pages that lie wholly inside the allocation, and make them inaccessible so
    // that a use after cudaFree faults instead of reading stale data. Should the kernel refuse,
    // the pages merely stay mapped: the addresses are never handed out again either way.
    const std::uint64_t first = round_up(base, page_size());
    const std::uint64_t last = (base + size) / page_size() * page_size();
    if (last > first) {
      static_cast<void>(::mmap(arena_ + (first - arena_base_), last - first, PROT_NONE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0));
    }
    return;
  }
  std::free(pointer);
}

void* AllocationRegistry::allocate(std::uint64_t size, MemoryKind kind, std::string name) {
  std::lock_guard lock(mutex_);
  const std::uint64_t bytes = std::max<std::uint64_t>(size, 1);
  void* pointer = kind == MemoryKind::kPinnedHost
                      ? std::aligned_alloc(kAlignment, round_up(bytes, kAlignment))
                      : allocate_device_range(bytes);
  if (pointer == nullptr) {
    return nullptr;
  }
  live_[reinterpret_cast<std::uint64_t>(pointer)] = Entry{next_id_++, size, kind, std::move(name)};
  if (kind == MemoryKind::kDevice || kind == MemoryKind::kManaged) {
    ranges_.reset();
  }
  return pointer;
}

bool AllocationRegistry::release(const void* pointer, std::initializer_list<MemoryKind> accepted) {
  std::lock_guard lock(mutex_);
  const auto it = live_.find(reinterpret_cast<std::uint64_t>(pointer));
  if (it == live_.end() ||
      std::find(accepted.begin(), accepted.end(), it->second.kind) == accepted.end()) {
    return false;
  }
  const std::uint64_t bytes = std::max<std::uint64_t>(it->second.size, 1);
  if (it->second.kind == MemoryKind::kPinnedHost) {
    std::free(const_cast<void*>(pointer));
  } else {
    release_device_range(const_cast<void*>(pointer), bytes);
    ranges_.reset();
    freed_.insert(*it);
  }
  live_.erase(it);
  return true;
}

void AllocationRegistry::set_name(const void* base, std::string name) {
  std::lock_guard lock(mutex_);
  if (const auto it = live_.find(reinterpret_cast<std::uint64_t>(base)); it != live_.end()) {
    it->second.name = std::move(name);
    ranges_.reset();  // the snapshot carries the names
  }
}

void AllocationRegistry::add_symbol(const void* base, std::uint64_t size) {
  std::lock_guard lock(mutex_);
  const auto address = reinterpret_cast<std::uint64_t>(base);
  if (!live_.contains(address)) {
    live_[address] = Entry{next_id_++, size, MemoryKind::kSymbol, "", true};
  }
}

std::map<std::uint64_t, AllocationRegistry::Entry>::const_iterator AllocationRegistry::at_or_below(
    std::uint64_t address) const {
  auto it = live_.upper_bound(address);
  return it == live_.begin() ? live_.end() : std::prev(it);
}

std::optional<MemoryKind> AllocationRegistry::kind_of(const void* pointer,
                                                      std::uint64_t size) const {
  std::lock_guard lock(mutex_);
  const auto address = reinterpret_cast<std::uint64_t>(pointer);
  const auto it = at_or_below(address);
  if (it == live_.end()) {
    return std::nullopt;
  }
  // A zero-byte allocation still owns its base address.
  const std::uint64_t end = it->first + std::max<std::uint64_t>(it->second.size, 1);
  if (address >= end || size > end - address) {
    return std::nullopt;
  }
  return it->second.kind;
}

std::optional<std::uint64_t> AllocationRegistry::bytes_after(const void* pointer) const {
  std::lock_guard lock(mutex_);
  const auto address = reinterpret_cast<std::uint64_t>(pointer);
  const auto it = at_or_below(address);
  if (it == live_.end() || address >= it->first + it->second.size) {
    return std::nullopt;
  }
  return it->first + it->second.size - address;
}

std::shared_ptr<const DeviceRanges> AllocationRegistry::device_ranges() {
  std::lock_guard lock(mutex_);
  if (!ranges_) {
    auto ranges = std::make_shared<DeviceRanges>();
    ranges->generation = ++generation_;
    for (const auto& [base, entry] : live_) {
      if (entry.kind == MemoryKind::kDevice || entry.kind == MemoryKind::kManaged) {
        ranges->bases.push_back(base);
        ranges->ends.push_back(base + std::max<std::uint64_t>(entry.size, 1));
        ranges->names.push_back(entry.name);
      }
    }
    ranges_ = std::move(ranges);
  }
  return ranges_;
}

namespace {

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

std::string describe_allocation(const std::string& name, std::uint32_t id, std::uint64_t base,
                                std::uint64_t size) {
  const std::string what =
      name.empty() ? "allocation #" + std::to_string(id) : "allocation '" + name + "'";
  return what + " (" + std::to_string(size) + " bytes at " + hex(base) + ")";
}

std::string AllocationRegistry::describe_device_address(std::uint64_t address,
                                                        std::uint64_t size) const {
  std::lock_guard lock(mutex_);
  const std::uint64_t end = address + std::max<std::uint64_t>(size, 1);
  const auto is_device = [](const Entry& entry) {
    return entry.kind == MemoryKind::kDevice || entry.kind == MemoryKind::kManaged;
  };
  // A released range is never handed out again, so an address inside one is a use after free.
  if (auto freed = freed_.upper_bound(address); freed != freed_.begin()) {
    --freed;
    if (address < freed->first + std::max<std::uint64_t>(freed->second.size, 1)) {
      return "lies in " +
             describe_allocation(freed->second.name, freed->second.id, freed->first,
                                 freed->second.size) +
             ", which cudaFree released";
    }
  }
  // The nearest live allocation below (the one overrun) and above (the one underrun).
  const Entry* below = nullptr;
  std::uint64_t below_base = 0;
  for (auto it = live_.upper_bound(address); it != live_.begin();) {
    --it;
    if (is_device(it->second)) {
      below = &it->second;
      below_base = it->first;
      break;
    }
  }
  const Entry* above = nullptr;
  std::uint64_t above_base = 0;
  for (auto it = live_.upper_bound(address); it != live_.end(); ++it) {
    if (is_device(it->second)) {
      above = &it->second;
      above_base = it->first;
      break;
    }
  }
  const std::uint64_t below_end =
      below != nullptr ? below_base + std::max<std::uint64_t>(below->size, 1) : 0;
  const std::uint64_t after_below =
      below != nullptr && address >= below_end ? address - below_end : 0;
  const std::uint64_t before_above = above != nullptr && end <= above_base ? above_base - end : 0;
  if (below != nullptr && address < below_end) {
    return "overruns the end of " +
           describe_allocation(below->name, below->id, below_base, below->size) + " by " +
           std::to_string(end - below_end) + " bytes";
  }
  if (above != nullptr && end > above_base) {
    return "begins " + std::to_string(above_base - address) + " bytes before the start of " +
           describe_allocation(above->name, above->id, above_base, above->size);
  }
  if (below != nullptr && (above == nullptr || after_below <= before_above)) {
    return "begins " + std::to_string(after_below) + " bytes after the end of " +
           describe_allocation(below->name, below->id, below_base, below->size);
  }
  if (above != nullptr) {
    return "ends " + std::to_string(before_above) + " bytes before the start of " +
           describe_allocation(above->name, above->id, above_base, above->size);
  }
  return "lies in device address space where no allocation is live";
}

std::vector<tracebuf::Allocation> AllocationRegistry::take_unlisted() {
  std::lock_guard lock(mutex_);
  std::vector<tracebuf::Allocation> unlisted;
  for (auto& [base, entry] : live_) {
    if ((entry.kind == MemoryKind::kDevice || entry.kind == MemoryKind::kManaged) &&
        !entry.listed) {
      unlisted.push_back({entry.id, base, entry.size, entry.name});
      entry.listed = true;
    }
  }
  return unlisted;
}

void AllocationRegistry::mark_all_unlisted() {
  std::lock_guard lock(mutex_);
  for (auto& [base, entry] : live_) {
    entry.listed = entry.kind == MemoryKind::kSymbol || entry.kind == MemoryKind::kPinnedHost;
  }
}

AllocationRegistry& allocations() {
  // Never destroyed: blocks on worker threads may still probe while the process exits.
  static AllocationRegistry* registry = new AllocationRegistry();
  return *registry;
}

std::string allocation_name_from_call(const char* call_text) {
  std::string_view text = call_text != nullptr ? call_text : "";
  // The first top-level argument.
  int depth = 0;
  std::size_t end = 0;
  for (; end < text.size(); ++end) {
    const char c = text[end];
    if (c == '(' || c == '[' || c == '<' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '>' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      break;
    }
  }
  text = text.substr(0, end);
  const auto trim = [&text] {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
      text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
      text.remove_suffix(1);
    }
  };
  // Peel casts ("(void**)", "reinterpret_cast<void**>(...)"), '&' and redundant parentheses.
  for (bool changed = true; changed && !text.empty();) {
    changed = false;
    trim();
    if (text.starts_with("reinterpret_cast<") || text.starts_with("static_cast<")) {
      const std::size_t open = text.find('(');
      if (open == std::string_view::npos || text.back() != ')') {
        break;
      }
      text = text.substr(open + 1, text.size() - open - 2);
      changed = true;
    } else if (!text.empty() && text.front() == '&') {
      text.remove_prefix(1);
      changed = true;
    } else if (!text.empty() && text.front() == '(') {
      // Either parentheses around the whole argument or a C-style cast before it.
      std::size_t close = 0;
      for (int level = 0; close < text.size(); ++close) {
        level += text[close] == '(' ? 1 : (text[close] == ')' ? -1 : 0);
        if (level == 0) {
          break;
        }
      }
      if (close >= text.size()) {
        break;
      }
      text = close + 1 == text.size() ? text.substr(1, text.size() - 2) : text.substr(close + 1);
      changed = true;
    }
  }
  return std::string(text);
}

}  // namespace memcarlo::host::detail
