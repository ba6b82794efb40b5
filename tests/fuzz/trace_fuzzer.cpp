// libFuzzer harness: a trace file. Open it (framing, checksums, metadata), check every invariant,
// and when it passes, compile it for a small preset and replay one trial. Refusals must be
// tracebuf::TraceError (reader, invariants) or std::invalid_argument (compile: what the hierarchy
// cannot run); anything else, or a sanitizer report, is a finding.
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "fuzz_support.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/monte_carlo.hpp"
#include "memcarlo/tracebuf/errors.hpp"
#include "memcarlo/tracebuf/reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memcarlo;
  static const sim::HierarchyConfig config = sim::load_hierarchy("fermi-c2050");
  const fuzz::InputFile file(data, size, ".mct");
  try {
    for (const bool truncated : {false, true}) {
      const auto reader = tracebuf::TraceReader::open(file.path(), {.allow_truncated = truncated});
      (void)tracebuf::check_invariants(reader);  // throws at the first violation
      const sim::CompiledTrace trace = sim::compile_trace(reader, config);
      sim::MonteCarloOptions options;
      options.trials = 1;
      options.threads = 1;
      (void)sim::run_monte_carlo(trace, config, options);
    }
  } catch (const tracebuf::TraceError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
