// Turning a ring line written by the device probe into a trace record: (translation unit, local
// id) -> trace-wide id through the host backend's loads registry, the access kind from the loads
// table, one address per active lane.
#pragma once

#include <cstdint>
#include <memory>

#include "loads_registry.hpp"
#include "memcarlo/tracebuf/record.hpp"
#include "ring_buffer_layout.h"

namespace memcarlo::cuda::detail {

class LineDecoder {
 public:
  enum class Outcome {
    kRecord,       // `out` holds the record
    kUnknownLoad,  // no loads-table entry, or one registered after the trace was opened
    kMalformed,    // empty mask, lanes outside the group, or a block outside the snapshot
  };

  /// `loads`: the index the trace's Loads chunk was written from; ids at or past
  /// `traced_load_count` were registered later and are not in the trace.
  LineDecoder(std::shared_ptr<const host::detail::LoadsIndex> loads,
              std::uint32_t traced_load_count, std::uint64_t snapshot_first,
              std::uint64_t snapshot_count);

  Outcome decode(const RingLine& line, tracebuf::WarpRecord& out) const;

 private:
  std::shared_ptr<const host::detail::LoadsIndex> loads_;
  std::uint32_t traced_load_count_;
  std::uint64_t snapshot_first_;
  std::uint64_t snapshot_count_;
};

}  // namespace memcarlo::cuda::detail
