// CUB's device-wide partition, run-length, merge-sort and segmented radix-sort algorithms in a
// program built for the host backend: DevicePartition (Flagged, If, the three-way If),
// DeviceRunLengthEncode (Encode, NonTrivialRuns), DeviceMergeSort (SortPairs, SortKeysCopy,
// StableSortKeys) and DeviceSegmentedRadixSort (SortPairs, SortKeysDescending on a bit range, a
// DoubleBuffer). The answers are the examples of CUB's documentation, worked by hand; a kernel
// then doubles the partitioned items, so that the program has a traced launch.
#include <cstdio>
#include <iterator>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <vector>

namespace {

int failures = 0;

void expect(const std::vector<int>& got, const std::vector<int>& want, const char* what) {
  if (got != want) {
    ++failures;
    std::printf("FAILED %s:", what);
    for (const int v : got) std::printf(" %d", v);
    std::printf("\n");
  }
}

int* device_copy(const std::vector<int>& host) {
  int* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(int));
  cudaMemcpy(device, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
  return device;
}

std::vector<int> host_copy(const int* device, int count) {
  std::vector<int> host(static_cast<std::size_t>(count));
  cudaMemcpy(host.data(), device, host.size() * sizeof(int), cudaMemcpyDeviceToHost);
  return host;
}

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
  twice<<<1, 32>>>(out, 7);
  expect(host_copy(out, 7), {18, 16, 14, 12, 10, 6, 0}, "twice");
  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
