// The instrumenter's entry points: instrument one translation unit and report what was done.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "memcarlo/instrumenter/loads_table.hpp"
#include "memcarlo/instrumenter/options.hpp"

namespace memcarlo::instrumenter {

/// One access that was found but not probed, with the reason (shown under --verbose).
struct SkippedAccess {
  std::string location;  // file:line:col
  std::string expression;
  std::string reason;    // "shared", "local", "constant", "redundant", "macro", ...
};

struct InstrumentSummary {
  unsigned probed = 0;
  std::map<std::string, unsigned> skipped_by_reason;
  std::vector<SkippedAccess> skipped;
  unsigned launches_rewritten = 0;
  std::string host_setup;    // the parse setup that parsed the host side
  std::string device_setup;  // ... and the device side ("host-ast" when it fell back)
  std::vector<std::string> notes;  // non-fatal remarks (flags dropped, fallbacks taken)
  /// Errors of host code that touch neither device code nor launches, instrumented anyway
  /// (printed with a warning whether or not --verbose).
  std::vector<std::string> tolerated_errors;
  /// Constructs rewritten that will not run as on a GPU ("file:line:col: what"), printed with a
  /// warning whether or not --verbose: device-side launches for the host backend.
  std::vector<std::string> warnings;
  [[nodiscard]] unsigned skipped_total() const;
};

/// The outcome of instrumenting a translation unit. On failure `errors` holds the messages
/// (file:line:col where there is a place) and nothing is meant to be written.
struct InstrumentResult {
  bool ok = false;
  std::vector<std::string> errors;
  std::map<std::string, std::string> outputs;  // output path -> content, all or nothing
  std::vector<LoadEntry> loads;
  std::string loads_json;
  InstrumentSummary summary;
};

/// Parses, analyses and rewrites; writes nothing.
InstrumentResult instrument(const InstrumentOptions& options);

/// instrument() plus writing the outputs (each via a temporary file and a rename, and only when
/// everything succeeded) and printing errors and the summary line to `diagnostics`.
/// Returns the process exit code: 0 on success, 1 on parse errors, 2 on other failures.
int run_instrument(const InstrumentOptions& options, std::ostream& diagnostics);

/// The one-line summary printed on stderr (and the verbose list after it when asked).
std::string format_summary(const std::string& input, const InstrumentSummary& summary,
                           bool verbose);

}  // namespace memcarlo::instrumenter
