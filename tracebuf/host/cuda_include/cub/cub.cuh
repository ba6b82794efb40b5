// <cub/cub.cuh> for memcarlo's host backend: not NVIDIA's CUB but the emulation's implementation of
// its public API for the parts programs use most (docs/host-runtime.md, "CUB and Thrust"):
// BlockReduce, BlockScan, BlockLoad, BlockStore and the Load/StoreDirect* functions,
// BlockRadixSort, BlockRadixRank, BlockRadixRankMatch (and their digit extractors),
// BlockMergeSort, BlockExchange, BlockShuffle, BlockHistogram, BlockDiscontinuity,
// BlockAdjacentDifference, BlockRunLengthDecode, WarpReduce, WarpScan, WarpLoad, WarpStore,
// WarpExchange, WarpMergeSort, ThreadLoad/ThreadStore, ThreadReduce,
// internal::ThreadScanInclusive/Exclusive, LowerBound, UpperBound, MergePathSearch,
// StableOddEvenSort, the iterators (CacheModified*, ArgIndex, TexObj and CUB 2's Counting,
// Constant, Transform and Discard iterators), DeviceReduce, DeviceScan, DeviceRadixSort,
// DeviceSelect, DevicePartition, DeviceRunLengthEncode, DeviceMergeSort, DeviceHistogram (one
// channel and multi-channel), DeviceSegmentedReduce, DeviceSegmentedRadixSort,
// DeviceSegmentedSort, DeviceMerge, DeviceAdjacentDifference, DeviceFor, DeviceTransform,
// DeviceCopy, DeviceMemcpy, CachingDeviceAllocator, KeyValuePair, DoubleBuffer, CubDebug. Another
// part of CUB (BlockRakingLayout, BlockRadixRankMatchEarlyCounts, GridQueue, GridEvenShare,
// GridMapping) is a compile error naming it.
#pragma once

#include "block/block_adjacent_difference.cuh"
#include "block/block_discontinuity.cuh"
#include "block/block_exchange.cuh"
#include "block/block_histogram.cuh"
#include "block/block_load.cuh"
#include "block/block_merge_sort.cuh"
#include "block/block_radix_rank.cuh"
#include "block/block_radix_sort.cuh"
#include "block/block_reduce.cuh"
#include "block/block_run_length_decode.cuh"
#include "block/block_scan.cuh"
#include "block/block_shuffle.cuh"
#include "block/block_store.cuh"
#include "device/device_adjacent_difference.cuh"
#include "device/device_copy.cuh"
#include "device/device_for.cuh"
#include "device/device_histogram.cuh"
#include "device/device_memcpy.cuh"
#include "device/device_merge.cuh"
#include "device/device_merge_sort.cuh"
#include "device/device_partition.cuh"
#include "device/device_radix_sort.cuh"
#include "device/device_reduce.cuh"
#include "device/device_run_length_encode.cuh"
#include "device/device_scan.cuh"
#include "device/device_segmented_radix_sort.cuh"
#include "device/device_segmented_reduce.cuh"
#include "device/device_segmented_sort.cuh"
#include "device/device_select.cuh"
#include "device/device_transform.cuh"
#include "iterator/arg_index_input_iterator.cuh"
#include "iterator/cache_modified_input_iterator.cuh"
#include "iterator/cache_modified_output_iterator.cuh"
#include "iterator/constant_input_iterator.cuh"
#include "iterator/counting_input_iterator.cuh"
#include "iterator/discard_output_iterator.cuh"
#include "iterator/tex_obj_input_iterator.cuh"
#include "iterator/transform_input_iterator.cuh"
#include "thread/thread_load.cuh"
#include "thread/thread_operators.cuh"
#include "thread/thread_reduce.cuh"
#include "thread/thread_scan.cuh"
#include "thread/thread_search.cuh"
#include "thread/thread_sort.cuh"
#include "thread/thread_store.cuh"
#include "util_allocator.cuh"
#include "util_debug.cuh"
#include "util_macro.cuh"
#include "util_ptx.cuh"
#include "util_type.cuh"
#include "warp/warp_exchange.cuh"
#include "warp/warp_load.cuh"
#include "warp/warp_merge_sort.cuh"
#include "warp/warp_reduce.cuh"
#include "warp/warp_scan.cuh"
#include "warp/warp_store.cuh"
