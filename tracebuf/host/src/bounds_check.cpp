// The slow path of the bounds check and the out-of-bounds report: kernel, block, thread, the
// access as the loads table describes it, and where the address lies relative to the allocations.
#include "bounds_check.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "allocation_registry.hpp"
#include "block_runner.hpp"
#include "diagnostics.hpp"
#include "loads_registry.hpp"

namespace memcarlo::host::detail {
namespace {

/// How the user turns the check off: MEMCARLO_BOUNDS_CHECK=0 for a program run by hand; what
/// launched the program says its own way in MEMCARLO_BOUNDS_CHECK_HINT (`memcarlo run` sets the
/// variable either way, so there the environment variable would be wrong advice).
std::string turn_off_advice() {
  const char* hint = std::getenv("MEMCARLO_BOUNDS_CHECK_HINT");
  return hint != nullptr && *hint != '\0' ? hint : "MEMCARLO_BOUNDS_CHECK=0";
}

std::string triple(const uint3& value) {
  return "(" + std::to_string(value.x) + "," + std::to_string(value.y) + "," +
         std::to_string(value.z) + ")";
}

/// "x1[i] (mvt.cu:12:7)", from the loads table; the raw ids when the table does not have them.
std::string describe_access(const LaunchContext& launch, unsigned unit, unsigned static_id,
                            tracebuf::AccessKind* kind) {
  const std::uint32_t global = launch.loads->global_id(unit, static_id);
  if (global != kUnknownLoad) {
    const std::vector<tracebuf::LoadInfo> table = loads_registry().table();
    if (global < table.size()) {
      const tracebuf::LoadInfo& load = table[global];
      *kind = load.kind;
      return load.expression + " (" + load.file + ":" + std::to_string(load.line) + ":" +
             std::to_string(load.column) + ")";
    }
  }
  char text[96];
  std::snprintf(text, sizeof text, "static access %u of translation unit 0x%08x", static_id, unit);
  return text;
}

const char* kind_noun(tracebuf::AccessKind kind) {
  switch (kind) {
    case tracebuf::AccessKind::kRead:
      return "read";
    case tracebuf::AccessKind::kWrite:
      return "write";
    case tracebuf::AccessKind::kReadModifyWrite:
      return "update";
    case tracebuf::AccessKind::kAtomic:
      return "atomic";
  }
  return "access";
}

const char* kind_verb(tracebuf::AccessKind kind) {
  switch (kind) {
    case tracebuf::AccessKind::kRead:
      return "reads";
    case tracebuf::AccessKind::kWrite:
      return "writes";
    case tracebuf::AccessKind::kReadModifyWrite:
      return "updates";
    case tracebuf::AccessKind::kAtomic:
      return "atomically updates";
  }
  return "accesses";
}

[[noreturn]] void report_out_of_bounds(const ThreadState& thread, unsigned unit, unsigned static_id,
                                       std::uint64_t address, unsigned size) {
  // Several CUDA threads on several OS threads may fault at once: the first one reports, the
  // others wait for the process to end.
  static std::atomic<bool> reporting = false;
  if (reporting.exchange(true)) {
    for (;;) {
      ::pause();
    }
  }
  const LaunchContext& launch = *thread.launch;
  tracebuf::AccessKind kind = tracebuf::AccessKind::kRead;
  const std::string access = describe_access(launch, unit, static_id, &kind);
  char at[32];
  std::snprintf(at, sizeof at, "0x%llx", static_cast<unsigned long long>(address));
  fatal(kExitSoftware, std::string("out-of-bounds global memory ") + kind_noun(kind) +
                           " in kernel '" + launch.request->kernel_name + "', block " +
                           triple(thread.builtins.block_idx) + ", thread " +
                           triple(thread.builtins.thread_idx) + ": " + access + " " +
                           kind_verb(kind) + " " + std::to_string(size) + " bytes at " + at +
                           ", which " + allocations().describe_device_address(address, size) +
                           ". The run failed (" + turn_off_advice() + " turns this check off).");
}

}  // namespace

void check_device_access(ThreadState& thread, unsigned unit, unsigned static_id,
                         std::uint64_t address, unsigned size) {
  const DeviceRanges& ranges = *thread.launch->device_ranges;
  const std::ptrdiff_t found = ranges.find(address);
  if (found >= 0) {
    const auto index = static_cast<std::size_t>(found);
    if (address + size <= ranges.ends[index]) {
      thread.bounds->slots[BoundsCache::slot(unit, static_id)] = {ranges.bases[index],
                                                                  ranges.ends[index]};
      return;
    }
  }
  report_out_of_bounds(thread, unit, static_id, address, size);
}

}  // namespace memcarlo::host::detail
