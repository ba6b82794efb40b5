// CRC-32C (Castagnoli), the checksum of every chunk and header of the trace format.
#pragma once

#include <cstddef>
#include <cstdint>

namespace memcarlo::tracebuf {

/// CRC-32C of `size` bytes, continuing from `crc` (pass 0 to start). Uses SSE4.2 when available.
std::uint32_t crc32c(const void* data, std::size_t size, std::uint32_t crc = 0);

}  // namespace memcarlo::tracebuf
