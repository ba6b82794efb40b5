// The system's page size, read once: the unit of the runtime's guard pages (the fiber stacks' and
// the device arena's).
#pragma once

#include <unistd.h>

#include <cstddef>

namespace memcarlo::host::detail {

inline std::size_t page_size() {
  static const auto kSize = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return kSize;
}

}  // namespace memcarlo::host::detail
