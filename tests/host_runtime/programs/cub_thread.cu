// CUB's thread-level functions in a kernel built for the host backend: ThreadReduce (arrays,
// cuda::std::array, a prefix, the pointer forms), internal::ThreadScanInclusive and
// internal::ThreadScanExclusive (with and without applying the prefix, in place), LowerBound,
// UpperBound, MergePathSearch and StableOddEvenSort on small inputs whose answers are worked out
// by hand in the comments. The program prints `Result = PASS` only if everything matches.
#include <cstdio>
#include <cub/thread/thread_reduce.cuh>
#include <cub/thread/thread_scan.cuh>
#include <cub/thread/thread_search.cuh>
#include <cub/thread/thread_sort.cuh>
#include <cuda/std/array>
#include <vector>

#include "checks.h"

namespace {

struct TenTimesPlus {  // not commutative: shows the order of combination
  __host__ __device__ int operator()(const int& a, const int& b) const { return 10 * a + b; }
};

struct Plus {
  __host__ __device__ int operator()(const int& a, const int& b) const { return a + b; }
};

struct Maximum {
  __host__ __device__ int operator()(const int& a, const int& b) const { return a < b ? b : a; }
};

struct Less {
  __host__ __device__ bool operator()(const int& a, const int& b) const { return a < b; }
};

}  // namespace

/// Appends the items to out at *at.
__device__ void put(int* out, int& at, const int* items, int count) {
  for (int i = 0; i < count; ++i) {
    out[at++] = items[i];
  }
}

// Thread 0 writes each result in turn to out (the host checks them in the same order).
__global__ void thread_functions(int* out) {
  if (threadIdx.x != 0) {
    return;
  }
  int at = 0;
  int a[4] = {3, 1, 4, 1};
  // Reductions: 3 + 1 + 4 + 1 = 9; the maximum 4; seeded with 10: 19; ((3*10+1)*10+4)*10+1 =
  // 3141, seeded with 2: 23141; cuda::std::array [2, 7, 1, 8]: 2718; the pointer forms: 3141, and
  // the prefix 42 alone for no items.
  out[at++] = cub::ThreadReduce(a, Plus{});
  out[at++] = cub::ThreadReduce(a, Maximum{});
  out[at++] = cub::ThreadReduce(a, Plus{}, 10);
  out[at++] = cub::ThreadReduce(a, TenTimesPlus{});
  out[at++] = cub::ThreadReduce(a, TenTimesPlus{}, 2);
  const ::cuda::std::array<int, 4> digits = {2, 7, 1, 8};
  out[at++] = cub::ThreadReduce(digits, TenTimesPlus{});
  out[at++] = cub::internal::ThreadReduce<4>(&a[0], TenTimesPlus{});
  out[at++] = cub::internal::ThreadReduce<0>(&a[0], TenTimesPlus{}, 42);
  // Inclusive scans of [3, 1, 4, 1]: [3, 4, 8, 9] (aggregate 9); seeded with 10: [13, 14, 18, 19]
  // (19); the seed not applied: [3, 4, 8, 9] (9).
  int scanned[4];
  out[at++] = cub::internal::ThreadScanInclusive(a, scanned, Plus{});
  put(out, at, scanned, 4);
  out[at++] = cub::internal::ThreadScanInclusive(a, scanned, Plus{}, 10);
  put(out, at, scanned, 4);
  out[at++] = cub::internal::ThreadScanInclusive<4>(&a[0], &scanned[0], Plus{}, 10, false);
  put(out, at, scanned, 4);
  // Exclusive scans seeded with 10: [10, 13, 14, 18] (19); not applied: [10, 3, 4, 8] (9); in
  // place, with TenTimesPlus seeded with 0: [0, 3, 31, 314] (3141).
  out[at++] = cub::internal::ThreadScanExclusive(a, scanned, Plus{}, 10);
  put(out, at, scanned, 4);
  out[at++] = cub::internal::ThreadScanExclusive(a, scanned, Plus{}, 10, false);
  put(out, at, scanned, 4);
  out[at++] = cub::internal::ThreadScanExclusive<4>(&a[0], &a[0], TenTimesPlus{}, 0);
  put(out, at, a, 4);
  // Searches in [1, 2, 2, 2, 5, 7]: LowerBound(2) = 1, UpperBound(2) = 4, LowerBound(6) = 5,
  // UpperBound(7) = 6, LowerBound(0) = 0.
  const int sorted[6] = {1, 2, 2, 2, 5, 7};
  out[at++] = cub::LowerBound(sorted, 6, 2);
  out[at++] = cub::UpperBound(sorted, 6, 2);
  out[at++] = cub::LowerBound(sorted, 6, 6);
  out[at++] = cub::UpperBound(sorted, 6, 7);
  out[at++] = cub::LowerBound(sorted, 6, 0);
  // The merge path of [1, 3, 5, 7] and [2, 3, 6] (1a 2b 3a 3b 5a 6b 7a, a first among equals):
  // diagonal 3 is (2, 1), 4 is (2, 2), 5 is (3, 2), 7 is (4, 3).
  const int first[4] = {1, 3, 5, 7};
  const int second[3] = {2, 3, 6};
  const int diagonals[4] = {3, 4, 5, 7};
  for (int d = 0; d < 4; ++d) {
    const int diagonal = diagonals[d];
    int2 point;
    cub::MergePathSearch(diagonal, first, second, 4, 3, point);
    out[at++] = point.x;
    out[at++] = point.y;
  }
  // StableOddEvenSort of keys [3, 1, 2, 1, 3] with items [0..4]: [1, 1, 2, 3, 3], [1, 3, 2, 0, 4];
  // keys only, [5, 4, 3, 2, 1, 0]: [0, 1, 2, 3, 4, 5].
  int keys[5] = {3, 1, 2, 1, 3};
  int items[5] = {0, 1, 2, 3, 4};
  cub::StableOddEvenSort(keys, items, Less{});
  put(out, at, keys, 5);
  put(out, at, items, 5);
  int reversed[6] = {5, 4, 3, 2, 1, 0};
  cub::NullType none[6];
  cub::StableOddEvenSort(reversed, none, Less{});
  put(out, at, reversed, 6);
}

int main() {
  int* out = device_copy(std::vector<int>(100, -1));
  thread_functions<<<1, 32>>>(out);
  const std::vector<int> got = host_copy(out, 100);
  // clang-format off
  const std::vector<int> want = {
      9, 4, 19, 3141, 23141, 2718, 3141, 42,  // ThreadReduce
      9, 3, 4, 8, 9,                          // ThreadScanInclusive
      19, 13, 14, 18, 19,                     // ... seeded
      9, 3, 4, 8, 9,                          // ... the seed not applied
      19, 10, 13, 14, 18,                     // ThreadScanExclusive
      9, 10, 3, 4, 8,                         // ... the seed not applied
      3141, 0, 3, 31, 314,                    // ... in place
      1, 4, 5, 6, 0,                          // LowerBound, UpperBound
      2, 1, 2, 2, 3, 2, 4, 3,                 // MergePathSearch
      1, 1, 2, 3, 3, 1, 3, 2, 0, 4,           // StableOddEvenSort with items
      0, 1, 2, 3, 4, 5};                      // ... keys only
  // clang-format on
  std::vector<int> results(got.begin(), got.begin() + static_cast<long>(want.size()));
  expect(results, want, "thread functions (see the kernel's comments for the order)");
  expect(std::vector<int>(got.begin() + static_cast<long>(want.size()), got.end()),
         std::vector<int>(100 - want.size(), -1), "thread functions: nothing more written");
  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
