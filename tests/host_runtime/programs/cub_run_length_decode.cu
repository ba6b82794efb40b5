// cub::BlockRunLengthDecode in a kernel built for the host backend, on CUB's documented example:
// 4 threads with 2 runs each, values [0, 1], [2, 3], [4, 5], [6, 7] and lengths [1, 2], [3, 4],
// [5, 1], [2, 3] (21 items), decoded into windows of 4 items per thread. The first window is
// CUB's stated answer: items [0, 1, 1, 2], [2, 2, 3, 3], [3, 3, 4, 4], [4, 4, 4, 5] with offsets in
// their runs [0, 0, 1, 0], [1, 2, 0, 1], [2, 3, 0, 1], [2, 3, 4, 0]; the second, from item 16,
// holds the last 5: 6, 6, 7, 7, 7 (offsets 0, 1, 0, 1, 2). The runs given by their offsets
// [0, 1, 3, 6, 10, 15, 16, 18] decode the same first window. The program prints
// `Result = PASS` only if everything matches.
#include <cstdio>
#include <cub/block/block_run_length_decode.cuh>
#include <vector>

#include "checks.h"

constexpr int kThreads = 4;
constexpr int kRuns = 2;
constexpr int kDecoded = 4;
constexpr int kWindow = kThreads * kDecoded;

// items and offsets: the two windows decoded from the lengths (2 * 16 each); by_offsets and
// their offsets: the first window decoded from the runs' offsets; total: the decoded size.
__global__ void decode(int* items, int* offsets, int* by_offsets, int* offsets_again, int* total) {
  using Decode = cub::BlockRunLengthDecode<int, kThreads, kRuns, kDecoded>;
  __shared__ typename Decode::TempStorage storage;
  const int t = static_cast<int>(threadIdx.x);
  int values[kRuns] = {2 * t, 2 * t + 1};
  const int all_lengths[kThreads * kRuns] = {1, 2, 3, 4, 5, 1, 2, 3};
  const int all_offsets[kThreads * kRuns] = {0, 1, 3, 6, 10, 15, 16, 18};
  int lengths[kRuns] = {all_lengths[2 * t], all_lengths[2 * t + 1]};
  unsigned size = 0;
  Decode from_lengths(storage, values, lengths, size);
  for (unsigned window = 0; window < size; window += kWindow) {
    int decoded[kDecoded];
    int in_run[kDecoded];
    from_lengths.RunLengthDecode(decoded, in_run, window);
    for (int i = 0; i < kDecoded; ++i) {
      items[window + t * kDecoded + i] = decoded[i];
      offsets[window + t * kDecoded + i] = in_run[i];
    }
  }
  if (t == 0) {
    *total = static_cast<int>(size);
  }
  __syncthreads();
  int starts[kRuns] = {all_offsets[2 * t], all_offsets[2 * t + 1]};
  Decode from_offsets(storage, values, starts);
  int decoded[kDecoded];
  int in_run[kDecoded];
  from_offsets.RunLengthDecode(decoded, in_run);
  for (int i = 0; i < kDecoded; ++i) {
    by_offsets[t * kDecoded + i] = decoded[i];
    offsets_again[t * kDecoded + i] = in_run[i];
  }
}

int main() {
  int* items = device_copy(std::vector<int>(2 * kWindow, -1));
  int* offsets = device_copy(std::vector<int>(2 * kWindow, -1));
  int* by_offsets = device_copy(std::vector<int>(kWindow, -1));
  int* offsets_again = device_copy(std::vector<int>(kWindow, -1));
  int* total = device_copy({-1});
  decode<<<1, kThreads>>>(items, offsets, by_offsets, offsets_again, total);
  const std::vector<int> first = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5};
  const std::vector<int> first_offsets = {0, 0, 1, 0, 1, 2, 0, 1, 2, 3, 0, 1, 2, 3, 4, 0};
  expect(host_copy(total, 1), {21}, "BlockRunLengthDecode total_decoded_size");
  const std::vector<int> decoded = host_copy(items, 2 * kWindow);
  const std::vector<int> in_run = host_copy(offsets, 2 * kWindow);
  expect(std::vector<int>(decoded.begin(), decoded.begin() + kWindow), first,
         "BlockRunLengthDecode first window");
  expect(std::vector<int>(in_run.begin(), in_run.begin() + kWindow), first_offsets,
         "BlockRunLengthDecode first window's offsets");
  expect(std::vector<int>(decoded.begin() + kWindow, decoded.begin() + kWindow + 5),
         {6, 6, 7, 7, 7}, "BlockRunLengthDecode second window");
  expect(std::vector<int>(in_run.begin() + kWindow, in_run.begin() + kWindow + 5), {0, 1, 0, 1, 2},
         "BlockRunLengthDecode second window's offsets");
  expect(host_copy(by_offsets, kWindow), first, "BlockRunLengthDecode from offsets");
  expect(host_copy(offsets_again, kWindow), first_offsets,
         "BlockRunLengthDecode from offsets: offsets");
  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
