// libFuzzer harness: Nsight Compute --csv output. Refusals must be reports::CompareInputError
// naming the line.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "memcarlo/reports/ncu_compare.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memcarlo;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    (void)reports::parse_ncu_csv(in, "fuzz.csv");
  } catch (const reports::CompareInputError&) {
  }
  return 0;
}
