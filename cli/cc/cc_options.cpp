// Where memcarlo-cc finds its tools, headers and runtimes: the build tree that built it, or the
// installed prefix it sits in (any prefix: the configured lists name {include} and {lib}); and
// the flags it prints for builds that compile or link without it.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "../process.hpp"
#include "cc_config.hpp"
#include "cc_driver.hpp"

namespace memcarlo::cli::cc {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ';')) {
    if (!item.empty()) {
      out.push_back(item);
    }
  }
  return out;
}

/// A list for a shell command line: each item quoted where needed, separated by spaces.
std::string shell_words(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    out += (out.empty() ? "" : " ") + quote_command({item});
  }
  return out;
}

/// A configured list with {include} and {lib} replaced by an installed prefix's directories.
std::vector<std::string> installed_list(const char* list, const fs::path& prefix) {
  std::vector<std::string> out;
  for (std::string item : split_list(list)) {
    for (const auto& [token, directory] :
         {std::pair<std::string, std::string>{"{include}", (prefix / config::kInstallIncludeDir)},
          std::pair<std::string, std::string>{"{lib}", (prefix / config::kInstallLibDir)}}) {
      for (auto at = item.find(token); at != std::string::npos; at = item.find(token)) {
        item.replace(at, token.size(), directory);
      }
    }
    out.push_back(item);
  }
  return out;
}

/// The CUDA toolkit's directory of Thrust and libcu++ headers (CUDA 13: include/cccl; CUDA 12:
/// include), found beside `nvcc`, under $CUDA_PATH or /usr/local/cuda; empty when none has Thrust.
std::string toolkit_thrust_include(const std::string& nvcc) {
  std::vector<fs::path> toolkits;
  if (!nvcc.empty()) {
    toolkits.push_back(fs::path(nvcc).parent_path().parent_path());
  }
  if (const char* cuda_path = std::getenv("CUDA_PATH"); cuda_path != nullptr && *cuda_path) {
    toolkits.emplace_back(cuda_path);
  }
  toolkits.emplace_back("/usr/local/cuda");
  std::error_code ignored;
  for (const fs::path& toolkit : toolkits) {
    for (const fs::path& include : {toolkit / "include" / "cccl", toolkit / "include"}) {
      if (fs::exists(include / "thrust" / "version.h", ignored)) {
        return include.string();
      }
    }
  }
  return "";
}

}  // namespace

std::vector<std::string> host_thrust_flags(const std::string& nvcc,
                                           const std::vector<std::string>& user_flags) {
  const std::string include = toolkit_thrust_include(nvcc);
  if (include.empty()) {
    return {};
  }
  std::vector<std::string> flags = {"-isystem", include};
  const bool chosen = std::any_of(user_flags.begin(), user_flags.end(), [](const std::string& f) {
    return f.rfind("-DTHRUST_DEVICE_SYSTEM=", 0) == 0;
  });
  if (!chosen) {
    flags.push_back("-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP");
  }
  return flags;
}

DriverOptions default_driver_options(const std::string& executable_directory) {
  DriverOptions options;
  options.host_compiler = config::kHostCompiler;
  options.nvcc = config::kNvcc;
  if (!options.nvcc.empty() && !fs::exists(options.nvcc)) {
    options.nvcc.clear();
  }
  // An installed tree: <prefix>/bin/memcarlo-cc beside <prefix>/include/memcarlo/probe_api.h.
  // A build tree's cli/ never has that include directory beside it.
  std::error_code error;
  const fs::path bin = fs::weakly_canonical(executable_directory, error);
  fs::path prefix = bin;
  bool under_bin = !executable_directory.empty() && fs::path(config::kInstallBinDir).is_relative();
  for (const fs::path& part : fs::path(config::kInstallBinDir)) {  // strip "bin" off the end
    (void)part;
    under_bin = under_bin && prefix.has_parent_path();
    prefix = prefix.parent_path();
  }
  under_bin = under_bin && prefix / config::kInstallBinDir == bin;
  if (under_bin && fs::exists(prefix / config::kInstallIncludeDir / "memcarlo" / "probe_api.h")) {
    options.installed_prefix = prefix.string();
    options.instrument_tool = (bin / "memcarlo-instrument").string();
    options.host_compile_flags = installed_list(config::kInstalledHostCompileFlags, prefix);
    options.host_link_inputs = installed_list(config::kInstalledHostLinkInputs, prefix);
    options.cuda_compile_flags = installed_list(config::kInstalledCudaCompileFlags, prefix);
    options.cuda_link_inputs = installed_list(config::kInstalledCudaLinkInputs, prefix);
  } else {
    options.instrument_tool = config::kInstrumentTool;
    options.host_compile_flags = split_list(config::kHostCompileFlags);
    options.host_link_inputs = split_list(config::kHostLinkInputs);
    options.cuda_compile_flags = split_list(config::kCudaCompileFlags);
    options.cuda_link_inputs = split_list(config::kCudaLinkInputs);
  }
  if (!options.instrument_tool.empty() && !fs::exists(options.instrument_tool)) {
    options.instrument_tool.clear();
  }
  return options;
}

std::string print_link_flags(const DriverOptions& options) {
  return shell_words(options.backend == Backend::kHost ? options.host_link_inputs
                                                       : options.cuda_link_inputs);
}

std::string print_compile_flags(const DriverOptions& options) {
  if (options.backend == Backend::kCuda) {
    return shell_words(options.cuda_compile_flags);
  }
  // For C++ files: their language is already C++ (no -x c++, which would also apply to any
  // object file after it on a command line).
  std::vector<std::string> flags;
  for (std::size_t i = 0; i < options.host_compile_flags.size(); ++i) {
    if (options.host_compile_flags[i] == "-x") {
      ++i;
      continue;
    }
    flags.push_back(options.host_compile_flags[i]);
  }
  if (flags.empty())
    return "";
  for (std::string& flag : host_thrust_flags(options.nvcc, {})) {
    flags.push_back(std::move(flag));
  }
  flags.push_back("-std=c++20");  // the emulation needs C++20
  return shell_words(flags);
}

Backend default_backend() {
  const bool gpu = fs::exists("/dev/nvidia0") || fs::exists("/dev/nvidiactl");
  const bool runtime = std::string(config::kCudaLinkInputs).size() > 0;
  return gpu && runtime ? Backend::kCuda : Backend::kHost;
}

}  // namespace memcarlo::cli::cc
