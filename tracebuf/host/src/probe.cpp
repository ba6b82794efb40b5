// The probe API of the host backend (memcarlo/probe_api.h): loads-table registration, and the
// per-access probe, whose untraced path is a thread_local test, a counter increment and, for
// device addresses, the bounds check.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "block_runner.hpp"
#include "diagnostics.hpp"
#include "loads_registry.hpp"
#include "memcarlo/probe_api.h"

namespace memcarlo::host::detail {
namespace {

/// What the probes of this OS thread resolved last, valid for one launch's snapshots: the unit
/// of the last translation unit seen, and per trace-wide static id the device range its last
/// access fell in (successive executions of one access nearly always stay in one allocation).
struct ProbeCache {
  std::uint64_t index_generation = 0;  // 0: nothing cached
  std::uint64_t ranges_generation = 0;
  unsigned tu = 0;
  const LoadsIndex::Unit* unit = nullptr;
  struct Range {
    std::uint64_t begin = 1;  // empty
    std::uint64_t end = 0;
  };
  std::vector<Range> range_by_id;
};
thread_local ProbeCache cache;

/// A probe whose unit registered no loads table (or whose id is not in it) is an instrumenter
/// bug; it is reported once and its events are not traced.
void warn_unknown_probe(unsigned tu, unsigned id) {
  static std::atomic<bool> warned = false;
  if (!warned.exchange(true)) {
    char text[128];
    std::snprintf(text, sizeof text,
                  "a probe of translation unit 0x%08x (static id %u) has no loads-table entry; "
                  "such accesses are not traced",
                  tu, id);
    warn(text);
  }
}

[[gnu::noinline]] void record_traced(ThreadState& thread, unsigned tu, unsigned id,
                                     const void* address, unsigned size) {
  const LaunchContext& launch = *thread.launch;
  if (cache.index_generation != launch.loads->generation() ||
      cache.ranges_generation != launch.device_ranges->generation ||
      cache.range_by_id.size() != launch.traced_load_count) {
    cache.index_generation = launch.loads->generation();
    cache.ranges_generation = launch.device_ranges->generation;
    cache.unit = launch.loads->unit(tu);
    cache.tu = tu;
    cache.range_by_id.assign(launch.traced_load_count, ProbeCache::Range{});
  } else if (cache.tu != tu) {
    cache.unit = launch.loads->unit(tu);
    cache.tu = tu;
  }
  const LoadsIndex::Unit* unit = cache.unit;
  if (unit == nullptr || id >= unit->global_ids.size()) {
    warn_unknown_probe(tu, id);
    return;
  }
  const std::uint32_t global = unit->global_ids[id];
  if (global >= launch.traced_load_count) {
    return;  // unknown id, or registered after the trace's Loads chunk was written
  }
  const auto a = reinterpret_cast<std::uint64_t>(address);
  ProbeCache::Range& range = cache.range_by_id[global];
  bool device = a >= range.begin && a < range.end;
  if (!device) {
    const DeviceRanges& ranges = *launch.device_ranges;
    const std::ptrdiff_t found = ranges.find(a);
    device = found >= 0;
    if (device) {
      range.begin = ranges.bases[static_cast<std::size_t>(found)];
      range.end = ranges.ends[static_cast<std::size_t>(found)];
    }
  }
  if (thread.runner->admit_traced_event()) {
    thread.events->push_back(
        LaneEvent{global, static_cast<std::uint8_t>(size > 255 ? 255 : size), device, a});
  }
}

/// The bounds check's slow path, then the traced path; a function of its own so that every call
/// in the probe is a tail call and the probe needs no stack frame.
[[gnu::noinline]] void check_then_record(ThreadState& thread, unsigned tu, unsigned id,
                                         std::uint64_t address, unsigned size) {
  check_device_access(thread, tu, id, address, size);
  if (thread.events != nullptr) {
    record_traced(thread, tu, id, reinterpret_cast<const void*>(address), size);
  }
}

}  // namespace
}  // namespace memcarlo::host::detail

void memcarlo_record_access(unsigned tu, unsigned id, const void* address, unsigned size) {
  using memcarlo::host::detail::BoundsCache;
  memcarlo::host::detail::ThreadState* thread = memcarlo::host::detail::current_thread;
  if (thread == nullptr) {
    return;  // host code calling a __host__ __device__ function
  }
  ++thread->probe_events;
  // Bounds check: one compare for addresses outside the device window (or with checks off, when
  // the window is empty), a slot compare for the common in-bounds device access.
  const auto at = reinterpret_cast<std::uint64_t>(address);
  if (at - thread->checked_begin < thread->checked_size) {
    const BoundsCache::Range& range = thread->bounds->slots[BoundsCache::slot(tu, id)];
    if (at < range.begin || at + size > range.end) [[unlikely]] {
      memcarlo::host::detail::check_then_record(*thread, tu, id, at, size);
      return;
    }
  }
  if (thread->events != nullptr) {
    memcarlo::host::detail::record_traced(*thread, tu, id, address, size);
  }
}

extern "C" void memcarlo_register_loads(unsigned tu, const char* loads_table_json) {
  memcarlo::host::detail::loads_registry().add(tu, loads_table_json);
}

extern "C" void memcarlo_register_kernel_parameters(const char* kernel_parameters_json) {
  memcarlo::host::detail::kernel_parameters().add(kernel_parameters_json);
}

extern "C" void memcarlo_register_launches(unsigned tu, const char* launches_json) {
  memcarlo::host::detail::launch_names().add(tu, launches_json);
}
