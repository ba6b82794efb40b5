// What cudaFree needs of the stream-ordered allocator (runtime_memory_pools.cpp).
#pragma once

namespace memcarlo::host::detail {

/// Takes a freed allocation out of the pool it came from, if cudaMallocAsync or
/// cudaMallocFromPoolAsync made it (the pool's used bytes fall); otherwise does nothing.
void forget_pool_allocation(const void* pointer);

}  // namespace memcarlo::host::detail
