// The rest of CUB's device-wide algorithms in a program built for the host backend:
// DeviceSegmentedSort (all sixteen forms), DeviceMerge, DeviceAdjacentDifference, DeviceFor,
// DeviceTransform (one input and a tuple of them), DeviceCopy::Batched, DeviceMemcpy::Batched and
// DeviceHistogram's multi-channel forms, each through CUB's two-phase protocol on small inputs
// whose answers are worked out by hand (or are those of CUB's documented examples) in the
// comments; every output is checked and the program prints `Result = PASS` only if all match.
#include <thrust/iterator/constant_iterator.h>
#include <cstdio>
#include <cub/device/device_adjacent_difference.cuh>
#include <cub/device/device_copy.cuh>
#include <cub/device/device_for.cuh>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_memcpy.cuh>
#include <cub/device/device_merge.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_transform.cuh>
#include <cuda/std/array>
#include <cuda/std/tuple>
#include <vector>

#include "checks.h"

namespace {

/// Runs CUB's two-phase protocol: the size query (which must set a size), then the call.
template <class Call>
void two_phase(Call call, const char* what) {
  void* temp = nullptr;
  std::size_t bytes = 0;
  if (call(temp, bytes) != cudaSuccess || bytes == 0) {
    ++failures;
    std::printf("FAILED: %s: the size query\n", what);
  }
  cudaMalloc(&temp, bytes);
  if (call(temp, bytes) != cudaSuccess) {
    ++failures;
    std::printf("FAILED: %s: the call\n", what);
  }
  cudaFree(temp);
}

struct Descending {
  __host__ __device__ bool operator()(const int& a, const int& b) const { return a > b; }
};

struct TenTimesPlus {  // not commutative: shows which neighbour is which argument
  __host__ __device__ int operator()(const int& a, const int& b) const { return 10 * a + b; }
};

struct Double {
  __host__ __device__ void operator()(int& item) const { item *= 2; }
};

struct AddToAndBump {  // given a copy: bumping it must not change the input
  int* sum;
  __host__ __device__ void operator()(int item) const {
    *sum += item;
    ++item;
    (void)item;
  }
};

struct Square {
  int* out;
  __host__ __device__ void operator()(int i) const { out[i] = i * i; }
};

struct SquarePlusOne {
  __host__ __device__ int operator()(int x) const { return x * x + 1; }
};

struct Difference3 {
  __host__ __device__ int operator()(int a, int b, int c) const { return a - b + c; }
};

struct IndexOf {  // the address the operator is given, as an index into base
  const int* base;
  __host__ __device__ int operator()(const int& item) const {
    return static_cast<int>(&item - base);
  }
};

// DeviceSegmentedSort: each of the sixteen forms on one segment [0, 5) of keys [3, 1, 3, 1, 2]
// with values [0, 1, 2, 3, 4]: ascending [1, 1, 2, 3, 3] with [1, 3, 4, 0, 2], descending
// [3, 3, 2, 1, 1] with [0, 2, 4, 1, 3] (every form sorts stably here), then CUB's example.
void segmented_sort() {
  const std::vector<int> keys = {3, 1, 3, 1, 2};
  const std::vector<int> values = {0, 1, 2, 3, 4};
  const std::vector<int> up = {1, 1, 2, 3, 3};
  const std::vector<int> up_values = {1, 3, 4, 0, 2};
  const std::vector<int> down = {3, 3, 2, 1, 1};
  const std::vector<int> down_values = {0, 2, 4, 1, 3};
  int* offsets = device_copy(std::vector<int>{0, 5});
  using Sort = cub::DeviceSegmentedSort;
  // Keys only, separate buffers: form 0-3 (Sort, SortDescending, Stable, StableDescending).
  for (int form = 0; form < 4; ++form) {
    int* in = device_copy(keys);
    int* out = device_copy(std::vector<int>(5, -1));
    two_phase(
        [&](void* temp, std::size_t& bytes) {
          switch (form) {
            case 0:
              return Sort::SortKeys(temp, bytes, in, out, 5, 1, offsets, offsets + 1);
            case 1:
              return Sort::SortKeysDescending(temp, bytes, in, out, 5, 1, offsets, offsets + 1);
            case 2:
              return Sort::StableSortKeys(temp, bytes, in, out, 5, 1, offsets, offsets + 1);
            default:
              return Sort::StableSortKeysDescending(temp, bytes, in, out, 5, 1, offsets,
                                                    offsets + 1);
          }
        },
        "DeviceSegmentedSort keys");
    expect(host_copy(out, 5), form % 2 == 0 ? up : down, "DeviceSegmentedSort keys (form 0-3)");
    expect(host_copy(in, 5), keys, "DeviceSegmentedSort keys input kept");
  }
  // Keys only, DoubleBuffer.
  for (int form = 0; form < 4; ++form) {
    int* current = device_copy(keys);
    int* alternate = device_copy(std::vector<int>(5, -1));
    cub::DoubleBuffer<int> buffer(current, alternate);
    two_phase(
        [&](void* temp, std::size_t& bytes) {
          switch (form) {
            case 0:
              return Sort::SortKeys(temp, bytes, buffer, 5, 1, offsets, offsets + 1);
            case 1:
              return Sort::SortKeysDescending(temp, bytes, buffer, 5, 1, offsets, offsets + 1);
            case 2:
              return Sort::StableSortKeys(temp, bytes, buffer, 5, 1, offsets, offsets + 1);
            default:
              return Sort::StableSortKeysDescending(temp, bytes, buffer, 5, 1, offsets,
                                                    offsets + 1);
          }
        },
        "DeviceSegmentedSort DoubleBuffer keys");
    expect(host_copy(buffer.Current(), 5), form % 2 == 0 ? up : down,
           "DeviceSegmentedSort DoubleBuffer keys (form 0-3)");
  }
  // Pairs, separate buffers.
  for (int form = 0; form < 4; ++form) {
    int* in = device_copy(keys);
    int* out = device_copy(std::vector<int>(5, -1));
    int* values_in = device_copy(values);
    int* values_out = device_copy(std::vector<int>(5, -1));
    two_phase(
        [&](void* temp, std::size_t& bytes) {
          switch (form) {
            case 0:
              return Sort::SortPairs(temp, bytes, in, out, values_in, values_out, 5, 1, offsets,
                                     offsets + 1);
            case 1:
              return Sort::SortPairsDescending(temp, bytes, in, out, values_in, values_out, 5, 1,
                                               offsets, offsets + 1);
            case 2:
              return Sort::StableSortPairs(temp, bytes, in, out, values_in, values_out, 5, 1,
                                           offsets, offsets + 1);
            default:
              return Sort::StableSortPairsDescending(temp, bytes, in, out, values_in, values_out, 5,
                                                     1, offsets, offsets + 1);
          }
        },
        "DeviceSegmentedSort pairs");
    expect(host_copy(out, 5), form % 2 == 0 ? up : down, "DeviceSegmentedSort pairs (form 0-3)");
    expect(host_copy(values_out, 5), form % 2 == 0 ? up_values : down_values,
           "DeviceSegmentedSort pairs values (form 0-3)");
  }
  // Pairs, DoubleBuffers.
  for (int form = 0; form < 4; ++form) {
    cub::DoubleBuffer<int> key_buffer(device_copy(keys), device_copy(std::vector<int>(5, -1)));
    cub::DoubleBuffer<int> value_buffer(device_copy(values), device_copy(std::vector<int>(5, -1)));
    two_phase(
        [&](void* temp, std::size_t& bytes) {
          switch (form) {
            case 0:
              return Sort::SortPairs(temp, bytes, key_buffer, value_buffer, 5, 1, offsets,
                                     offsets + 1);
            case 1:
              return Sort::SortPairsDescending(temp, bytes, key_buffer, value_buffer, 5, 1, offsets,
                                               offsets + 1);
            case 2:
              return Sort::StableSortPairs(temp, bytes, key_buffer, value_buffer, 5, 1, offsets,
                                           offsets + 1);
            default:
              return Sort::StableSortPairsDescending(temp, bytes, key_buffer, value_buffer, 5, 1,
                                                     offsets, offsets + 1);
          }
        },
        "DeviceSegmentedSort DoubleBuffer pairs");
    expect(host_copy(key_buffer.Current(), 5), form % 2 == 0 ? up : down,
           "DeviceSegmentedSort DoubleBuffer pairs (form 0-3)");
    expect(host_copy(value_buffer.Current(), 5), form % 2 == 0 ? up_values : down_values,
           "DeviceSegmentedSort DoubleBuffer pairs values (form 0-3)");
  }
  // CUB's example: segments [0, 3), [3, 3), [3, 7) of [8, 6, 7, 5, 3, 0, 9] with values [0..6]:
  // [6, 7, 8, 0, 3, 5, 9] and [1, 2, 0, 5, 4, 3, 6].
  int* example_offsets = device_copy(std::vector<int>{0, 3, 3, 7});
  int* example = device_copy(std::vector<int>{8, 6, 7, 5, 3, 0, 9});
  int* example_values = device_copy(std::vector<int>{0, 1, 2, 3, 4, 5, 6});
  int* out = device_copy(std::vector<int>(7, -1));
  int* values_out = device_copy(std::vector<int>(7, -1));
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return Sort::SortPairs(temp, bytes, example, out, example_values, values_out, 7, 3,
                               example_offsets, example_offsets + 1);
      },
      "DeviceSegmentedSort::SortPairs (CUB's example)");
  expect(host_copy(out, 7), {6, 7, 8, 0, 3, 5, 9}, "DeviceSegmentedSort::SortPairs example");
  expect(host_copy(values_out, 7), {1, 2, 0, 5, 4, 3, 6},
         "DeviceSegmentedSort::SortPairs example values");
  // Items outside every segment are not written: segments [1, 3) and [4, 6), descending.
  int* begins = device_copy(std::vector<int>{1, 4});
  int* ends = device_copy(std::vector<int>{3, 6});
  int* gapped = device_copy(std::vector<int>(7, -1));
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return Sort::SortKeysDescending(temp, bytes, example, gapped, 7, 2, begins, ends);
      },
      "DeviceSegmentedSort::SortKeysDescending (gaps)");
  expect(host_copy(gapped, 7), {-1, 7, 6, -1, 3, 0, -1},
         "DeviceSegmentedSort::SortKeysDescending outside the segments");
}

// DeviceMerge: [0, 2, 5] and [1, 2, 3, 8] into [0, 1, 2, 2, 3, 5, 8]; the pairs' values show the
// first sequence's 2 first; a descending merge of [9, 4, 1] and [8, 7, 0].
void merge() {
  int* first = device_copy(std::vector<int>{0, 2, 5});
  int* second = device_copy(std::vector<int>{1, 2, 3, 8});
  int* first_values = device_copy(std::vector<int>{10, 11, 12});
  int* second_values = device_copy(std::vector<int>{20, 21, 22, 23});
  int* keys = device_copy(std::vector<int>(7, -1));
  int* values = device_copy(std::vector<int>(7, -1));
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceMerge::MergeKeys(temp, bytes, first, 3, second, 4, keys);
      },
      "DeviceMerge::MergeKeys");
  expect(host_copy(keys, 7), {0, 1, 2, 2, 3, 5, 8}, "DeviceMerge::MergeKeys");
  int* pair_keys = device_copy(std::vector<int>(7, -1));
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceMerge::MergePairs(temp, bytes, first, first_values, 3, second,
                                            second_values, 4, pair_keys, values);
      },
      "DeviceMerge::MergePairs");
  expect(host_copy(pair_keys, 7), {0, 1, 2, 2, 3, 5, 8}, "DeviceMerge::MergePairs keys");
  expect(host_copy(values, 7), {10, 20, 11, 21, 22, 12, 23}, "DeviceMerge::MergePairs values");
  int* high = device_copy(std::vector<int>{9, 4, 1});
  int* low = device_copy(std::vector<int>{8, 7, 0});
  int* merged = device_copy(std::vector<int>(6, -1));
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceMerge::MergeKeys(temp, bytes, high, 3, low, 3, merged, Descending{});
      },
      "DeviceMerge::MergeKeys descending");
  expect(host_copy(merged, 6), {9, 8, 7, 4, 1, 0}, "DeviceMerge::MergeKeys descending");
}

// DeviceAdjacentDifference on the squares [1, 4, 9, 16, 25]: left differences [1, 3, 5, 7, 9],
// right ones [-3, -5, -7, -9, 25] (CUB's rule: the item without a neighbour is copied); with
// 10 * a + b on [1, 2, 3]: left [1, 21, 32], right [12, 23, 3].
void adjacent_difference() {
  using Difference = cub::DeviceAdjacentDifference;
  int* squares = device_copy(std::vector<int>{1, 4, 9, 16, 25});
  two_phase([&](void* temp,
                std::size_t& bytes) { return Difference::SubtractLeft(temp, bytes, squares, 5); },
            "DeviceAdjacentDifference::SubtractLeft");
  expect(host_copy(squares, 5), {1, 3, 5, 7, 9}, "DeviceAdjacentDifference::SubtractLeft");
  int* again = device_copy(std::vector<int>{1, 4, 9, 16, 25});
  two_phase([&](void* temp,
                std::size_t& bytes) { return Difference::SubtractRight(temp, bytes, again, 5); },
            "DeviceAdjacentDifference::SubtractRight");
  expect(host_copy(again, 5), {-3, -5, -7, -9, 25}, "DeviceAdjacentDifference::SubtractRight");
  int* small = device_copy(std::vector<int>{1, 2, 3});
  int* out = device_copy(std::vector<int>(3, -1));
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return Difference::SubtractLeftCopy(temp, bytes, small, out, 3, TenTimesPlus{});
      },
      "DeviceAdjacentDifference::SubtractLeftCopy");
  expect(host_copy(out, 3), {1, 21, 32}, "DeviceAdjacentDifference::SubtractLeftCopy");
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return Difference::SubtractRightCopy(temp, bytes, small, out, 3, TenTimesPlus{});
      },
      "DeviceAdjacentDifference::SubtractRightCopy");
  expect(host_copy(out, 3), {12, 23, 3}, "DeviceAdjacentDifference::SubtractRightCopy");
  expect(host_copy(small, 3), {1, 2, 3}, "DeviceAdjacentDifference copies: input kept");
}

// DeviceFor: ForEach and ForEachN double [1, 2, 3] in place (twice: [4, 8, 12]); ForEachCopy and
// ForEachCopyN sum it (24 each) without changing it; Bulk writes i * i for i < 5.
void for_each() {
  int* items = device_copy(std::vector<int>{1, 2, 3});
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceFor::ForEach(temp, bytes, items, items + 3, Double{});
      },
      "DeviceFor::ForEach");
  cub::DeviceFor::ForEachN(items, 3, Double{});
  expect(host_copy(items, 3), {4, 8, 12}, "DeviceFor::ForEach, ForEachN");
  int* sum = device_copy(std::vector<int>{0});
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceFor::ForEachCopyN(temp, bytes, items, 3, AddToAndBump{sum});
      },
      "DeviceFor::ForEachCopyN");
  cub::DeviceFor::ForEachCopy(items, items + 3, AddToAndBump{sum});
  expect(host_copy(sum, 1), {48}, "DeviceFor::ForEachCopy, ForEachCopyN sum");
  expect(host_copy(items, 3), {4, 8, 12}, "DeviceFor::ForEachCopy input kept");
  int* squares = device_copy(std::vector<int>(6, -1));
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceFor::Bulk(temp, bytes, 5, Square{squares});
      },
      "DeviceFor::Bulk");
  expect(host_copy(squares, 6), {0, 1, 4, 9, 16, -1}, "DeviceFor::Bulk");
}

// DeviceTransform: x * x + 1 of [1, 2, 3] is [2, 5, 10]; a - b + c of three inputs
// [5, 7, 9], [1, 2, 3], [10, 20, 30] is [14, 25, 36]; TransformStableArgumentAddresses hands the
// operator the items where they are, so their addresses give the indices [0, 1, 2, 3].
void transform() {
  int* in = device_copy(std::vector<int>{1, 2, 3});
  int* out = device_copy(std::vector<int>(4, -1));
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceTransform::Transform(temp, bytes, in, out, 3, SquarePlusOne{});
      },
      "DeviceTransform::Transform");
  expect(host_copy(out, 4), {2, 5, 10, -1}, "DeviceTransform::Transform");
  int* a = device_copy(std::vector<int>{5, 7, 9});
  int* b = device_copy(std::vector<int>{1, 2, 3});
  int* c = device_copy(std::vector<int>{10, 20, 30});
  cub::DeviceTransform::Transform(::cuda::std::make_tuple(a, b, c), out, 3, Difference3{});
  expect(host_copy(out, 4), {14, 25, 36, -1}, "DeviceTransform::Transform (a tuple of 3)");
  int* base = device_copy(std::vector<int>{7, 7, 7, 7});
  cub::DeviceTransform::TransformStableArgumentAddresses(base, out, 4, IndexOf{base});
  expect(host_copy(out, 4), {0, 1, 2, 3}, "DeviceTransform::TransformStableArgumentAddresses");
}

// DeviceCopy::Batched: CUB's example, a run-length decode of values [1, 2, 3] with lengths
// [2, 1, 3] from constant iterators into [1, 1, 2, 3, 3, 3]; DeviceMemcpy::Batched: 12 bytes of
// [1, 2, 3, 4, 5] (from its start) to ints 4-6 of an array of 8, and 4 bytes (its 5) to int 0.
void batched_copies() {
  using Constant = thrust::constant_iterator<int>;
  Constant* runs = device_copy(std::vector<Constant>{Constant(1), Constant(2), Constant(3)});
  int* decoded = device_copy(std::vector<int>(7, -1));
  int** run_starts = device_copy(std::vector<int*>{decoded, decoded + 2, decoded + 3});
  int* lengths = device_copy(std::vector<int>{2, 1, 3});
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceCopy::Batched(temp, bytes, runs, run_starts, lengths, 3);
      },
      "DeviceCopy::Batched");
  expect(host_copy(decoded, 7), {1, 1, 2, 3, 3, 3, -1}, "DeviceCopy::Batched");
  int* source = device_copy(std::vector<int>{1, 2, 3, 4, 5});
  int* target = device_copy(std::vector<int>(8, -1));
  void** sources = device_copy(std::vector<void*>{source, source + 4});
  void** targets = device_copy(std::vector<void*>{target + 4, target});
  std::size_t* sizes = device_copy(std::vector<std::size_t>{12, 4});
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceMemcpy::Batched(temp, bytes, sources, targets, sizes, 2);
      },
      "DeviceMemcpy::Batched");
  expect(host_copy(target, 8), {5, -1, -1, -1, 1, 2, 3, -1}, "DeviceMemcpy::Batched");
}

// DeviceHistogram's multi-channel forms on CUB's examples: 5 RGBA pixels [(2, 6, 7, 5),
// (3, 0, 2, 1), (7, 0, 6, 2), (0, 6, 7, 5), (3, 0, 2, 6)], the first 3 channels counted. Even
// bins of width 1 over [0, 8): R [1, 0, 1, 2, 0, 0, 0, 1], G [3, 0, 0, 0, 0, 0, 2, 0] (CUB's
// text says [0, 3, ...] for G, a slip: its five G samples are 6, 0, 0, 6, 0), B [0, 0, 2, 0, 0, 0,
// 1, 2]. Levels [0, 2, 4, 6, 8]: [1, 3, 0, 1], [3, 0, 0, 2], [0, 2, 0, 3] (CUB's answer). Over
// rows: pixels 0-1 and 2-3 as two rows of a 3-pixel stride (pixel (1, 1, 1, 1) between them is
// skipped): [1, 2, 0, 1], [2, 0, 0, 2], [0, 1, 0, 3].
void multi_histogram() {
  unsigned char* pixels = device_copy(
      std::vector<unsigned char>{2, 6, 7, 5, 3, 0, 2, 1, 7, 0, 6, 2, 0, 6, 7, 5, 3, 0, 2, 6});
  int* histograms[3];
  for (int*& histogram : histograms) {
    histogram = device_copy(std::vector<int>(8, -1));
  }
  const int num_levels[3] = {9, 9, 9};
  const unsigned lower[3] = {0, 0, 0};
  const unsigned upper[3] = {8, 8, 8};
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceHistogram::MultiHistogramEven<4, 3>(temp, bytes, pixels, histograms,
                                                              num_levels, lower, upper, 5);
      },
      "DeviceHistogram::MultiHistogramEven");
  expect(host_copy(histograms[0], 8), {1, 0, 1, 2, 0, 0, 0, 1}, "MultiHistogramEven R");
  expect(host_copy(histograms[1], 8), {3, 0, 0, 0, 0, 0, 2, 0}, "MultiHistogramEven G");
  expect(host_copy(histograms[2], 8), {0, 0, 2, 0, 0, 0, 1, 2}, "MultiHistogramEven B");
  unsigned* levels = device_copy(std::vector<unsigned>{0, 2, 4, 6, 8});
  const unsigned* channel_levels[3] = {levels, levels, levels};
  const int five_levels[3] = {5, 5, 5};
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceHistogram::MultiHistogramRange<4, 3>(temp, bytes, pixels, histograms,
                                                               five_levels, channel_levels, 5);
      },
      "DeviceHistogram::MultiHistogramRange");
  expect(host_copy(histograms[0], 4), {1, 3, 0, 1}, "MultiHistogramRange R");
  expect(host_copy(histograms[1], 4), {3, 0, 0, 2}, "MultiHistogramRange G");
  expect(host_copy(histograms[2], 4), {0, 2, 0, 3}, "MultiHistogramRange B");
  unsigned char* rows = device_copy(std::vector<unsigned char>{2, 6, 7, 5, 3, 0, 2, 1, 1, 1, 1, 1,
                                                               7, 0, 6, 2, 0, 6, 7, 5, 1, 1, 1, 1});
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceHistogram::MultiHistogramRange<4, 3>(
            temp, bytes, rows, histograms, five_levels, channel_levels, 2, 2, 12);
      },
      "DeviceHistogram::MultiHistogramRange (rows)");
  expect(host_copy(histograms[0], 4), {1, 2, 0, 1}, "MultiHistogramRange rows R");
  expect(host_copy(histograms[1], 4), {2, 0, 0, 2}, "MultiHistogramRange rows G");
  expect(host_copy(histograms[2], 4), {0, 1, 0, 3}, "MultiHistogramRange rows B");
  // CUDA 13's cuda::std::array form, the two rows in even bins: R [1, 0, 1, 1, 0, 0, 0, 1] of 2, 3,
  // 7, 0.
  ::cuda::std::array<int*, 3> arrays = {histograms[0], histograms[1], histograms[2]};
  two_phase(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceHistogram::MultiHistogramEven<4, 3>(
            temp, bytes, rows, arrays, ::cuda::std::array<int, 3>{9, 9, 9},
            ::cuda::std::array<unsigned, 3>{0, 0, 0}, ::cuda::std::array<unsigned, 3>{8, 8, 8}, 2,
            2, 12);
      },
      "DeviceHistogram::MultiHistogramEven (cuda::std::array, rows)");
  expect(host_copy(histograms[0], 8), {1, 0, 1, 1, 0, 0, 0, 1}, "MultiHistogramEven rows R");
  expect(host_copy(histograms[1], 8), {2, 0, 0, 0, 0, 0, 2, 0}, "MultiHistogramEven rows G");
  expect(host_copy(histograms[2], 8), {0, 0, 1, 0, 0, 0, 1, 2}, "MultiHistogramEven rows B");
}

}  // namespace

int main() {
  segmented_sort();
  merge();
  adjacent_difference();
  for_each();
  transform();
  batched_copies();
  multi_histogram();
  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
