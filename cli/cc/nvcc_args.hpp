// The nvcc command line as memcarlo-cc understands it: inputs by kind, the options that matter to
// each backend, and what it passes through or drops. Pure parsing, no side effects.
#pragma once

#include <string>
#include <vector>

namespace memcarlo::cli::cc {

enum class InputKind { kCuda, kCxx, kC, kObject };

struct Input {
  std::string path;
  InputKind kind;
};

struct CcInvocation {
  std::vector<Input> inputs;
  std::string output;               // -o; empty: nvcc's default
  bool compile_only = false;        // -c / -dc
  bool relocatable_device = false;  // -rdc=true / -dc
  std::vector<std::string> preprocessor;  // -I, -isystem, -iquote, -D, -U, -include (normalized)
  std::string standard;                   // -std=...
  std::vector<std::string> optimization;  // -O*, -g
  std::vector<std::string> host_compiler_flags;  // -Xcompiler, and host-compiler-looking flags
  std::vector<std::string> linker;        // -L, -l, -Xlinker (as -Wl,...), -shared, -pthread
  std::vector<std::string> gpu;           // -arch, -gencode, -code, --gpu-architecture, ...
  std::vector<std::string> cuda_only;     // nvcc options with no host-backend meaning
  std::string host_compiler;              // -ccbin
  std::vector<std::string> notes;         // what was dropped for the host backend, and why
};

/// Parses nvcc arguments (without argv[0] and without memcarlo-cc's own --memcarlo-* options).
/// Throws std::invalid_argument naming the argument for an option missing its value.
CcInvocation parse_nvcc_arguments(const std::vector<std::string>& arguments);

/// The object file nvcc would write for `source` with -c and no -o: its stem plus ".o".
std::string default_object_name(const std::string& source);

}  // namespace memcarlo::cli::cc
