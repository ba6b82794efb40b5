// libFuzzer harness: an Accel-Sim kernel trace (kernel-1.traceg text) imported into a memcarlo
// trace, which must then open and pass every invariant. Refusals must be accelsim::ImportError
// (malformed input) or tracebuf::TraceError (the output cannot be written).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "fuzz_support.hpp"
#include "memcarlo/accelsim/accelsim.hpp"
#include "memcarlo/tracebuf/errors.hpp"
#include "memcarlo/tracebuf/reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memcarlo;
  const fuzz::InputFile input(data, size, "-kernel-1.traceg");
  const std::string output = input.path() + ".mct";
  try {
    (void)accelsim::import_trace(input.path(), output);
    // What the importer writes must be a valid trace: an exception here is a finding.
    const auto reader = tracebuf::TraceReader::open(output);
    (void)tracebuf::check_invariants(reader);
  } catch (const accelsim::ImportError&) {
  }
  std::error_code ignored;
  std::filesystem::remove(output, ignored);
  return 0;
}
