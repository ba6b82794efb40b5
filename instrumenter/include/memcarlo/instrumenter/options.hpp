// Options of one instrumenter run: what to read, what to write and how to parse it.
#pragma once

#include <string>
#include <vector>

namespace memcarlo::instrumenter {

/// Which runtime the instrumented program is compiled against (see probe_api.h).
enum class Backend { kHost, kCuda };

/// The two ways of parsing CUDA with Clang. kToolkit uses the installed CUDA toolkit's headers
/// (plus compatibility pieces for toolkits newer than Clang); kBuiltin uses -nocudainc and
/// memcarlo's own declarations header, which also declares APIs that CUDA 12/13 removed.
enum class ParseSetup { kToolkit, kBuiltin };

struct InstrumentOptions {
  std::string input;       // the .cu file of the translation unit
  std::string output;      // -o: the rewritten main file (or the patch with `patch`)
  std::string output_dir;  // --output-dir: mirror every rewritten user file below this folder
  std::string loads_path;  // --loads: the loads table as JSON; empty = embedded only
  Backend backend = Backend::kHost;
  bool patch = false;             // write a unified diff instead of the rewritten sources
  bool line_directives = true;    // emit #line so compiler messages point at the original
  bool verbose = false;           // list every skipped access with its location
  std::vector<ParseSetup> setup_order = {ParseSetup::kToolkit, ParseSetup::kBuiltin};
  std::vector<std::string> compile_flags;  // flags after `--` (nvcc or clang style)
  std::string compilation_database_dir;    // -p DIR: read flags from compile_commands.json
  std::string cuda_path;                   // --cuda-path; empty = CUDA_PATH or `which nvcc`
};

std::string to_string(Backend backend);
std::string to_string(ParseSetup setup);

}  // namespace memcarlo::instrumenter
