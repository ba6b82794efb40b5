// Emulation speed on a scalar CSR SpMV (the paper's Listing 2) with the probes the instrumenter
// would insert: probe events per second untraced (with and without bounds checks) and traced, and
// the same kernel without probes.
// MEMCARLO_PROBE_RATE_ROWS enlarges the problem for measurements (default: a quick test size).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "host_test_util.h"
#include "memcarlo/tracebuf/reader.hpp"

using host_test::DeviceArray;

namespace {

static constexpr unsigned memcarlo_tu = 0x5005u;
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "spmv", "expression": "rowIndices[myi]", "kind": "read", "element_size": 4},
  {"id": 1, "function": "spmv", "expression": "rowIndices[myi + 1]", "kind": "read", "element_size": 4},
  {"id": 2, "function": "spmv", "expression": "indices[j]", "kind": "read", "element_size": 4},
  {"id": 3, "function": "spmv", "expression": "y[ind]", "kind": "read", "element_size": 4},
  {"id": 4, "function": "spmv", "expression": "val[j]", "kind": "read", "element_size": 4},
  {"id": 5, "function": "spmv", "expression": "x[myi]", "kind": "write", "element_size": 4}
])json";
MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)
#define PROBE(id, expression) (*memcarlo_probe(memcarlo_tu, id, &(expression)))

constexpr unsigned kBlockSize = 256;

__global__ void spmv_probed(unsigned rows, const unsigned* rowIndices, const unsigned* indices,
                            const float* val, const float* y, float* x) {
  const unsigned myi = blockIdx.x * kBlockSize + threadIdx.x;
  if (myi < rows) {
    float t = 0;
    const unsigned lb = PROBE(0, rowIndices[myi]);
    const unsigned ub = PROBE(1, rowIndices[myi + 1]);
    for (unsigned j = lb; j < ub; j++) {
      const unsigned ind = PROBE(2, indices[j]);
      const float yval = PROBE(3, y[ind]);
      t += PROBE(4, val[j]) * yval;
    }
    PROBE(5, x[myi]) = t;
  }
}

__global__ void spmv_plain(unsigned rows, const unsigned* rowIndices, const unsigned* indices,
                           const float* val, const float* y, float* x) {
  const unsigned myi = blockIdx.x * kBlockSize + threadIdx.x;
  if (myi < rows) {
    float t = 0;
    for (unsigned j = rowIndices[myi]; j < rowIndices[myi + 1]; j++) {
      t += val[j] * y[indices[j]];
    }
    x[myi] = t;
  }
}

struct Matrix {
  unsigned rows;
  std::vector<unsigned> row_indices;
  std::vector<unsigned> indices;
  std::vector<float> values;
};

/// 32 non-zeros per row at random columns (the paper's "u" matrices) when `variable` is false;
/// otherwise 16 to 48 per row, so that the lanes of a warp loop different numbers of times.
Matrix random_matrix(unsigned rows, bool variable) {
  Matrix m{rows, {0}, {}, {}};
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>(state >> 33);
  };
  for (unsigned r = 0; r < rows; ++r) {
    const unsigned length = variable ? 16 + next() % 33 : 32;
    for (unsigned k = 0; k < length; ++k) {
      m.indices.push_back(next() % rows);
      m.values.push_back(static_cast<float>(k % 5) * 0.5f);
    }
    m.row_indices.push_back(static_cast<unsigned>(m.indices.size()));
  }
  return m;
}

/// Process CPU time of `body`: the machines these tests run on are shared, so wall time says
/// little. With MEMCARLO_THREADS=1 it is the single-core cost.
template <class Body>
double cpu_seconds(Body&& body) {
  timespec start{};
  timespec end{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
  body();
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end);
  return static_cast<double>(end.tv_sec - start.tv_sec) +
         1e-9 * static_cast<double>(end.tv_nsec - start.tv_nsec);
}

void measure(const char* label, bool variable) {
  const char* rows_text = std::getenv("MEMCARLO_PROBE_RATE_ROWS");
  const unsigned rows = rows_text != nullptr ? static_cast<unsigned>(std::atoi(rows_text)) : 8192;
  const Matrix m = random_matrix(rows, variable);
  std::vector<float> y_host(rows);
  for (unsigned i = 0; i < rows; ++i) {
    y_host[i] = static_cast<float>(i % 7);
  }
  DeviceArray<unsigned> row_indices(m.row_indices), indices(m.indices);
  DeviceArray<float> val(m.values), y(y_host), x(rows), x_plain(rows);
  const unsigned blocks = (rows + kBlockSize - 1) / kBlockSize;
  const std::uint64_t events = std::uint64_t{rows} * 3 + m.indices.size() * 3;
  // k-th execution semantics: a warp issues each loop load as often as its longest row.
  std::uint64_t expected_records = 0;
  for (unsigned warp = 0; warp < rows / 32; ++warp) {
    unsigned longest = 0;
    for (unsigned row = warp * 32; row < warp * 32 + 32; ++row) {
      longest = std::max(longest, m.row_indices[row + 1] - m.row_indices[row]);
    }
    expected_records += 3 + 3 * std::uint64_t{longest};
  }

  const double plain = cpu_seconds([&] {
    memcarlo_launch("spmv_plain", spmv_plain, blocks, kBlockSize, 0, 0, rows, row_indices.get(),
                    indices.get(), val.get(), y.get(), x_plain.get());
  });
  // Untraced with bounds checks on (the default) and off, alternately, best of three each: the
  // machines are shared, and the difference is what the check costs.
  const auto untraced_run = [&](bool bounds_check) {
    memcarlo::host::RuntimeOptions options = memcarlo::host::runtime_options();
    options.bounds_check = bounds_check;
    memcarlo::host::set_runtime_options(options);
    const double seconds = cpu_seconds([&] {
      memcarlo_launch("spmv", spmv_probed, blocks, kBlockSize, 0, 0, rows, row_indices.get(),
                      indices.get(), val.get(), y.get(), x.get());
    });
    options.bounds_check = true;
    memcarlo::host::set_runtime_options(options);
    return seconds;
  };
  double untraced = 1e30;
  double unchecked = 1e30;
  for (int round = 0; round < 3; ++round) {
    untraced = std::min(untraced, untraced_run(true));
    unchecked = std::min(unchecked, untraced_run(false));
  }
  EXPECT_EQ(x.to_host(), x_plain.to_host());

  const std::string path = host_test::temporary_trace_path(std::string("probe_rate_") + label);
  host_test::TracingOff tracing_off;
  memcarlo::host::RuntimeOptions options = host_test::trace_options(path);
  options.snapshot_blocks = blocks;  // trace every block, to time the traced path alone
  memcarlo::host::set_runtime_options(options);
  const memcarlo::host::RuntimeStats before = memcarlo::host::runtime_stats();
  const double traced = cpu_seconds([&] {
    memcarlo_launch("spmv", spmv_probed, blocks, kBlockSize, 0, 0, rows, row_indices.get(),
                    indices.get(), val.get(), y.get(), x.get());
  });
  memcarlo::host::finish_trace();
  const memcarlo::host::RuntimeStats after = memcarlo::host::runtime_stats();
  EXPECT_EQ(after.traced_probe_events - before.traced_probe_events, events);
  const memcarlo::tracebuf::TraceReader reader = memcarlo::tracebuf::TraceReader::open(path);
  EXPECT_EQ(reader.total_records(), expected_records);
  std::remove(path.c_str());

  std::printf(
      "spmv (%s rows) %u rows, %llu probe events, CPU time: no probes %.3f s; untraced "
      "%.3f s (%.1f M events/s), without bounds checks %.3f s (%.1f M events/s); traced %.3f s "
      "(%.1f M events/s, %llu records)\n",
      label, rows, static_cast<unsigned long long>(events), plain, untraced,
      static_cast<double>(events) / untraced / 1e6, unchecked,
      static_cast<double>(events) / unchecked / 1e6, traced,
      static_cast<double>(events) / traced / 1e6,
      static_cast<unsigned long long>(reader.total_records()));
  ::testing::Test::RecordProperty(std::string(label) + "_untraced_events_per_second",
                                  std::to_string(static_cast<double>(events) / untraced));
  ::testing::Test::RecordProperty(std::string(label) + "_unchecked_events_per_second",
                                  std::to_string(static_cast<double>(events) / unchecked));
  ::testing::Test::RecordProperty(std::string(label) + "_traced_events_per_second",
                                  std::to_string(static_cast<double>(events) / traced));
}

}  // namespace

TEST(HostProbeRate, SpmvConvergentWarps) {
  measure("uniform", false);
}

TEST(HostProbeRate, SpmvDivergentWarps) {
  measure("variable", true);
}
