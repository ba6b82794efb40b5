// CUB in a program built for the host backend: the block primitives (BlockLoad, BlockReduce,
// BlockScan with and without a prefix callback, BlockStore), the warp primitives (WarpReduce on
// logical warps and with valid_items, WarpScan, Broadcast) inside kernels, and the device-wide
// calls (DeviceReduce, DeviceScan, DeviceRadixSort, DeviceSelect) with CUB's two-phase
// temporary-storage protocol. Every result is checked against an answer computed here on the
// host; the test checks the trace of BlockLoad's and BlockStore's accesses.
#include <cstdio>
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <vector>

constexpr int kThreads = 64;
constexpr int kItems = 4;
constexpr int kBlocks = 2;
constexpr int kTile = kThreads * kItems;
constexpr int kCount = kTile * kBlocks;

struct RunningMax {
  int largest;
  __device__ int operator()(int block_aggregate) {
    const int before = largest;
    largest = block_aggregate > largest ? block_aggregate : largest;
    return before;
  }
};

struct Positive {
  __host__ __device__ bool operator()(int k) const { return k > 0; }
};

struct Maximum {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

// Per block: the tile's sum, its exclusive prefix sums (stored through a warp-transposing store),
// and the inclusive running maximum of thread totals seeded with 100 through a prefix callback.
__global__ void block_kernel(const int* in, int* prefix, int* sums, int* maxima) {
  using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
  using Store = cub::BlockStore<int, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Reduce = cub::BlockReduce<int, kThreads>;
  using Scan = cub::BlockScan<int, kThreads>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } temp;
  int items[kItems];
  Load(temp.load).Load(in + blockIdx.x * kTile, items);
  __syncthreads();
  const int total = Reduce(temp.reduce).Sum(items);
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = total;
  }
  __syncthreads();
  const int own = items[0] + items[1] + items[2] + items[3];
  int running = 0;
  RunningMax seed{100};
  Scan(temp.scan).InclusiveScan(own, running, Maximum(), seed);
  maxima[blockIdx.x * kThreads + threadIdx.x] = running;
  __syncthreads();
  Scan(temp.scan).ExclusiveSum(items, items);
  __syncthreads();
  Store(temp.store).Store(prefix + blockIdx.x * kTile, items);
}

// Logical warps of 8 lanes sum their values; warps scan theirs and broadcast lane 3's value; the
// first warp sums all its values, the second its first 20 (valid_items).
__global__ void warp_kernel(const int* in, int* eighths, int* scans, int* broadcasts, int* warps) {
  using Eighth = cub::WarpReduce<int, 8>;
  using Full = cub::WarpReduce<int>;
  using Scan = cub::WarpScan<int>;
  __shared__ typename Eighth::TempStorage eighth_temp[8];
  __shared__ typename Full::TempStorage full_temp[2];
  __shared__ typename Scan::TempStorage scan_temp[2];
  const int t = threadIdx.x;
  const int value = in[t];
  const int eighth = Eighth(eighth_temp[t / 8]).Sum(value);
  if (t % 8 == 0) {
    eighths[t / 8] = eighth;
  }
  const int whole = t < 32 ? Full(full_temp[0]).Sum(value) : Full(full_temp[1]).Sum(value, 20);
  if (t % 32 == 0) {
    warps[t / 32] = whole;
  }
  int inclusive = 0;
  Scan(scan_temp[t / 32]).InclusiveSum(value, inclusive);
  scans[t] = inclusive;
  broadcasts[t] = Scan(scan_temp[t / 32]).Broadcast(value, 3);
}

static int failures = 0;
static void expect(bool ok, const char* what, int index) {
  if (!ok && failures++ < 10) {
    std::printf("mismatch: %s at %d\n", what, index);
  }
}

int main() {
  std::vector<int> host(kCount);
  for (int i = 0; i < kCount; ++i) {
    host[i] = i % 7 + 1;
  }
  int *in, *prefix, *sums, *maxima;
  cudaMalloc(&in, kCount * sizeof(int));
  cudaMalloc(&prefix, kCount * sizeof(int));
  cudaMalloc(&sums, kBlocks * sizeof(int));
  cudaMalloc(&maxima, kBlocks * kThreads * sizeof(int));
  cudaMemcpy(in, host.data(), kCount * sizeof(int), cudaMemcpyHostToDevice);
  block_kernel<<<kBlocks, kThreads>>>(in, prefix, sums, maxima);
  std::vector<int> got(kCount), got_sums(kBlocks), got_maxima(kBlocks * kThreads);
  cudaMemcpy(got.data(), prefix, kCount * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got_sums.data(), sums, kBlocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got_maxima.data(), maxima, got_maxima.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < kBlocks; ++b) {
    int sum = 0;
    int largest = 100;
    for (int i = 0; i < kTile; ++i) {
      expect(got[b * kTile + i] == sum, "BlockScan::ExclusiveSum", b * kTile + i);
      sum += host[b * kTile + i];
      if (i % kItems == kItems - 1) {
        const int own = host[b * kTile + i] + host[b * kTile + i - 1] + host[b * kTile + i - 2] +
                        host[b * kTile + i - 3];
        largest = own > largest ? own : largest;
        expect(got_maxima[b * kThreads + i / kItems] == largest, "BlockScan callback",
               b * kThreads + i / kItems);
      }
    }
    expect(got_sums[b] == sum, "BlockReduce::Sum", b);
  }

  constexpr int kWarpThreads = 64;
  int *eighths, *scans, *broadcasts, *warps;
  cudaMalloc(&eighths, 8 * sizeof(int));
  cudaMalloc(&scans, kWarpThreads * sizeof(int));
  cudaMalloc(&broadcasts, kWarpThreads * sizeof(int));
  cudaMalloc(&warps, 2 * sizeof(int));
  warp_kernel<<<1, kWarpThreads>>>(in, eighths, scans, broadcasts, warps);
  std::vector<int> got_eighths(8), got_scans(kWarpThreads), got_broadcasts(kWarpThreads),
      got_warps(2);
  cudaMemcpy(got_eighths.data(), eighths, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got_scans.data(), scans, kWarpThreads * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got_broadcasts.data(), broadcasts, kWarpThreads * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got_warps.data(), warps, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  int warp_sums[2] = {0, 0};
  int running = 0;
  for (int t = 0; t < kWarpThreads; ++t) {
    if (t % 32 == 0) {
      running = 0;
    }
    running += host[t];
    warp_sums[t / 32] += t < 32 + 20 ? host[t] : 0;  // the second warp: its first 20 lanes
    expect(got_scans[t] == running, "WarpScan::InclusiveSum", t);
    expect(got_broadcasts[t] == host[t / 32 * 32 + 3], "WarpScan::Broadcast", t);
  }
  for (int e = 0; e < 8; ++e) {
    int sum = 0;
    for (int t = e * 8; t < e * 8 + 8; ++t) {
      sum += host[t];
    }
    expect(got_eighths[e] == sum, "WarpReduce<int, 8>::Sum", e);
  }
  expect(got_warps[0] == warp_sums[0], "WarpReduce::Sum", 0);
  expect(got_warps[1] == warp_sums[1], "WarpReduce::Sum (20 valid items)", 1);

  // Device-wide: keys 1..7 repeating, reversed; values their indices.
  const int n = 100;
  std::vector<int> keys(n), values(n);
  for (int i = 0; i < n; ++i) {
    keys[i] = host[n - 1 - i] - 4;  // -3 .. 3: negative keys sort before positive ones
    values[i] = i;
  }
  int *d_keys, *d_values, *d_keys_out, *d_values_out, *d_total, *d_count;
  cudaMalloc(&d_keys, n * sizeof(int));
  cudaMalloc(&d_values, n * sizeof(int));
  cudaMalloc(&d_keys_out, n * sizeof(int));
  cudaMalloc(&d_values_out, n * sizeof(int));
  cudaMalloc(&d_total, sizeof(int));
  cudaMalloc(&d_count, sizeof(int));
  cudaMemcpy(d_keys, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_values, values.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  // CUB's protocol: a call without storage asks for its size, the second call computes.
  const auto two_phase = [](auto call, const char* what) {
    void* temp = nullptr;
    size_t bytes = 0;
    call(temp, bytes);
    expect(bytes > 0, what, 0);
    cudaMalloc(&temp, bytes);
    call(temp, bytes);
    cudaFree(temp);
  };
  two_phase(
      [&](void* temp, size_t& bytes) { cub::DeviceReduce::Sum(temp, bytes, d_keys, d_total, n); },
      "DeviceReduce::Sum's size query");
  int total = 0, expected_total = 0;
  for (int k : keys) {
    expected_total += k;
  }
  cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
  expect(total == expected_total, "DeviceReduce::Sum", 0);

  two_phase(
      [&](void* temp, size_t& bytes) {
        cub::DeviceScan::ExclusiveSum(temp, bytes, d_keys, d_keys_out, n);
      },
      "DeviceScan::ExclusiveSum's size query");
  std::vector<int> scanned(n);
  cudaMemcpy(scanned.data(), d_keys_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0, sum = 0; i < n; sum += keys[i], ++i) {
    expect(scanned[i] == sum, "DeviceScan::ExclusiveSum", i);
  }

  two_phase(
      [&](void* temp, size_t& bytes) {
        cub::DeviceRadixSort::SortPairs(temp, bytes, d_keys, d_keys_out, d_values, d_values_out, n);
      },
      "DeviceRadixSort::SortPairs's size query");
  std::vector<int> sorted_keys(n), sorted_values(n);
  cudaMemcpy(sorted_keys.data(), d_keys_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(sorted_values.data(), d_values_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 1; i < n; ++i) {
    expect(sorted_keys[i - 1] < sorted_keys[i] ||
               (sorted_keys[i - 1] == sorted_keys[i] && sorted_values[i - 1] < sorted_values[i]),
           "DeviceRadixSort::SortPairs (stable order)", i);
  }
  for (int i = 0; i < n; ++i) {
    expect(keys[sorted_values[i]] == sorted_keys[i], "DeviceRadixSort::SortPairs (pairs)", i);
  }

  int selected = -1, expected_selected = 0;
  for (int k : keys) {
    expected_selected += k > 0 ? 1 : 0;
  }
  two_phase(
      [&](void* temp, size_t& bytes) {
        cub::DeviceSelect::If(temp, bytes, d_keys, d_keys_out, d_count, n, Positive());
      },
      "DeviceSelect::If's size query");
  cudaMemcpy(&selected, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  expect(selected == expected_selected, "DeviceSelect::If", 0);
  two_phase(
      [&](void* temp, size_t& bytes) {
        cub::DeviceSelect::Flagged(temp, bytes, d_values, d_keys, d_values_out, d_count, n);
      },
      "DeviceSelect::Flagged's size query");
  std::vector<int> flagged(n);
  cudaMemcpy(&selected, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(flagged.data(), d_values_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int nonzero = 0;
  for (int i = 0; i < n; ++i) {
    if (keys[i] != 0) {
      expect(flagged[nonzero++] == i, "DeviceSelect::Flagged (order)", i);
    }
  }
  expect(selected == nonzero, "DeviceSelect::Flagged", 0);

  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
