// More of CUB in a program built for the host backend. Device-wide: DevicePartition (Flagged, If,
// the three-way If), DeviceRunLengthEncode (Encode, NonTrivialRuns), DeviceMergeSort (SortPairs,
// SortKeysCopy, StableSortKeys) and DeviceSegmentedRadixSort (SortPairs, SortKeysDescending on a
// bit range, a DoubleBuffer), against the examples of CUB's documentation, worked by hand. Warp
// primitives in a kernel: WarpLoad (TRANSPOSE, and DIRECT with valid items and a default),
// WarpExchange (BlockedToStriped, StripedToBlocked, ScatterToStriped) and WarpStore (DIRECT,
// STRIPED, TRANSPOSE with valid items) over logical warps of 16 lanes, each result checked
// against the input; the test checks the trace of WarpLoad's reads.
#include <cstdio>
#include <iterator>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_store.cuh>
#include <vector>

#include "checks.h"

namespace {

struct LessThan {
  int compare;
  __host__ __device__ bool operator()(const int& a) const { return a < compare; }
};

struct GreaterThan {
  int compare;
  __host__ __device__ bool operator()(const int& a) const { return a > compare; }
};

struct Descending {
  __host__ __device__ bool operator()(const int& a, const int& b) const { return a > b; }
};

struct ByTens {  // equal when in the same ten: StableSortKeys keeps their order
  __host__ __device__ bool operator()(const int& a, const int& b) const { return a / 10 < b / 10; }
};

/// Runs CUB's two-phase protocol: the size query, then the call with the storage.
template <class Call>
void two_phase(Call call) {
  void* temp = nullptr;
  std::size_t bytes = 0;
  call(temp, bytes);
  cudaMalloc(&temp, bytes);
  call(temp, bytes);
  cudaFree(temp);
}

}  // namespace

constexpr int kLanes = 16;  // a logical warp: two per hardware warp
constexpr int kWarpItems = 4;
constexpr int kWarpTile = kLanes * kWarpItems;

// Each logical warp of a 32-thread block works on its own 64-int tile of `in` (two per block):
// copies[0] by WarpLoad TRANSPOSE (blocked items) and WarpStore DIRECT; copies[1] by
// BlockedToStriped and WarpStore STRIPED; copies[2] by StripedToBlocked back and WarpStore
// TRANSPOSE of the first 50 items; reversed by ScatterToStriped to rank 63 - (blocked index) and
// WarpStore STRIPED; partial by WarpLoad DIRECT of the first 40 items, -7 for the others.
__global__ void warp_tiles(const int* in, int* copies, int* reversed, int* partial, int total) {
  using Load = cub::WarpLoad<int, kWarpItems, cub::WARP_LOAD_TRANSPOSE, kLanes>;
  using LoadDirect = cub::WarpLoad<int, kWarpItems, cub::WARP_LOAD_DIRECT, kLanes>;
  using Exchange = cub::WarpExchange<int, kWarpItems, kLanes>;
  using StoreDirect = cub::WarpStore<int, kWarpItems, cub::WARP_STORE_DIRECT, kLanes>;
  using StoreStriped = cub::WarpStore<int, kWarpItems, cub::WARP_STORE_STRIPED, kLanes>;
  using StoreTranspose = cub::WarpStore<int, kWarpItems, cub::WARP_STORE_TRANSPOSE, kLanes>;
  __shared__ typename Exchange::TempStorage exchange[2];
  __shared__ typename StoreTranspose::TempStorage store[2];
  const int warp = static_cast<int>(threadIdx.x) / kLanes;
  const int lane = static_cast<int>(threadIdx.x) % kLanes;
  const int tile = (static_cast<int>(blockIdx.x) * 2 + warp) * kWarpTile;
  int blocked[kWarpItems];
  Load().Load(in + tile, blocked);
  StoreDirect().Store(copies + tile, blocked);
  int striped[kWarpItems];
  Exchange(exchange[warp]).BlockedToStriped(blocked, striped);
  StoreStriped().Store(copies + total + tile, striped);
  int again[kWarpItems];
  Exchange(exchange[warp]).StripedToBlocked(striped, again);
  StoreTranspose(store[warp]).Store(copies + 2 * total + tile, again, 50);
  int ranks[kWarpItems];
  for (int i = 0; i < kWarpItems; ++i) {
    ranks[i] = kWarpTile - 1 - (lane * kWarpItems + i);
  }
  Exchange(exchange[warp]).ScatterToStriped(blocked, ranks);
  StoreStriped().Store(reversed + tile, blocked);
  int some[kWarpItems];
  LoadDirect().Load(in + tile, some, 40, -7);
  StoreDirect().Store(partial + tile, some);
}

__global__ void twice(int* items, int count) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) {
    items[i] = 2 * items[i];
  }
}

int main() {
  int* count = device_copy({0, 0});
  // DevicePartition::Flagged: in [1..8], flags [1,0,0,1,0,1,1,0]: the selected in order at the
  // front, the others in reverse order at the back.
  int* in = device_copy({1, 2, 3, 4, 5, 6, 7, 8});
  int* flags = device_copy({1, 0, 0, 1, 0, 1, 1, 0});
  int* out = device_copy(std::vector<int>(8, -1));
  two_phase([&](void* temp, std::size_t& bytes) {
    cub::DevicePartition::Flagged(temp, bytes, in, flags, out, count, 8);
  });
  expect(host_copy(out, 8), {1, 4, 6, 7, 8, 5, 3, 2}, "DevicePartition::Flagged");
  expect(host_copy(count, 1), {4}, "DevicePartition::Flagged count");
  // DevicePartition::If with the predicate "less than 7" on [0, 2, 3, 9, 5, 2, 81, 8].
  int* values = device_copy({0, 2, 3, 9, 5, 2, 81, 8});
  two_phase([&](void* temp, std::size_t& bytes) {
    cub::DevicePartition::If(temp, bytes, values, out, count, 8, LessThan{7});
  });
  expect(host_copy(out, 8), {0, 2, 3, 5, 2, 8, 81, 9}, "DevicePartition::If");
  expect(host_copy(count, 1), {5}, "DevicePartition::If count");
  // The three-way If: large (> 50) first, small (< 7) second, the rest written backwards from
  // the end of the large items' array through a reverse iterator, as in CUB's example:
  // [81, , , , , , 8, 9] and [0, 2, 3, 5, 2], counts [1, 5].
  int* large = device_copy(std::vector<int>(8, -1));
  int* small = device_copy(std::vector<int>(8, -1));
  two_phase([&](void* temp, std::size_t& bytes) {
    cub::DevicePartition::If(temp, bytes, values, large, small,
                             std::reverse_iterator<int*>(large + 8), count, 8, GreaterThan{50},
                             LessThan{7});
  });
  expect(host_copy(large, 8), {81, -1, -1, -1, -1, -1, 8, 9}, "DevicePartition::If (three-way)");
  expect(host_copy(small, 5), {0, 2, 3, 5, 2}, "DevicePartition::If (three-way) second part");
  expect(host_copy(count, 2), {1, 5}, "DevicePartition::If (three-way) counts");
  // DeviceRunLengthEncode on [0, 2, 2, 9, 5, 5, 5, 8]: runs 0, 2 x2, 9, 5 x3, 8; the non-trivial
  // ones start at 1 (length 2) and 4 (length 3).
  int* runs_in = device_copy({0, 2, 2, 9, 5, 5, 5, 8});
  int* unique = device_copy(std::vector<int>(8, -1));
  int* lengths = device_copy(std::vector<int>(8, -1));
  two_phase([&](void* temp, std::size_t& bytes) {
    cub::DeviceRunLengthEncode::Encode(temp, bytes, runs_in, unique, lengths, count, 8);
  });
  expect(host_copy(unique, 5), {0, 2, 9, 5, 8}, "DeviceRunLengthEncode::Encode");
  expect(host_copy(lengths, 5), {1, 2, 1, 3, 1}, "DeviceRunLengthEncode::Encode lengths");
  expect(host_copy(count, 1), {5}, "DeviceRunLengthEncode::Encode runs");
  two_phase([&](void* temp, std::size_t& bytes) {
    cub::DeviceRunLengthEncode::NonTrivialRuns(temp, bytes, runs_in, unique, lengths, count, 8);
  });
  expect(host_copy(unique, 2), {1, 4}, "DeviceRunLengthEncode::NonTrivialRuns offsets");
  expect(host_copy(lengths, 2), {2, 3}, "DeviceRunLengthEncode::NonTrivialRuns lengths");
  expect(host_copy(count, 1), {2}, "DeviceRunLengthEncode::NonTrivialRuns runs");
  // DeviceMergeSort: pairs by key, descending; a copy of the keys; a stable sort by tens.
  int* keys = device_copy({8, 6, 7, 5, 3, 0, 9});
  int* items = device_copy({0, 1, 2, 3, 4, 5, 6});
  two_phase([&](void* temp, std::size_t& bytes) {
    cub::DeviceMergeSort::SortPairs(temp, bytes, keys, items, 7, Descending{});
  });
  expect(host_copy(keys, 7), {9, 8, 7, 6, 5, 3, 0}, "DeviceMergeSort::SortPairs keys");
  expect(host_copy(items, 7), {6, 0, 2, 1, 3, 4, 5}, "DeviceMergeSort::SortPairs items");
  int* unsorted = device_copy({8, 6, 7, 5, 3, 0, 9});
  two_phase([&](void* temp, std::size_t& bytes) {
    cub::DeviceMergeSort::SortKeysCopy(temp, bytes, unsorted, out, 7, Descending{});
  });
  expect(host_copy(out, 7), {9, 8, 7, 6, 5, 3, 0}, "DeviceMergeSort::SortKeysCopy");
  expect(host_copy(unsorted, 7), {8, 6, 7, 5, 3, 0, 9}, "DeviceMergeSort::SortKeysCopy input");
  int* tens = device_copy({31, 12, 35, 17, 30, 11});
  two_phase([&](void* temp, std::size_t& bytes) {
    cub::DeviceMergeSort::StableSortKeys(temp, bytes, tens, 6, ByTens{});
  });
  expect(host_copy(tens, 6), {12, 17, 11, 31, 35, 30}, "DeviceMergeSort::StableSortKeys");
  // DeviceSegmentedRadixSort: CUB's example, segments [0, 3), [3, 3), [3, 7) of
  // [8, 6, 7, 5, 3, 0, 9] with values [0..6]: [6, 7, 8, 0, 3, 5, 9] and [1, 2, 0, 5, 4, 3, 6].
  int* offsets = device_copy({0, 3, 3, 7});
  int* seg_keys = device_copy({8, 6, 7, 5, 3, 0, 9});
  int* seg_values = device_copy({0, 1, 2, 3, 4, 5, 6});
  int* keys_out = device_copy(std::vector<int>(7, -1));
  int* values_out = device_copy(std::vector<int>(7, -1));
  two_phase([&](void* temp, std::size_t& bytes) {
    cub::DeviceSegmentedRadixSort::SortPairs(temp, bytes, seg_keys, keys_out, seg_values,
                                             values_out, 7, 3, offsets, offsets + 1);
  });
  expect(host_copy(keys_out, 7), {6, 7, 8, 0, 3, 5, 9}, "DeviceSegmentedRadixSort::SortPairs");
  expect(host_copy(values_out, 7), {1, 2, 0, 5, 4, 3, 6},
         "DeviceSegmentedRadixSort::SortPairs values");
  // Descending on bits [0, 2) only (the keys mod 4: 0, 2, 3, 1, 3, 0, 1), stable, in one segment
  // [1, 6) of a DoubleBuffer; the items outside it stay.
  int* bits = device_copy({8, 6, 7, 5, 3, 0, 9});
  int* spare = device_copy(std::vector<int>(7, -1));
  cub::DoubleBuffer<int> buffer(bits, spare);
  int* one_segment = device_copy({1, 6});
  two_phase([&](void* temp, std::size_t& bytes) {
    cub::DeviceSegmentedRadixSort::SortKeysDescending(temp, bytes, buffer, 7, 1, one_segment,
                                                      one_segment + 1, 0, 2);
  });
  expect(host_copy(buffer.Current(), 7), {8, 7, 3, 6, 5, 0, 9},
         "DeviceSegmentedRadixSort::SortKeysDescending");
  // The warp primitives: 2 blocks of 32 threads, 4 tiles of 64 ints.
  const int total = 4 * kWarpTile;
  std::vector<int> tiles(total);
  for (int i = 0; i < total; ++i) {
    tiles[static_cast<std::size_t>(i)] = 1000 + 7 * i;
  }
  int* tiles_in = device_copy(tiles);
  int* copies = device_copy(std::vector<int>(3 * total, -1));
  int* reversed = device_copy(std::vector<int>(total, -1));
  int* partial = device_copy(std::vector<int>(total, -1));
  warp_tiles<<<2, 32>>>(tiles_in, copies, reversed, partial, total);
  const std::vector<int> copied = host_copy(copies, 3 * total);
  expect(std::vector<int>(copied.begin(), copied.begin() + total), tiles,
         "WarpLoad TRANSPOSE, WarpStore DIRECT");
  expect(std::vector<int>(copied.begin() + total, copied.begin() + 2 * total), tiles,
         "WarpExchange::BlockedToStriped, WarpStore STRIPED");
  std::vector<int> first_50(total, -1);
  std::vector<int> backwards(total);
  std::vector<int> first_40(total);
  for (int i = 0; i < total; ++i) {
    const int tile = i / kWarpTile * kWarpTile;
    const int at = i % kWarpTile;
    if (at < 50) first_50[i] = tiles[i];
    backwards[i] = tiles[tile + kWarpTile - 1 - at];
    first_40[i] = at < 40 ? tiles[i] : -7;
  }
  expect(std::vector<int>(copied.begin() + 2 * total, copied.end()), first_50,
         "WarpExchange::StripedToBlocked, WarpStore TRANSPOSE of 50");
  expect(host_copy(reversed, total), backwards, "WarpExchange::ScatterToStriped");
  expect(host_copy(partial, total), first_40, "WarpLoad DIRECT of 40, default -7");
  twice<<<1, 32>>>(out, 7);
  expect(host_copy(out, 7), {18, 16, 14, 12, 10, 6, 0}, "twice");
  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
