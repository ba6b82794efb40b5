// Every allocation the emulated CUDA runtime hands out. Device and managed memory come from one
// reserved address range, bump-allocated and never reused, so that a trace's addresses are the
// same from run to run and a freed range never aliases a later allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::host::detail {

enum class MemoryKind : std::uint8_t {
  kDevice,
  kManaged,
  kPinnedHost,
  kSymbol,  // a __device__/__constant__ variable whose address the program took; not traced
};

/// The live device and managed ranges at one moment, sorted; what probes test addresses against.
/// Immutable once made, so that the crash handler may read it from a signal handler.
struct DeviceRanges {
  std::uint64_t generation = 0;  // distinct for every snapshot the process ever makes
  std::vector<std::uint64_t> bases;
  std::vector<std::uint64_t> ends;
  std::vector<std::string> names;  // the allocation's variable name, or empty
  /// Index of the range holding [address, address + 1), or -1.
  [[nodiscard]] std::ptrdiff_t find(std::uint64_t address) const;
};

/// The addresses device and managed memory can have: the reserved arena and a guard range below
/// it, none of which is anything but device memory. A probed access that falls here and in no
/// live allocation is out of bounds (docs/host-runtime.md, "Bounds checks"). Fixed for the
/// process; empty when the arena could not be reserved.
struct DeviceWindow {
  std::uint64_t begin = 0;
  std::uint64_t size = 0;  // [begin, begin + size)
};

class AllocationRegistry {
 public:
  AllocationRegistry();
  AllocationRegistry(const AllocationRegistry&) = delete;
  AllocationRegistry& operator=(const AllocationRegistry&) = delete;

  /// Returns nullptr when the memory cannot be had. Device and managed memory is 256-byte aligned.
  void* allocate(std::uint64_t size, MemoryKind kind, std::string name);
  /// Releases an allocation of one of the `accepted` kinds; false if `pointer` is not the base
  /// of a live one (the caller reports cudaErrorInvalidValue).
  bool release(const void* pointer, std::initializer_list<MemoryKind> accepted);
  void set_name(const void* base, std::string name);
  /// Records a symbol's storage, so that copies through cudaGetSymbolAddress pointers validate.
  void add_symbol(const void* base, std::uint64_t size);

  /// The kind of the live allocation containing [pointer, pointer + size), if any.
  std::optional<MemoryKind> kind_of(const void* pointer, std::uint64_t size = 1) const;
  /// Bytes from `pointer` to the end of the live allocation containing it, if any.
  std::optional<std::uint64_t> bytes_after(const void* pointer) const;
  /// Snapshot for probes; rebuilt only after allocations changed.
  std::shared_ptr<const DeviceRanges> device_ranges();

  [[nodiscard]] DeviceWindow device_window() const { return window_; }
  /// With the bounds check off: the `bytes` of the guard just below the first allocation read
  /// as zeros and take writes, as device memory mapped below an allocation does on a GPU (Rodinia
  /// srad_v2 reads a row before its image and overwrites the value). Addresses do not move.
  void open_below_first(std::uint64_t bytes);
  /// Where [address, address + size) lies relative to the device allocations, for messages:
  /// "begins 4 bytes after the end of allocation 'x' (4096 bytes at 0x200000000000)", or inside a
  /// freed one.
  [[nodiscard]] std::string describe_device_address(std::uint64_t address,
                                                    std::uint64_t size) const;

  /// Device and managed allocations not yet listed in the current trace (then marked listed).
  std::vector<tracebuf::Allocation> take_unlisted();
  /// A new trace starts: every live allocation must be listed again.
  void mark_all_unlisted();

 private:
  struct Entry {
    std::uint32_t id = 0;
    std::uint64_t size = 0;
    MemoryKind kind = MemoryKind::kDevice;
    std::string name;
    bool listed = false;
  };

  /// The live allocation with the greatest base at or below `address` (the only one that can
  /// contain it), or live_.end(). The caller holds mutex_.
  [[nodiscard]] std::map<std::uint64_t, Entry>::const_iterator at_or_below(
      std::uint64_t address) const;
  void* allocate_device_range(std::uint64_t size);
  void release_device_range(void* pointer, std::uint64_t size);

  mutable std::mutex mutex_;
  std::map<std::uint64_t, Entry> live_;   // by base address
  std::map<std::uint64_t, Entry> freed_;  // released device and managed ranges, for messages
  std::uint32_t next_id_ = 0;
  std::byte* arena_ = nullptr;  // the reserved range, also as a number in arena_base_
  std::uint64_t arena_base_ = 0;
  std::uint64_t arena_size_ = 0;
  std::uint64_t arena_next_ = 0;  // bump pointer
  DeviceWindow window_;
  std::uint64_t generation_ = 0;
  std::shared_ptr<const DeviceRanges> ranges_;
};

/// The process-wide registry.
AllocationRegistry& allocations();

/// "allocation 'd_val' (4096 bytes at 0x200000000000)", or "allocation #3 (...)" when unnamed.
std::string describe_allocation(const std::string& name, std::uint32_t id, std::uint64_t base,
                                std::uint64_t size);

/// "(void**)&d_val, bytes" -> "d_val": the variable named by a cudaMalloc call's first argument.
std::string allocation_name_from_call(const char* call_text);

}  // namespace memcarlo::host::detail
