// Compile commands for the toolkit and builtin parse setups and the nvcc-to-Clang flag mapping.
#include "parse_setup.hpp"

#include <array>
#include <cctype>
#include <cstdlib>
#include <memory>

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include "memcarlo_instrumenter_build_config.hpp"
#include "virtual_files.hpp"

namespace memcarlo::instrumenter {

namespace {
bool has_cuda_headers(const std::string& root) {
  return !root.empty() && llvm::sys::fs::exists(root + "/include/cuda_runtime.h");
}

std::string absolute_in(const std::string& path, const std::string& working_dir) {
  llvm::SmallString<256> result(path);
  if (!working_dir.empty() && llvm::sys::path::is_relative(result)) {
    result = working_dir;
    llvm::sys::path::append(result, path);
  }
  return std::string(result.str());
}

// GPU architectures Clang 14-16 know; anything newer is parsed as sm_70 (the syntax is the same).
bool clang_knows_arch(llvm::StringRef arch) {
  static constexpr std::array kKnown = {"sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60",
                                        "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80",
                                        "sm_86", "sm_87", "sm_89", "sm_90"};
  for (const char* known : kKnown) {
    if (arch == known) return true;
  }
  return false;
}

// "sm_80", "compute_80", "arch=compute_80,code=sm_80" -> "sm_80"; empty when not recognised.
std::string arch_from(llvm::StringRef value) {
  size_t at = value.find("sm_");
  if (at == llvm::StringRef::npos) at = value.find("compute_");
  if (at == llvm::StringRef::npos) return "";
  llvm::StringRef rest = value.substr(at);
  rest = rest.substr(rest.find('_') + 1);
  const llvm::StringRef digits = rest.take_while([](char c) { return c >= '0' && c <= '9'; });
  return digits.empty() ? "" : "sm_" + digits.str();
}

// Flags (nvcc or gcc style) whose value is the next argument and that the parse does not need.
bool drops_next_argument(llvm::StringRef flag) {
  static constexpr std::array kFlags = {
      "-o", "-Xcompiler", "-Xptxas", "-Xlinker", "-Xnvlink", "-Xarchive", "-ccbin",
      "--compiler-bindir", "-maxrregcount", "--maxrregcount", "-L", "-l", "--library-path",
      "--library", "-MF", "-MT", "-MQ", "--output-file", "-odir", "--generate-code", "-rdc",
      "--relocatable-device-code", "-t", "--threads", "--resource-usage", "-Xclang"};
  for (const char* known : kFlags) {
    if (flag == known) return true;
  }
  return false;
}
}  // namespace

std::string find_cuda_toolkit(const std::string& explicit_path) {
  if (!explicit_path.empty()) return has_cuda_headers(explicit_path) ? explicit_path : "";
  if (const char* env = std::getenv("CUDA_PATH"); env != nullptr && has_cuda_headers(env)) {
    return env;
  }
  if (llvm::ErrorOr<std::string> nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> real;
    if (!llvm::sys::fs::real_path(*nvcc, real)) {
      const std::string root(llvm::sys::path::parent_path(llvm::sys::path::parent_path(real)));
      if (has_cuda_headers(root)) return root;
    }
  }
  return has_cuda_headers("/usr/local/cuda") ? "/usr/local/cuda" : "";
}

UserFlags translate_user_flags(const std::vector<std::string>& flags,
                               const std::string& working_dir) {
  UserFlags result;
  bool arch_set = false;
  auto set_arch = [&](llvm::StringRef value) {
    const std::string arch = arch_from(value);
    if (arch_set || arch.empty()) return;
    arch_set = true;
    if (clang_knows_arch(arch)) {
      result.gpu_arch = arch;
    } else {
      result.notes.push_back("GPU architecture " + arch + " is unknown to this Clang; parsing as " +
                             result.gpu_arch);
    }
  };
  for (size_t i = 0; i < flags.size(); ++i) {
    const llvm::StringRef flag = flags[i];
    const bool has_next = i + 1 < flags.size();
    auto take_value = [&](llvm::StringRef spelled, llvm::StringRef& value) {
      // Accepts "-Ivalue", "-I value", "--opt=value", "--opt value".
      if (flag == spelled) {
        if (!has_next) return false;
        value = flags[++i];
        return true;
      }
      if (flag.starts_with(spelled)) {
        value = flag.drop_front(spelled.size());
        if (value.starts_with("=") && spelled.starts_with("--")) value = value.drop_front();
        return true;
      }
      return false;
    };
    llvm::StringRef value;
    if (take_value("--include-path", value) || take_value("-I", value)) {
      result.clang_flags.push_back("-I" + absolute_in(value.str(), working_dir));
    } else if (take_value("-isystem", value) || take_value("--system-include", value)) {
      result.clang_flags.push_back("-isystem");
      result.clang_flags.push_back(absolute_in(value.str(), working_dir));
    } else if (take_value("-iquote", value)) {
      result.clang_flags.push_back("-iquote");
      result.clang_flags.push_back(absolute_in(value.str(), working_dir));
    } else if (take_value("--define-macro", value) || take_value("-D", value)) {
      result.clang_flags.push_back("-D" + value.str());
    } else if (take_value("--undefine-macro", value) || take_value("-U", value)) {
      result.clang_flags.push_back("-U" + value.str());
    } else if (take_value("--pre-include", value) || take_value("-include", value)) {
      result.clang_flags.push_back("-include");
      result.clang_flags.push_back(absolute_in(value.str(), working_dir));
    } else if (take_value("--std", value) || take_value("-std", value)) {
      if (value.starts_with("=")) value = value.drop_front();
      result.clang_flags.push_back("-std=" + value.str());
    } else if (take_value("--gpu-architecture", value) || take_value("-arch", value) ||
               take_value("--cuda-gpu-arch", value) || take_value("--offload-arch", value) ||
               take_value("-gencode", value) || take_value("--gpu-code", value)) {
      set_arch(value);
    } else if (drops_next_argument(flag)) {
      if (has_next) ++i;
    } else if (flag.starts_with("-") && !flag.starts_with("-W") && !flag.starts_with("-O") &&
               flag != "-c" && flag != "-g" && flag != "-G") {
      result.notes.push_back("ignored compile flag " + flag.str());
    } else if (!flag.starts_with("-")) {
      // Input files of the original command line; the translation unit is given separately.
    }
  }
  return result;
}

std::vector<std::string> identifier_like_macros(const UserFlags& user) {
  std::vector<std::string> names;
  for (const std::string& flag : user.clang_flags) {
    if (flag.rfind("-D", 0) != 0) continue;
    const std::string name = flag.substr(2, flag.find_first_of("=(") - 2);
    const bool capitals =
        !name.empty() && name[0] >= 'A' && name[0] <= 'Z' &&
        name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos;
    if ((name.size() == 1 && std::isalpha(static_cast<unsigned char>(name[0]))) || capitals) {
      names.push_back(name);
    }
  }
  return names;
}

std::vector<std::string> parse_command(ParseSetup setup, Side side, const std::string& toolkit,
                                       const UserFlags& user, const std::string& file) {
  std::vector<std::string> command = {
      "clang++", "-x", "cuda", "-fsyntax-only", "-w", "-ferror-limit=20", "-fno-caret-diagnostics",
      std::string("-resource-dir=") + build_config::kClangResourceDir, "-Xclang",
      "-fcuda-allow-variadic-functions", "--no-cuda-version-check",
      // C++17 removed `register`, which Clang then refuses (an error by default); nvcc accepts it.
      "-Wno-register",
      // Narrowing in a braced initializer (`uchar4 v = {a >> 24, ...}` with unsigned operands) is
      // an error in Clang by default; nvcc only warns.
      "-Wno-c++11-narrowing", side == Side::kHost ? "--cuda-host-only" : "--cuda-device-only",
      "--cuda-gpu-arch=" + user.gpu_arch};
  if (setup == ParseSetup::kToolkit) {
    // No -nocudalib here: with the toolkit's libdevice found, Clang also records the SDK version,
    // which selects the launch API (__cudaPushCallConfiguration) that new toolkits declare.
    command.push_back("--cuda-path=" + toolkit);
    command.push_back("-I" + std::string(kCompatIncludeDir));
    command.push_back("-isystem");
    command.push_back(toolkit + "/include/cccl");
    command.push_back("-include");
    command.push_back(std::string(kToolkitCompatHeader));
  } else {
    command.push_back("-nocudainc");
    command.push_back("-nocudalib");
    command.push_back("-isystem");
    command.push_back(std::string(kBuiltinIncludeDir));
    command.push_back("-include");
    command.push_back(std::string(kDeclarationsHeader));
  }
  // nvcc (CUDA 12+) compiles C++17 by default, and the toolkit's libcu++ requires it.
  bool has_standard = false;
  for (const std::string& flag : user.clang_flags) has_standard |= flag.rfind("-std=", 0) == 0;
  if (!has_standard) command.push_back("-std=c++17");
  command.insert(command.end(), user.clang_flags.begin(), user.clang_flags.end());
  command.push_back("-idirafter");  // after every other directory: only what is missing
  command.push_back(std::string(kFallbackIncludeDir));
  command.push_back(file);
  return command;
}

bool flags_from_compilation_database(const std::string& directory, const std::string& file,
                                     std::vector<std::string>& flags, std::string& working_dir,
                                     std::string& error) {
  std::string load_error;
  std::unique_ptr<clang::tooling::CompilationDatabase> database =
      clang::tooling::CompilationDatabase::loadFromDirectory(directory, load_error);
  if (!database) {
    error = directory + ": " + load_error;
    return false;
  }
  llvm::SmallString<256> absolute(file);
  llvm::sys::fs::make_absolute(absolute);
  std::vector<clang::tooling::CompileCommand> commands =
      database->getCompileCommands(absolute.str());
  if (commands.empty()) {
    error = directory + "/compile_commands.json has no entry for " + file;
    return false;
  }
  const clang::tooling::CompileCommand& command = commands.front();
  working_dir = command.Directory;
  const std::string filename(llvm::sys::path::filename(file));
  for (size_t i = 1; i < command.CommandLine.size(); ++i) {
    const std::string& argument = command.CommandLine[i];
    if (argument == command.Filename || llvm::sys::path::filename(argument) == filename) continue;
    flags.push_back(argument);
  }
  return true;
}

}  // namespace memcarlo::instrumenter
