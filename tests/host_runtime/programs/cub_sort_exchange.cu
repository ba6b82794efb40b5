// More of CUB in a program built for the host backend: BlockRadixSort (pairs, and descending on a
// bit range into a striped arrangement), BlockMergeSort (a partial tile), BlockExchange (blocked to
// striped and warp-striped, scatter), BlockShuffle (Up), BlockHistogram (in shared memory, and
// composited atomically by two blocks into global memory), BlockDiscontinuity (heads with an
// index-taking operator, tails with a successor), BlockAdjacentDifference (SubtractLeft,
// SubtractRightPartialTile), a one-warp histogram composited right after InitHistogram without a
// barrier, CUB's access helpers (BlockLoad through a CacheModifiedInputIterator,
// ArgIndexInputIterator, ThreadLoad, ThreadStore, CacheModifiedOutputIterator), ShuffleIndex,
// ShuffleUp and BFE, DeviceHistogram::HistogramEven and DeviceSegmentedReduce::Sum. Every result
// is checked against an answer computed here by a plain loop; the test checks the trace of the
// helpers' accesses.
#include <algorithm>
#include <cstdio>
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_shuffle.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/iterator/arg_index_input_iterator.cuh>
#include <cub/iterator/cache_modified_input_iterator.cuh>
#include <cub/iterator/cache_modified_output_iterator.cuh>
#include <cub/thread/thread_load.cuh>
#include <cub/thread/thread_store.cuh>
#include <cub/util_ptx.cuh>
#include <numeric>
#include <vector>

constexpr int kThreads = 64;
constexpr int kItems = 4;
constexpr int kTile = kThreads * kItems;
constexpr int kBins = 16;

struct LowBitsOrder {  // the order of a stable sort on the low 4 bits, largest first
  const std::vector<int>* keys;
  bool operator()(int a, int b) const { return ((*keys)[a] & 15) > ((*keys)[b] & 15); }
};

struct Greater {
  __device__ bool operator()(int a, int b) const { return a > b; }
};

// Sorts (key, index) pairs of the tile, the keys descending on their low 4 bits (striped), and
// the first 200 keys descending (merge sort, the others replaced by -1000).
__global__ void sort_kernel(const int* in, int* sorted_keys, int* sorted_values, int* low_bits,
                            int* merged) {
  using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_DIRECT>;
  using Sort = cub::BlockRadixSort<int, kThreads, kItems, int>;
  using MergeSort = cub::BlockMergeSort<int, kThreads, kItems>;
  __shared__ typename Sort::TempStorage temp;
  __shared__ typename MergeSort::TempStorage merge_temp;
  int keys[kItems];
  int values[kItems];
  Load().Load(cub::CacheModifiedInputIterator<cub::LOAD_LDG, int>(in), keys);
  int copy[kItems];
  int again[kItems];
  for (int i = 0; i < kItems; ++i) {
    values[i] = threadIdx.x * kItems + i;
    copy[i] = keys[i];
    again[i] = keys[i];
  }
  MergeSort(merge_temp).Sort(again, Greater(), 200, -1000);
  cub::StoreDirectBlocked(threadIdx.x, merged, again);
  Sort(temp).Sort(keys, values);
  cub::StoreDirectBlocked(threadIdx.x, sorted_keys, keys);
  cub::StoreDirectBlocked(threadIdx.x, sorted_values, values);
  __syncthreads();
  Sort(temp).SortDescendingBlockedToStriped(copy, values, 0, 4);
  cub::StoreDirectStriped<kThreads>(threadIdx.x, low_bits, copy);
}

// The tile in blocked order rearranged: striped, warp-striped, reversed by scattering, and
// shifted up one item (the first getting the last, the block suffix).
__global__ void exchange_kernel(const int* in, int* striped, int* warp_striped, int* reversed,
                                int* shifted) {
  using Exchange = cub::BlockExchange<int, kThreads, kItems>;
  using Shuffle = cub::BlockShuffle<int, kThreads>;
  __shared__ typename Exchange::TempStorage temp;
  __shared__ typename Shuffle::TempStorage shuffle_temp;
  int items[kItems];
  int out[kItems];
  int ranks[kItems];
  cub::LoadDirectBlocked(threadIdx.x, in, items);
  int suffix = 0;
  Shuffle(shuffle_temp).Up(items, out, suffix);
  if (threadIdx.x == 0) {
    out[0] = suffix;  // thread 0's first is left alone by Up
  }
  cub::StoreDirectBlocked(threadIdx.x, shifted, out);
  Exchange(temp).BlockedToStriped(items, out);
  cub::StoreDirectBlocked(threadIdx.x, striped, out);
  __syncthreads();
  Exchange(temp).BlockedToWarpStriped(items, out);
  cub::StoreDirectBlocked(threadIdx.x, warp_striped, out);
  __syncthreads();
  for (int i = 0; i < kItems; ++i) {
    ranks[i] = kTile - 1 - (threadIdx.x * kItems + i);
  }
  Exchange(temp).ScatterToBlocked(items, items, ranks);
  cub::StoreDirectBlocked(threadIdx.x, reversed, items);
}

struct Differs {
  __device__ bool operator()(int a, int b) const { return a != b; }
};
struct EveryFiftieth {  // takes the index of its second item
  __device__ bool operator()(int, int, int b_index) const { return b_index % 50 == 0; }
};
struct Minus {
  __device__ int operator()(int a, int b) const { return a - b; }
};

// Per block: the histogram of (in + 64) % 16 (also added into a global histogram both blocks
// share), head and tail flags of runs of in / 3, and left and right differences of squares.
__global__ void flags_kernel(const int* in, int* histogram, int* shared_histogram, int* heads,
                             int* fiftieth, int* tails, int* left, int* right) {
  using Histogram = cub::BlockHistogram<int, kThreads, kItems, kBins>;
  using Atomic = cub::BlockHistogram<int, kThreads, kItems, kBins, cub::BLOCK_HISTO_ATOMIC>;
  using Discontinuity = cub::BlockDiscontinuity<int, kThreads>;
  using Difference = cub::BlockAdjacentDifference<int, kThreads>;
  __shared__ typename Discontinuity::TempStorage discontinuity_temp;
  __shared__ typename Difference::TempStorage difference_temp;
  __shared__ unsigned bins[kBins];
  const int t = threadIdx.x;
  const int* tile = in + blockIdx.x * kTile;
  int items[kItems];
  int flags[kItems];
  int out[kItems];
  for (int i = 0; i < kItems; ++i) {
    items[i] = (tile[t * kItems + i] + 64) % kBins;  // keys are >= -50
  }
  Histogram().Histogram(items, bins);
  Atomic().Composite(items, shared_histogram);
  __syncthreads();
  if (blockIdx.x == 0 && t < kBins) {
    histogram[t] = bins[t];
  }
  if (blockIdx.x != 0) {
    return;
  }
  for (int i = 0; i < kItems; ++i) {
    items[i] = (t * kItems + i) / 3;
  }
  Discontinuity(discontinuity_temp).FlagHeads(flags, items, Differs());
  cub::StoreDirectBlocked(t, heads, flags);
  __syncthreads();
  Discontinuity(discontinuity_temp).FlagHeads(flags, items, EveryFiftieth());
  cub::StoreDirectBlocked(t, fiftieth, flags);
  __syncthreads();
  Discontinuity(discontinuity_temp).FlagTails(flags, items, Differs(), -1);
  cub::StoreDirectBlocked(t, tails, flags);
  for (int i = 0; i < kItems; ++i) {
    items[i] = (t * kItems + i) * (t * kItems + i);
  }
  Difference(difference_temp).SubtractLeft(items, out, Minus());
  cub::StoreDirectBlocked(t, left, out);
  __syncthreads();
  Difference(difference_temp).SubtractRightPartialTile(items, items, Minus(), 100);
  cub::StoreDirectBlocked(t, right, items);
}

// One warp zeroes its bins and composites right after, without a barrier (warp-synchronous code:
// the lanes' zeroing stores precede their atomics on a GPU).
__global__ void warp_histogram_kernel(const int* in, int* histogram) {
  using Atomic = cub::BlockHistogram<int, 32, kItems, kBins, cub::BLOCK_HISTO_ATOMIC>;
  __shared__ unsigned bins[kBins];
  int items[kItems];
  for (int i = 0; i < kItems; ++i) {
    items[i] = (in[threadIdx.x * kItems + i] + 64) % kBins;
  }
  Atomic().InitHistogram(bins);
  Atomic().Composite(items, bins);
  __syncthreads();
  if (threadIdx.x < kBins) {
    histogram[threadIdx.x] = bins[threadIdx.x];
  }
}

// CUB's access helpers, one item per thread, and its warp and bit utilities.
__global__ void helpers_kernel(const int* in, int* pairs, int* loaded, int* written,
                               int* utilities) {
  const int t = threadIdx.x;
  cub::ArgIndexInputIterator<const int*> indexed(in);
  const cub::KeyValuePair<std::ptrdiff_t, int> pair = indexed[t];
  pairs[t] = static_cast<int>(pair.key) * 1000 + pair.value;
  cub::ThreadStore<cub::STORE_CG>(loaded + t, 2 * cub::ThreadLoad<cub::LOAD_CG>(in + t));
  cub::CacheModifiedOutputIterator<cub::STORE_CS, int> out(written);
  out[t] = in[t] + 1;
  const int lane5 = cub::ShuffleIndex<32>(t, 5, 0xffffffffu);
  const int up = cub::ShuffleUp<8>(t, 2, 1, 0xffffffffu);  // from lane 1 of each 8 on
  utilities[t] =
      lane5 * 10000 + up * 10 + static_cast<int>(cub::BFE(static_cast<unsigned>(t), 1, 3));
}

static int failures = 0;
static void expect(bool ok, const char* what, int index) {
  if (!ok && failures++ < 10) {
    std::printf("mismatch: %s at %d\n", what, index);
  }
}

static std::vector<int> copy_back(const int* device, int count) {
  std::vector<int> host(count);
  cudaMemcpy(host.data(), device, count * sizeof(int), cudaMemcpyDeviceToHost);
  return host;
}

int main() {
  std::vector<int> host(2 * kTile);
  for (int i = 0; i < 2 * kTile; ++i) {
    host[i] = (i * 37) % 101 - 50;  // -50 .. 50, repeating, negative keys among them
  }
  int* in;
  cudaMalloc(&in, 2 * kTile * sizeof(int));
  cudaMemcpy(in, host.data(), 2 * kTile * sizeof(int), cudaMemcpyHostToDevice);
  int* out[8];
  for (int*& buffer : out) {
    cudaMalloc(&buffer, kTile * sizeof(int));
    cudaMemset(buffer, 0, kTile * sizeof(int));
  }
  const std::vector<int> keys(host.begin(), host.begin() + kTile);

  sort_kernel<<<1, kThreads>>>(in, out[0], out[1], out[2], out[3]);
  std::vector<int> order(kTile);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
  const std::vector<int> sorted_keys = copy_back(out[0], kTile);
  const std::vector<int> sorted_values = copy_back(out[1], kTile);
  std::vector<int> low_order(kTile);
  std::iota(low_order.begin(), low_order.end(), 0);
  std::stable_sort(low_order.begin(), low_order.end(), LowBitsOrder{&keys});
  const std::vector<int> low_bits = copy_back(out[2], kTile);
  const std::vector<int> merged = copy_back(out[3], kTile);
  std::vector<int> descending(keys.begin(), keys.begin() + 200);
  std::sort(descending.begin(), descending.end(), [](int a, int b) { return a > b; });
  descending.resize(kTile, -1000);
  for (int i = 0; i < kTile; ++i) {
    expect(merged[i] == descending[i], "BlockMergeSort::Sort (200 valid items)", i);
    expect(sorted_values[i] == order[i], "BlockRadixSort::Sort (values, stable)", i);
    expect(sorted_keys[i] == keys[order[i]], "BlockRadixSort::Sort (keys)", i);
    expect(low_bits[i] == keys[low_order[i]], "BlockRadixSort::SortDescendingBlockedToStriped", i);
  }

  exchange_kernel<<<1, kThreads>>>(in, out[0], out[1], out[2], out[3]);
  const std::vector<int> striped = copy_back(out[0], kTile);
  const std::vector<int> warp_striped = copy_back(out[1], kTile);
  const std::vector<int> reversed = copy_back(out[2], kTile);
  const std::vector<int> shifted = copy_back(out[3], kTile);
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kItems; ++i) {
      const int at = t * kItems + i;
      expect(striped[at] == keys[i * kThreads + t], "BlockExchange::BlockedToStriped", at);
      expect(warp_striped[at] == keys[t / 32 * 32 * kItems + i * 32 + t % 32],
             "BlockExchange::BlockedToWarpStriped", at);
      expect(reversed[at] == keys[kTile - 1 - at], "BlockExchange::ScatterToBlocked", at);
      expect(shifted[at] == keys[(at + kTile - 1) % kTile], "BlockShuffle::Up", at);
    }
  }

  for (int*& buffer : out) {
    cudaMemset(buffer, 0, kTile * sizeof(int));
  }
  flags_kernel<<<2, kThreads>>>(in, out[0], out[1], out[2], out[3], out[4], out[5], out[6]);
  const std::vector<int> histogram = copy_back(out[0], kBins);
  const std::vector<int> shared_histogram = copy_back(out[1], kBins);
  std::vector<int> counts(kBins, 0);
  std::vector<int> both(kBins, 0);
  for (int i = 0; i < 2 * kTile; ++i) {
    const int bin = (host[i] + 64) % kBins;
    counts[bin] += i < kTile ? 1 : 0;
    both[bin] += 1;
  }
  for (int b = 0; b < kBins; ++b) {
    expect(histogram[b] == counts[b], "BlockHistogram::Histogram", b);
    expect(shared_histogram[b] == both[b], "BlockHistogram::Composite (atomic, two blocks)", b);
  }
  warp_histogram_kernel<<<1, 32>>>(in, out[7]);
  const std::vector<int> warp_histogram = copy_back(out[7], kBins);
  std::vector<int> warp_counts(kBins, 0);
  for (int i = 0; i < 32 * kItems; ++i) {
    warp_counts[(host[i] + 64) % kBins] += 1;
  }
  for (int b = 0; b < kBins; ++b) {
    expect(warp_histogram[b] == warp_counts[b], "BlockHistogram (one warp, no barrier)", b);
  }
  const std::vector<int> heads = copy_back(out[2], kTile);
  const std::vector<int> fiftieth = copy_back(out[3], kTile);
  const std::vector<int> tails = copy_back(out[4], kTile);
  const std::vector<int> left = copy_back(out[5], kTile);
  const std::vector<int> right = copy_back(out[6], kTile);
  for (int k = 0; k < kTile; ++k) {
    expect(heads[k] == (k % 3 == 0 ? 1 : 0), "BlockDiscontinuity::FlagHeads", k);
    expect(fiftieth[k] == (k % 50 == 0 ? 1 : 0), "BlockDiscontinuity::FlagHeads (index)", k);
    expect(tails[k] == (k % 3 == 2 || k == kTile - 1 ? 1 : 0),
           "BlockDiscontinuity::FlagTails (successor)", k);
    expect(left[k] == (k == 0 ? 0 : 2 * k - 1), "BlockAdjacentDifference::SubtractLeft", k);
    expect(right[k] == (k < 99 ? -(2 * k + 1) : k * k),
           "BlockAdjacentDifference::SubtractRightPartialTile", k);
  }

  helpers_kernel<<<1, kThreads>>>(in, out[0], out[1], out[2], out[3]);
  const std::vector<int> pairs = copy_back(out[0], kThreads);
  const std::vector<int> loaded = copy_back(out[1], kThreads);
  const std::vector<int> written = copy_back(out[2], kThreads);
  const std::vector<int> utilities = copy_back(out[3], kThreads);
  for (int t = 0; t < kThreads; ++t) {
    expect(pairs[t] == t * 1000 + keys[t], "ArgIndexInputIterator", t);
    expect(loaded[t] == 2 * keys[t], "ThreadLoad/ThreadStore", t);
    expect(written[t] == keys[t] + 1, "CacheModifiedOutputIterator", t);
    const int up = t % 8 - 2 >= 1 ? t - 2 : t;
    expect(utilities[t] == (t / 32 * 32 + 5) * 10000 + up * 10 + ((t >> 1) & 7),
           "ShuffleIndex, ShuffleUp, BFE", t);
  }

  // Device-wide: a histogram of the 512 keys in 10 even bins over [-50, 50), and the sums of the
  // segments [0, 100), [100, 100) (empty) and [100, 300).
  const auto two_phase = [](auto call) {
    void* temp = nullptr;
    size_t bytes = 0;
    call(temp, bytes);
    cudaMalloc(&temp, bytes);
    call(temp, bytes);
    cudaFree(temp);
  };
  two_phase([&](void* temp, size_t& bytes) {
    cub::DeviceHistogram::HistogramEven(temp, bytes, in, out[0], 11, -50, 50, 2 * kTile);
  });
  const int offsets[4] = {0, 100, 100, 300};
  cudaMemcpy(out[1], offsets, sizeof offsets, cudaMemcpyHostToDevice);
  two_phase([&](void* temp, size_t& bytes) {
    cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out[2], 3, out[1], out[1] + 1);
  });
  const std::vector<int> even = copy_back(out[0], 10);
  const std::vector<int> segments = copy_back(out[2], 3);
  std::vector<int> expected_even(10, 0);
  int expected_segments[3] = {0, 0, 0};
  for (int i = 0; i < 2 * kTile; ++i) {
    if (host[i] < 50) {
      expected_even[(host[i] + 50) / 10] += 1;
    }
    expected_segments[0] += i < 100 ? host[i] : 0;
    expected_segments[2] += i >= 100 && i < 300 ? host[i] : 0;
  }
  for (int b = 0; b < 10; ++b) {
    expect(even[b] == expected_even[b], "DeviceHistogram::HistogramEven", b);
  }
  for (int segment = 0; segment < 3; ++segment) {
    expect(segments[segment] == expected_segments[segment], "DeviceSegmentedReduce::Sum", segment);
  }

  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
