// cuda_backend_compare_traces EXPECTED.mct ACTUAL.mct [--barriers]: exit 0 when every per-warp
// record agrees (addresses relative to each access's lowest address), 1 when not, 2 on error.
#include <cstdio>
#include <cstring>
#include <exception>

#include "trace_comparison.hpp"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4 || (argc == 4 && std::strcmp(argv[3], "--barriers") != 0)) {
    std::fprintf(stderr, "usage: %s EXPECTED.mct ACTUAL.mct [--barriers]\n", argv[0]);
    return 2;
  }
  try {
    const auto expected = memcarlo::tracebuf::TraceReader::open(argv[1]);
    const auto actual = memcarlo::tracebuf::TraceReader::open(argv[2]);
    const auto comparison = cuda_backend_test::compare_traces(expected, actual, argc == 4);
    for (const std::string& difference : comparison.differences) {
      std::printf("%s\n", difference.c_str());
    }
    std::printf("%llu records compared, %zu differences, %llu records with other barrier counts\n",
                static_cast<unsigned long long>(comparison.records_compared),
                comparison.differences.size(),
                static_cast<unsigned long long>(comparison.barrier_differences));
    return comparison.equal() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
