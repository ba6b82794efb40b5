// The in-memory include directories of the parse setups, laid over the real file system.
#include "virtual_files.hpp"

#include <array>
#include <memory>
#include <string>

#include "split_chevrons.hpp"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace memcarlo::instrumenter {

namespace resources {
extern const char kCudaDeclsHeader[];
extern const char kCudaRuntimeApiHeader[];
extern const char kCudaDeviceFunctionsHeader[];
extern const char kCudaLegacyHeader[];
extern const char kCudaNarrowFloatsHeader[];
extern const char kCudaToolkitCompatHeader[];
}  // namespace resources

namespace {
// Toolkit headers that CUDA programs include directly; in the builtin setup each one stands in
// for the real header with memcarlo's declarations (already force-included).
constexpr std::array kToolkitHeaderStandIns = {
    "builtin_types.h", "channel_descriptor.h", "cuda.h", "cuda_runtime.h", "cuda_runtime_api.h",
    "cuda_texture_types.h", "device_atomic_functions.h", "device_functions.h",
    "device_launch_parameters.h", "driver_types.h", "host_defines.h", "math_constants.h",
    "math_functions.h", "sm_11_atomic_functions.h", "sm_12_atomic_functions.h",
    "sm_13_double_functions.h", "sm_20_atomic_functions.h", "sm_20_intrinsics.h",
    "sm_32_intrinsics.h", "sm_35_intrinsics.h", "texture_fetch_functions.h", "vector_functions.h",
    "vector_types.h", "cuda_profiler_api.h", "crt/host_defines.h", "common_functions.h"};

// The reduced-precision headers: the types and functions of half, bfloat16 and FP8.
constexpr std::array kNarrowFloatHeaders = {"cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h"};

// The OpenMP runtime API that host code of CUDA benchmarks calls (timers, thread counts, locks);
// `#pragma omp` itself needs nothing to parse.
constexpr std::string_view kOpenMpHeader = R"(// memcarlo: OpenMP's API, declared for the parse.
#ifndef MEMCARLO_OMP_H
#define MEMCARLO_OMP_H
#ifdef __cplusplus
extern "C" {
#endif
typedef struct { void* opaque; } omp_lock_t;
typedef struct { void* opaque; } omp_nest_lock_t;
typedef enum omp_sched_t { omp_sched_static = 1, omp_sched_dynamic = 2, omp_sched_guided = 3,
                           omp_sched_auto = 4 } omp_sched_t;
void omp_set_num_threads(int);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int);
int omp_get_dynamic(void);
void omp_set_nested(int);
int omp_get_nested(void);
void omp_set_schedule(omp_sched_t, int);
void omp_get_schedule(omp_sched_t*, int*);
int omp_get_thread_limit(void);
int omp_get_level(void);
void omp_init_lock(omp_lock_t*);
void omp_destroy_lock(omp_lock_t*);
void omp_set_lock(omp_lock_t*);
void omp_unset_lock(omp_lock_t*);
int omp_test_lock(omp_lock_t*);
void omp_init_nest_lock(omp_nest_lock_t*);
void omp_destroy_nest_lock(omp_nest_lock_t*);
void omp_set_nest_lock(omp_nest_lock_t*);
void omp_unset_nest_lock(omp_nest_lock_t*);
int omp_test_nest_lock(omp_nest_lock_t*);
double omp_get_wtime(void);
double omp_get_wtick(void);
#ifdef __cplusplus
}
#endif
#endif
)";

/// A file as read, with its launch chevrons rejoined (split_chevrons.hpp): same length and status.
class RejoinedFile : public llvm::vfs::File {
 public:
  RejoinedFile(std::unique_ptr<llvm::vfs::File> inner, std::string text)
      : inner_(std::move(inner)), text_(std::move(text)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return inner_->status(); }
  llvm::ErrorOr<std::string> getName() override { return inner_->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine& name, int64_t,
                                                               bool, bool) override {
    return llvm::MemoryBuffer::getMemBufferCopy(text_, name);
  }
  std::error_code close() override { return inner_->close(); }

 private:
  std::unique_ptr<llvm::vfs::File> inner_;
  std::string text_;
};

/// The real file system, except that the main file and CUDA sources (.cu, .cuh) read with their
/// split launch chevrons rejoined.
class ChevronFileSystem : public llvm::vfs::ProxyFileSystem {
 public:
  ChevronFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real, std::string main_file)
      : ProxyFileSystem(std::move(real)), main_file_(std::move(main_file)) {}

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(
      const llvm::Twine& path) override {
    llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> file = ProxyFileSystem::openFileForRead(path);
    const std::string name = path.str();
    if (!file || !rejoins_chevrons(name, main_file_)) return file;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = (*file)->getBuffer(name);
    if (!buffer) return buffer.getError();
    std::string text((*buffer)->getBuffer());
    rejoin_split_chevrons(text);
    return std::unique_ptr<llvm::vfs::File>(new RejoinedFile(std::move(*file), std::move(text)));
  }

 private:
  std::string main_file_;
};

void add_file(llvm::vfs::InMemoryFileSystem& memory, std::string_view path,
              std::string_view content) {
  memory.addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(content, path));
}
}  // namespace

bool rejoins_chevrons(const std::string& path, const std::string& main_file) {
  const llvm::StringRef extension = llvm::sys::path::extension(path);
  return path == main_file || extension == ".cu" || extension == ".cuh";
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> make_parse_file_system(
    const std::string& main_file) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(
      new llvm::vfs::InMemoryFileSystem);
  add_file(*memory, std::string(kCompatIncludeDir) + "/texture_fetch_functions.h",
           "// memcarlo: texture fetch functions of new toolkits are not needed to parse.\n");
  add_file(*memory, kToolkitCompatHeader, resources::kCudaToolkitCompatHeader);
  add_file(*memory, std::string(kFallbackIncludeDir) + "/omp.h", kOpenMpHeader);
  add_file(*memory, std::string(kCompatIncludeDir) + "/memcarlo_cuda_legacy.h",
           resources::kCudaLegacyHeader);
  add_file(*memory, kDeclarationsHeader, resources::kCudaDeclsHeader);
  add_file(*memory, std::string(kBuiltinIncludeDir) + "/memcarlo_cuda_legacy.h",
           resources::kCudaLegacyHeader);
  add_file(*memory, std::string(kBuiltinIncludeDir) + "/memcarlo_cuda_runtime_api.h",
           resources::kCudaRuntimeApiHeader);
  add_file(*memory, std::string(kBuiltinIncludeDir) + "/memcarlo_cuda_device_functions.h",
           resources::kCudaDeviceFunctionsHeader);
  add_file(*memory, std::string(kBuiltinIncludeDir) + "/memcarlo_cuda_narrow_floats.h",
           resources::kCudaNarrowFloatsHeader);
  for (const char* header : kNarrowFloatHeaders) {
    add_file(*memory, std::string(kBuiltinIncludeDir) + "/" + header,
             "#include \"memcarlo_cuda_decls.h\"\n#include \"memcarlo_cuda_narrow_floats.h\"\n");
  }
  for (const char* header : kToolkitHeaderStandIns) {
    add_file(*memory, std::string(kBuiltinIncludeDir) + "/" + header,
             "#include \"memcarlo_cuda_decls.h\"\n");
  }
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(new llvm::vfs::OverlayFileSystem(
      new ChevronFileSystem(llvm::vfs::getRealFileSystem(), main_file)));
  overlay->pushOverlay(memory);
  llvm::SmallString<256> cwd;
  if (!llvm::sys::fs::current_path(cwd)) overlay->setCurrentWorkingDirectory(cwd);
  return overlay;
}

}  // namespace memcarlo::instrumenter
