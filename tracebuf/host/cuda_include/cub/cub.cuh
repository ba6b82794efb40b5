// <cub/cub.cuh> for memcarlo's host backend: not NVIDIA's CUB but the emulation's implementation of
// its public API for the parts programs use most (docs/host-runtime.md, "CUB and Thrust"):
// BlockReduce, BlockScan, BlockLoad, BlockStore and the Load/StoreDirect* functions, WarpReduce,
// WarpScan, DeviceReduce, DeviceScan, DeviceRadixSort, DeviceSelect, CachingDeviceAllocator,
// KeyValuePair, DoubleBuffer, CubDebug. Another part of CUB (BlockRadixSort, BlockExchange,
// iterators, ...) is a compile error naming it.
#pragma once

#include "block/block_load.cuh"
#include "block/block_reduce.cuh"
#include "block/block_scan.cuh"
#include "block/block_store.cuh"
#include "device/device_radix_sort.cuh"
#include "device/device_reduce.cuh"
#include "device/device_scan.cuh"
#include "device/device_select.cuh"
#include "util_allocator.cuh"
#include "util_debug.cuh"
#include "util_ptx.cuh"
#include "util_type.cuh"
#include "warp/warp_reduce.cuh"
#include "warp/warp_scan.cuh"
