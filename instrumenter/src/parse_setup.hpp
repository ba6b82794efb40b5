// Compile commands for the two parse setups (toolkit headers / builtin declarations), toolkit
// discovery, and the translation of nvcc-style user flags into Clang flags.
#pragma once

#include <string>
#include <vector>

#include "memcarlo/instrumenter/options.hpp"

namespace memcarlo::instrumenter {

enum class Side { kHost, kDevice };

/// The CUDA toolkit root from --cuda-path, CUDA_PATH, `which nvcc` or /usr/local/cuda; empty when
/// none has include/cuda_runtime.h.
std::string find_cuda_toolkit(const std::string& explicit_path);

/// User flags after translation: what Clang should see, the GPU architecture, and remarks about
/// flags that were dropped.
struct UserFlags {
  std::vector<std::string> clang_flags;
  std::string gpu_arch = "sm_70";
  std::vector<std::string> notes;
};

/// Keeps include paths, macros, forced includes and the language standard; maps nvcc's
/// -arch/-gencode to a GPU architecture Clang knows; drops the rest (optimisation, code
/// generation, linking). `working_dir` makes relative -I paths absolute (compile databases).
UserFlags translate_user_flags(const std::vector<std::string>& flags,
                               const std::string& working_dir);

/// The macros the command line defines (-DNAME) whose names a header may use as an identifier:
/// one letter, or capitals, digits and underscores (PolyBench's N, M, NX, TSTEPS). With them the
/// toolkit's headers may not parse (CUDA 13's cuda.h has a parameter N); memcarlo's own
/// declarations avoid such names.
std::vector<std::string> identifier_like_macros(const UserFlags& user);

/// The full Clang command line for one side of one setup (argv[0] first, the file last).
std::vector<std::string> parse_command(ParseSetup setup, Side side, const std::string& toolkit,
                                       const UserFlags& user, const std::string& file);

/// Flags read from compile_commands.json in `directory` for `file` (compiler and file removed).
/// Returns false with `error` set when there is no usable entry.
bool flags_from_compilation_database(const std::string& directory, const std::string& file,
                                     std::vector<std::string>& flags, std::string& working_dir,
                                     std::string& error);

}  // namespace memcarlo::instrumenter
