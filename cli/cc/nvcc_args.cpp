// nvcc argument parsing for memcarlo-cc: options with separate or attached values, -x languages,
// comma lists of -Xcompiler / -Xlinker, and inputs classified by extension.
#include "nvcc_args.hpp"

#include <filesystem>
#include <stdexcept>

namespace memcarlo::cli::cc {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> out;
  std::string current;
  for (char c : list) {
    if (c == ',') {
      if (!current.empty()) {
        out.push_back(current);
      }
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) {
    out.push_back(current);
  }
  return out;
}

InputKind kind_of(const std::string& path, const std::string& language) {
  if (language == "cu") {
    return InputKind::kCuda;
  }
  if (language == "c++") {
    return InputKind::kCxx;
  }
  if (language == "c") {
    return InputKind::kC;
  }
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".cu") {
    return InputKind::kCuda;
  }
  if (ext == ".c") {
    return InputKind::kC;
  }
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C" || ext == ".c++") {
    return InputKind::kCxx;
  }
  return InputKind::kObject;  // .o, .a, .so and anything else goes to the linker
}

/// nvcc's own switches that look like host-compiler flags (-f..., -W..., -m...); CMake passes
/// -forward-unknown-to-host-compiler to every nvcc command.
bool is_nvcc_only_switch(const std::string& a) {
  static const char* const kSwitches[] = {
      "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
      "-forward-unknown-to-host-linker",   "--forward-unknown-to-host-linker",
      "-Wno-deprecated-gpu-targets",       "--Wno-deprecated-gpu-targets",
      "-Wdefault-stream-launch",           "-Wmissing-launch-bounds",
      "-Wext-lambda-captures-this",        "-Wreorder",
      "-m64",                              "--machine=64"};
  for (const char* known : kSwitches) {
    if (a == known) {
      return true;
    }
  }
  return starts_with(a, "-ftz=") || starts_with(a, "-fmad=") || starts_with(a, "--ftz=") ||
         starts_with(a, "--fmad=") || starts_with(a, "-Werror=cross-execution-space-call") ||
         starts_with(a, "-Werror=default-stream-launch") ||
         starts_with(a, "-Werror=missing-launch-bounds") ||
         starts_with(a, "-Werror=ext-lambda-captures-this") || a == "-Werror=all-warnings";
}

}  // namespace

std::string default_object_name(const std::string& source) {
  return std::filesystem::path(source).stem().string() + ".o";
}

CcInvocation parse_nvcc_arguments(const std::vector<std::string>& arguments) {
  CcInvocation out;
  std::string language;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& a = arguments[i];
    auto value = [&](const std::string& option) -> std::string {
      if (i + 1 >= arguments.size()) {
        throw std::invalid_argument(option + " needs a value");
      }
      return arguments[++i];
    };
    // Option with a value either attached (-Ifoo, -arch=sm_70) or separate (-I foo).
    auto attached = [&](const std::string& option, std::string& result) {
      if (a == option) {
        result = value(option);
        return true;
      }
      if (starts_with(a, option + "=")) {
        result = a.substr(option.size() + 1);
        return true;
      }
      if (option.size() == 2 && starts_with(a, option) && a.size() > 2) {
        result = a.substr(2);
        return true;
      }
      return false;
    };
    std::string v;
    if (a.empty()) {
      continue;
    }
    if (a[0] != '-' || a == "-") {
      out.inputs.push_back({a, kind_of(a, language)});
    } else if (attached("-o", v) || attached("--output-file", v)) {
      out.output = v;
    } else if (a == "-c" || a == "--compile") {
      out.compile_only = true;
    } else if (a == "-dc" || a == "--device-c") {
      out.compile_only = true;
      out.relocatable_device = true;
    } else if (a == "-rdc=true" || a == "--relocatable-device-code=true") {
      out.relocatable_device = true;
    } else if (a == "-rdc=false" || a == "--relocatable-device-code=false") {
      out.relocatable_device = false;
    } else if (a == "-rdc" || a == "--relocatable-device-code") {
      out.relocatable_device = value(a) == "true";
    } else if (attached("-I", v) || attached("--include-path", v)) {
      out.preprocessor.push_back("-I" + v);
    } else if (a == "-isystem" || a == "-iquote" || a == "-include" || a == "--pre-include") {
      out.preprocessor.push_back(a == "--pre-include" ? "-include" : a);
      out.preprocessor.push_back(value(a));
    } else if (attached("-D", v) || attached("--define-macro", v)) {
      out.preprocessor.push_back("-D" + v);
    } else if (attached("-U", v) || attached("--undefine-macro", v)) {
      out.preprocessor.push_back("-U" + v);
    } else if (starts_with(a, "-std=") || starts_with(a, "--std=")) {
      out.standard = a.substr(a.find('=') + 1);
    } else if (a == "-std" || a == "--std") {
      out.standard = value(a);
    } else if (starts_with(a, "-O") || a == "-g" || a == "--debug") {
      out.optimization.push_back(a == "--debug" ? "-g" : a);
    } else if (a == "-lineinfo" || a == "--generate-line-info") {
      out.gpu.push_back(a);  // before -l: not a library
    } else if (attached("-L", v) || attached("--library-path", v)) {
      out.linker.push_back("-L" + v);
    } else if (attached("-l", v) || attached("--library", v)) {
      out.linker.push_back("-l" + v);
    } else if (a == "-shared" || a == "--shared" || a == "-pthread" || a == "-lpthread") {
      out.linker.push_back(a == "--shared" ? "-shared" : a);
    } else if (attached("-Xcompiler", v) || attached("--compiler-options", v)) {
      for (const std::string& flag : split_commas(v)) {
        out.host_compiler_flags.push_back(flag);
      }
    } else if (attached("-Xlinker", v) || attached("--linker-options", v)) {
      out.linker.push_back("-Wl," + v);
    } else if (attached("-x", v) || attached("--x", v)) {
      language = v == "none" ? "" : v;
    } else if (attached("-ccbin", v) || attached("--compiler-bindir", v)) {
      out.host_compiler = v;
    } else if (a == "-arch" || a == "--gpu-architecture" || a == "-gencode" ||
               a == "--generate-code" || a == "-code" || a == "--gpu-code") {
      out.gpu.push_back(a);
      out.gpu.push_back(value(a));
    } else if (starts_with(a, "-arch=") || starts_with(a, "--gpu-architecture=") ||
               starts_with(a, "-gencode=") || starts_with(a, "--generate-code=") ||
               starts_with(a, "-code=") || starts_with(a, "--gpu-code=") ||
               starts_with(a, "-arch") || a == "-G" || a == "--device-debug" ||
               a == "-lineinfo" || a == "--generate-line-info") {
      out.gpu.push_back(a);
    } else if (a == "-Xptxas" || a == "--ptxas-options" || a == "-maxrregcount" ||
               a == "--maxrregcount" || a == "-Xnvlink" || a == "--nvlink-options" ||
               a == "-Xcudafe" || a == "--cudafe-options") {
      out.cuda_only.push_back(a);
      out.cuda_only.push_back(value(a));
      out.notes.push_back(a + " dropped: no meaning on the CPU");
    } else if (is_nvcc_only_switch(a)) {
      out.cuda_only.push_back(a);
      out.notes.push_back(a + " dropped: an nvcc option with no host-backend meaning");
    } else if (starts_with(a, "-W") || starts_with(a, "-f") || starts_with(a, "-m") ||
               a == "-w" || starts_with(a, "-M")) {
      // Host-compiler-looking flags nvcc also accepts; -MF and -MT take a value.
      out.host_compiler_flags.push_back(a);
      if (a == "-MF" || a == "-MT" || a == "-MQ") {
        out.host_compiler_flags.push_back(value(a));
      }
    } else {
      // nvcc-only switches (--use_fast_math, --expt-relaxed-constexpr, -res-usage, ...).
      out.cuda_only.push_back(a);
      out.notes.push_back(a + " dropped: an nvcc option with no host-backend meaning");
    }
  }
  return out;
}

}  // namespace memcarlo::cli::cc
