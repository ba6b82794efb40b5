// cub::WarpMergeSort in a kernel built for the host backend: over logical warps of 8 lanes, pairs
// stably, and keys with valid items and a default, each checked against a stable sort of the tile
// on the host, and the member masks. The program prints `Result = PASS` only if everything
// matches; the test checks the trace of the kernel's own loads and stores around the sorts.
#include <algorithm>
#include <cstdio>
#include <cub/warp/warp_merge_sort.cuh>
#include <numeric>
#include <vector>

#include "checks.h"

namespace {

struct Less {
  __host__ __device__ bool operator()(const int& a, const int& b) const { return a < b; }
};

}  // namespace

constexpr int kLanes = 8;  // logical warps: four per hardware warp
constexpr int kItems = 2;
constexpr int kTile = kLanes * kItems;

// Each logical warp of a 32-thread block sorts its 16-int tile of keys with the tile's indices as
// values into sorted_keys and sorted_values, then the first 11 keys of the tile (the rest taking
// 1000) into partial; each thread writes its member mask.
__global__ void warp_sort(const int* keys, int* sorted_keys, int* sorted_values, int* partial,
                          unsigned* masks) {
  using Sort = cub::WarpMergeSort<int, kItems, kLanes, int>;
  using SortKeys = cub::WarpMergeSort<int, kItems, kLanes>;
  __shared__ typename Sort::TempStorage storage[32 / kLanes];
  __shared__ typename SortKeys::TempStorage keys_storage[32 / kLanes];
  const int warp = static_cast<int>(threadIdx.x) / kLanes;
  const int lane = static_cast<int>(threadIdx.x) % kLanes;
  const int tile = warp * kTile;
  int my_keys[kItems];
  int my_values[kItems];
  for (int i = 0; i < kItems; ++i) {
    my_keys[i] = keys[tile + lane * kItems + i];
    my_values[i] = lane * kItems + i;
  }
  Sort sort(storage[warp]);
  sort.StableSort(my_keys, my_values, Less{});
  for (int i = 0; i < kItems; ++i) {
    sorted_keys[tile + lane * kItems + i] = my_keys[i];
    sorted_values[tile + lane * kItems + i] = my_values[i];
  }
  masks[threadIdx.x] = sort.get_member_mask();
  for (int i = 0; i < kItems; ++i) {
    my_keys[i] = keys[tile + lane * kItems + i];
  }
  SortKeys(keys_storage[warp]).Sort(my_keys, Less{}, 11, 1000);
  for (int i = 0; i < kItems; ++i) {
    partial[tile + lane * kItems + i] = my_keys[i];
  }
}

int main() {
  // WarpMergeSort: keys (i * 7) % 10 of i in [0, 64): many equal keys in each tile of 16.
  const int total = 4 * kTile;
  std::vector<int> keys(total);
  for (int i = 0; i < total; ++i) {
    keys[i] = (i * 7) % 10;
  }
  int* keys_in = device_copy(keys);
  int* sorted_keys = device_copy(std::vector<int>(total, -1));
  int* sorted_values = device_copy(std::vector<int>(total, -1));
  int* partial = device_copy(std::vector<int>(total, -1));
  unsigned* masks = nullptr;
  cudaMalloc(&masks, 32 * sizeof(unsigned));
  warp_sort<<<1, 32>>>(keys_in, sorted_keys, sorted_values, partial, masks);
  std::vector<int> want_keys(total);
  std::vector<int> want_values(total);
  std::vector<int> want_partial(total);
  for (int tile = 0; tile < total; tile += kTile) {
    std::vector<int> order(kTile);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int l, int r) { return keys[tile + l] < keys[tile + r]; });
    for (int i = 0; i < kTile; ++i) {
      want_keys[tile + i] = keys[tile + order[i]];
      want_values[tile + i] = order[i];
    }
    std::vector<int> first(keys.begin() + tile, keys.begin() + tile + 11);
    std::sort(first.begin(), first.end());
    first.resize(kTile, 1000);
    std::copy(first.begin(), first.end(), want_partial.begin() + tile);
  }
  expect(host_copy(sorted_keys, total), want_keys, "WarpMergeSort::StableSort keys");
  expect(host_copy(sorted_values, total), want_values, "WarpMergeSort::StableSort values");
  expect(host_copy(partial, total), want_partial, "WarpMergeSort::Sort of 11, default 1000");
  std::vector<unsigned> got_masks(32);
  cudaMemcpy(got_masks.data(), masks, 32 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (unsigned t = 0; t < 32; ++t) {
    if (got_masks[t] != 0xffu << (t / kLanes * kLanes)) {
      ++failures;
      std::printf("FAILED: WarpMergeSort::get_member_mask of thread %u: %#x\n", t, got_masks[t]);
    }
  }
  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
