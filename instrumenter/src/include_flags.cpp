// `--print-include-flags`: where probe_api.h is (installed tree or source tree) and the backend.
#include "memcarlo/instrumenter/include_flags.hpp"

#include <vector>

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "memcarlo_instrumenter_build_config.hpp"

namespace memcarlo::instrumenter {

std::string to_string(Backend backend) { return backend == Backend::kHost ? "host" : "cuda"; }

std::string to_string(ParseSetup setup) {
  return setup == ParseSetup::kToolkit ? "toolkit" : "builtin";
}

std::string executable_path(const char* argv0) {
  static int anchor = 0;  // any symbol of this program locates it when argv[0] does not
  return llvm::sys::fs::getMainExecutable(argv0, &anchor);
}

std::string include_flags(Backend backend, const std::string& executable_path) {
  std::vector<std::string> include_dirs = {build_config::kBuildTreeIncludeDir};
  std::string emulation_header;
  if (backend == Backend::kHost) {
    llvm::SmallVector<llvm::StringRef, 2> host_dirs;
    llvm::StringRef(build_config::kHostIncludeDirs).split(host_dirs, ';', -1, false);
    for (llvm::StringRef dir : host_dirs) include_dirs.push_back(dir.str());
    emulation_header = build_config::kHostEmulationHeader;
  }
  llvm::SmallString<256> executable;
  if (!executable_path.empty() && !llvm::sys::fs::real_path(executable_path, executable)) {
    llvm::SmallString<256> installed(llvm::sys::path::parent_path(executable));
    llvm::sys::path::append(installed, "..", build_config::kInstallIncludeDir);
    llvm::sys::path::remove_dots(installed, true);
    llvm::SmallString<256> header(installed);
    llvm::sys::path::append(header, "memcarlo", "probe_api.h");
    // A build tree's executable never has an include/ beside its bin/ holding probe_api.h.
    if (llvm::sys::fs::exists(header)) {
      include_dirs = {std::string(installed.str())};
      llvm::SmallString<256> host_header(installed);
      llvm::sys::path::append(host_header, build_config::kInstalledHostEmulationHeader);
      emulation_header = backend == Backend::kHost && llvm::sys::fs::exists(host_header)
                             ? std::string(host_header.str())
                             : "";
      llvm::SmallString<256> stand_ins(installed);
      llvm::sys::path::append(stand_ins, build_config::kInstalledHostCudaIncludeDir);
      if (!emulation_header.empty() && llvm::sys::fs::is_directory(stand_ins)) {
        include_dirs.push_back(std::string(stand_ins.str()));
      }
    }
  }
  std::string flags;
  if (backend == Backend::kHost) flags += "-x c++ -std=c++20 ";  // the emulation is C++20
  for (const std::string& dir : include_dirs) flags += "-I" + dir + " ";
  if (backend == Backend::kHost) {
    flags += "-DMEMCARLO_BACKEND_HOST";
    if (!emulation_header.empty()) flags += " -include " + emulation_header;
  } else {
    // The device recorder is defined in the runtime's own translation unit.
    flags += "-DMEMCARLO_BACKEND_CUDA -rdc=true";
  }
  return flags;
}

}  // namespace memcarlo::instrumenter
