// memcarlo-cc as users' builds run it: what it says when a .cu file cannot be instrumented,
// problem sizes given as -D macros, a device-side launch, units sharing device helpers with a
// unity-built kernel file, a Makefile whose link step is g++ with `memcarlo-cc --print-link-flags`
// (and whose dependency files name the real sources), a CMake CUDA project with memcarlo-cc as the
// CUDA compiler launcher, and an installed prefix that works after being moved away from its build
// tree.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/run_command.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::CommandResult;

const std::string kBinaryDir = MEMCARLO_BINARY_DIR;
const std::string kSourceDir = MEMCARLO_SOURCE_DIR;
const std::string kCc = kBinaryDir + "/cli/memcarlo-cc";
const std::string kMemcarlo = kBinaryDir + "/cli/memcarlo";
const std::string kData = MEMCARLO_BUILD_SYSTEMS_DATA;

/// `command` with standard error folded into the output.
CommandResult run(const std::string& command) {
  return memcarlo::test_support::run_command(command + " 2>&1");
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// A fresh directory for one test, removed at its end unless the test failed (to look into).
class Scratch {
 public:
  explicit Scratch(const std::string& name)
      : dir_(fs::temp_directory_path() /
             ("memcarlo-build-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~Scratch() {
    if (!::testing::Test::HasFailure()) {
      std::error_code ignored;
      fs::remove_all(dir_, ignored);
    }
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  [[nodiscard]] const fs::path& path() const { return dir_; }

 private:
  fs::path dir_;
};

/// Copies a project folder of this test's data into `to`.
fs::path copy_project(const std::string& name, const fs::path& to) {
  fs::copy(fs::path(kData) / name, to / name, fs::copy_options::recursive);
  return to / name;
}

bool nvcc_available() {
  return std::string(MEMCARLO_NVCC_COMMAND).size() > 0 && fs::exists(MEMCARLO_NVCC_COMMAND);
}

/// The warp records of a trace's first launch.
std::uint64_t first_launch_records(const memcarlo::tracebuf::TraceReader& reader) {
  std::uint64_t records = 0;
  for (const auto& warp : reader.launches().front().warps) {
    records += warp.record_count;
  }
  return records;
}

/// Runs `program` under `memcarlo run` and returns the number of launches in its trace.
std::size_t traced_launches(const std::string& memcarlo, const fs::path& program,
                            const std::string& expected_output) {
  const fs::path trace = program.string() + ".mct";
  const CommandResult r =
      run("cd " + quoted(program.parent_path().string()) + " && " + memcarlo + " run --trace " +
          quoted(trace.string()) + " -- " + quoted(program.string()));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(expected_output), std::string::npos) << r.output;
  const CommandResult check = run(memcarlo + " trace check " + quoted(trace.string()));
  EXPECT_EQ(check.exit_code, 0) << check.output;
  if (!fs::exists(trace))
    return 0;
  return memcarlo::tracebuf::TraceReader::open(trace.string()).launches().size();
}

TEST(MemcarloCc, HostBackendStopsWithTheInstrumenterDiagnosticsInsteadOfCompilingTheOriginal) {
  const Scratch scratch("diagnostics");
  const fs::path& dir = scratch.path();
  const CommandResult r =
      run(kCc + " --backend host --memcarlo-no-resources -c " +
          quoted(kData + "/data/uninstrumentable.cu") + " -o " + quoted((dir / "out.o").string()));
  EXPECT_NE(r.exit_code, 0);
  // Clang's own message, with its place, as memcarlo-instrument reports it.
  EXPECT_NE(r.output.find("uninstrumentable.cu:3:59: error: use of undeclared identifier "
                          "'missing_factor'"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("(it is in device code (scale))"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("memcarlo-cc: error: the host backend compiles only instrumented "
                          "sources"),
            std::string::npos)
      << r.output;
  // ... and no C++ compiler run on a source with <<<...>>> in it.
  EXPECT_EQ(r.output.find("could not compile"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("expected primary-expression"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out.o"));
}

TEST(MemcarloCc, AnErrorNvccReportsTooIsToBeFixedInTheSourceNotByAnotherBackend) {
  if (!nvcc_available())
    GTEST_SKIP() << "no nvcc";
  const Scratch scratch("semicolon");
  const fs::path& dir = scratch.path();
  const CommandResult r =
      run(kCc + " --backend host --memcarlo-no-resources -c " +
          quoted(kData + "/data/missing_semicolon.cu") + " -o " + quoted((dir / "out.o").string()));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("missing_semicolon.cu:4:28: error: expected ';'"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("nvcc rejects " + kData + "/data/missing_semicolon.cu too"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("fix them (neither backend builds it as it is)"), std::string::npos)
      << r.output;
  // The wrong advice of before: another backend would not build it either.
  EXPECT_EQ(r.output.find("build with --backend cuda"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("--backend cuda builds it"), std::string::npos) << r.output;
}

TEST(MemcarloCc, CudaBackendPrintsTheDiagnosticsThenCompilesTheOriginal) {
  if (!nvcc_available())
    GTEST_SKIP() << "no nvcc";
  const Scratch scratch("fallback");
  const fs::path& dir = scratch.path();
  const CommandResult r =
      run(kCc + " --backend cuda --memcarlo-no-resources -c " +
          quoted(kData + "/data/uninstrumentable.cu") + " -o " + quoted((dir / "out.o").string()));
  EXPECT_NE(r.output.find("memcarlo-cc: warning: could not instrument"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("uninstrumentable.cu:3:59: error: use of undeclared identifier "
                          "'missing_factor'"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("as written: its accesses will not be traced"), std::string::npos)
      << r.output;
}

TEST(MemcarloCc, HostBackendLinksWithoutTheToolkitsRuntimeLibrary) {
  const Scratch scratch("cudart");
  const fs::path& dir = scratch.path();
  const fs::path program = dir / "saxpy";
  // -lcudart names the toolkit's runtime, which the emulation replaces (and which is not on the
  // linker's default path even where a toolkit is installed).
  const CommandResult r =
      run(kCc + " --backend host --memcarlo-no-resources " + quoted(kData + "/data/saxpy.cu") +
          " -o " + quoted(program.string()) + " -lcudart -lcudadevrt");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const CommandResult out = run(quoted(program.string()));
  EXPECT_NE(out.output.find("saxpy: OK"), std::string::npos) << out.output;
}

TEST(MemcarloCc, PrintLinkFlagsNamesTheRuntimeLibrariesThatExist) {
  const CommandResult r = run(kCc + " --backend host --print-link-flags");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::istringstream words(r.output);
  std::string word;
  bool runtime = false;
  while (words >> word) {
    if (word[0] == '-')
      continue;
    EXPECT_TRUE(fs::exists(word)) << word;
    runtime = runtime || word.find("libmemcarlo_host_runtime") != std::string::npos;
  }
  EXPECT_TRUE(runtime) << r.output;
  const CommandResult compile = run(kCc + " --backend host --print-compile-flags");
  EXPECT_NE(compile.output.find("-DMEMCARLO_BACKEND_HOST"), std::string::npos) << compile.output;
  EXPECT_EQ(compile.output.find("-x c++"), std::string::npos) << compile.output;
}

/// The kernel names of the launches in `program`'s trace, in order (runs it under memcarlo run).
std::vector<std::string> traced_kernels(const fs::path& program, const std::string& expected) {
  const fs::path trace = program.string() + ".mct";
  EXPECT_GT(traced_launches(kMemcarlo, program, expected), 0u);
  std::vector<std::string> kernels;
  if (!fs::exists(trace))
    return kernels;
  const auto reader = memcarlo::tracebuf::TraceReader::open(trace.string());
  for (const auto& launch : reader.launches())
    kernels.push_back(launch.info.kernel);
  return kernels;
}

TEST(MemcarloCc, SizeMacrosOnTheCommandLineBuildRunAndTrace) {
  // PolyBench's -DNI=... sizes: CUDA 13's cuda.h names a parameter N and Clang's CUDA wrappers
  // use N and T, so the toolkit's headers cannot be parsed with them; the instrumenter's own
  // declarations can.
  const Scratch scratch("size-macros");
  const fs::path program = scratch.path() / "size_macros";
  const CommandResult built =
      run(kCc + " --backend host --memcarlo-no-resources -DNI=64 -DNJ=48 -DNK=32 -DM=64 -DN=64 "
                "-DNX=64 -DNY=64 -DNL=64 -DTSTEPS=2 " +
          quoted(kData + "/data/size_macros.cu") + " -o " + quoted(program.string()));
  ASSERT_EQ(built.exit_code, 0) << built.output;
  // (memcarlo run traces the first launch of a kernel.)
  EXPECT_EQ(traced_kernels(program, "size_macros: OK 64x48x32"),
            std::vector<std::string>{"product"});
}

TEST(MemcarloCc, XcompilerFlagsReachTheLinkOfAOneLineBuildAsWithNvcc) {
  // `nvcc -Xcompiler -fopenmp prog.cu -o prog`: without -fopenmp at the link, libgomp is missing
  // (undefined reference to omp_get_num_threads).
  const Scratch scratch("openmp");
  const fs::path program = scratch.path() / "openmp_host";
  const CommandResult built =
      run(kCc + " --backend host --memcarlo-no-resources -Xcompiler -fopenmp " +
          quoted(kData + "/data/openmp_host.cu") + " -o " + quoted(program.string()));
  ASSERT_EQ(built.exit_code, 0) << built.output;
  EXPECT_EQ(traced_kernels(program, "openmp_host: OK"), std::vector<std::string>{"fill"});
}

TEST(MemcarloCc, DeviceSideLaunchBuildsWithAWarningAndStopsNamingTheKernel) {
  const Scratch scratch("dynamic-parallelism");
  const fs::path program = scratch.path() / "dynamic_parallelism";
  const std::string source = kData + "/data/dynamic_parallelism.cu";
  const CommandResult built = run(kCc + " --backend host --memcarlo-no-resources -rdc=true " +
                                  quoted(source) + " -o " + quoted(program.string()));
  ASSERT_EQ(built.exit_code, 0) << built.output;
  EXPECT_NE(built.output.find("dynamic_parallelism.cu:11:5: the kernel launch "
                              "`child<<<(n + 31) / 32, 32>>>(data, n)` in device code (parent) is "
                              "dynamic parallelism"),
            std::string::npos)
      << built.output;
  const CommandResult ran = run(quoted(program.string()));
  EXPECT_EQ(ran.exit_code, 69) << ran.output;
  EXPECT_NE(ran.output.find("dynamic parallelism (kernel 'child' launched from device code at " +
                            source + ":11)"),
            std::string::npos)
      << ran.output;
  EXPECT_EQ(ran.output.find("not reached"), std::string::npos) << ran.output;
}

TEST(MemcarloCc, UnitsSharingDeviceHelpersAndAUnityKernelFileLinkAndTrace) {
  const Scratch scratch("multi-unit");
  const fs::path project = copy_project("multi_unit_project", scratch.path());
  const std::string cc =
      "cd " + quoted(project.string()) + " && " + kCc + " --backend host --memcarlo-no-resources ";
  for (const char* unit : {"main", "scale", "stencil_kernel"}) {
    const CommandResult compiled = run(cc + "-c " + unit + ".cu -o " + unit + ".o");
    ASSERT_EQ(compiled.exit_code, 0) << unit << ":\n" << compiled.output;
  }
  // stencil_kernel.o is built, as by a Makefile that compiles every .cu, but main.o already holds
  // its kernel (main.cu includes stencil_kernel.cu).
  const CommandResult linked = run(cc + "main.o scale.o -o app");
  ASSERT_EQ(linked.exit_code, 0) << linked.output;
  EXPECT_EQ(traced_kernels(project / "app", "multi_unit_project: OK"),
            (std::vector<std::string>{"stencil", "scale"}));
}

TEST(MemcarloCc, AKernelFileIncludedWithAngleBracketsThroughDashIIsTheRewrittenOne) {
  // `#include <copy_kernel.cu>` with -I. finds the original before memcarlo-cc puts the rewritten
  // tree's copy of the directory first: the kernel then runs without probes, and its launch is in
  // the trace with no record.
  const Scratch scratch("angle-include");
  const fs::path project = copy_project("angle_include_project", scratch.path());
  const CommandResult built = run("cd " + quoted(project.string()) + " && " + kCc +
                                  " --backend host --memcarlo-no-resources -I. main.cu -o app");
  ASSERT_EQ(built.exit_code, 0) << built.output;
  ASSERT_EQ(traced_launches(kMemcarlo, project / "app", "angle_include_project: OK"), 1u);
  const auto reader = memcarlo::tracebuf::TraceReader::open((project / "app.mct").string());
  EXPECT_EQ(reader.launches()[0].info.kernel, "copy_twice");
  EXPECT_EQ(first_launch_records(reader), 4u * 2);  // 4 warps, each one load and one store
}

TEST(MemcarloCc, AHeaderThatIncludesTheKernelsHeaderBesideItIsWrittenToo) {
  // wrapper.h has nothing to rewrite but includes kernels.cuh, which does: left in place, its
  // include finds the original kernels.cuh, whose include guard keeps the rewritten copy out, and
  // the kernel runs without probes (its launch traced with no record).
  const Scratch scratch("plain-header");
  const fs::path project = copy_project("plain_header_project", scratch.path());
  const CommandResult built = run("cd " + quoted(project.string()) + " && " + kCc +
                                  " --backend host --memcarlo-no-resources main.cu -o app");
  ASSERT_EQ(built.exit_code, 0) << built.output;
  ASSERT_EQ(traced_launches(kMemcarlo, project / "app", "plain_header_project: OK"), 1u);
  const auto reader = memcarlo::tracebuf::TraceReader::open((project / "app.mct").string());
  EXPECT_EQ(first_launch_records(reader), 2u);  // 2 warps, each one read-modify-write of data[i]
}

TEST(Makefile, GxxLinksWithPrintLinkFlagsAndTheProgramIsTraced) {
  if (std::string(MEMCARLO_MAKE_COMMAND).empty())
    GTEST_SKIP() << "no make";
  const Scratch scratch("makefile");
  const fs::path project = copy_project("makefile_project", scratch.path());
  const std::string make = std::string(MEMCARLO_MAKE_COMMAND) + " -C " + quoted(project.string());
  const std::string nvcc = "NVCC=" + quoted(kCc + " --backend host --memcarlo-no-resources");
  // The Makefile's own link line (the toolkit's -lcudart) lacks the runtime the objects need.
  const CommandResult unlinked = run(make + " " + nvcc);
  EXPECT_NE(unlinked.exit_code, 0) << unlinked.output;
  EXPECT_FALSE(fs::exists(project / "histogram"));

  const std::string link = "LDLIBS=\"$(" + kCc + " --backend host --print-link-flags)\"";
  const CommandResult built = run(make + " " + nvcc + " " + link);
  ASSERT_EQ(built.exit_code, 0) << built.output;
  EXPECT_NE(built.output.find("g++ -o histogram main.o histogram.o"), std::string::npos)
      << built.output;
  EXPECT_EQ(traced_launches(kMemcarlo, project / "histogram", "makefile_project: OK"), 1u);

  // The dependency file names the sources as written, not memcarlo-cc's rewritten copies: make
  // finds everything up to date, and rebuilds histogram.o when a header only it includes changes.
  const CommandResult up_to_date = run(make + " -q " + nvcc + " " + link);
  EXPECT_EQ(up_to_date.exit_code, 0) << up_to_date.output;
  std::ifstream depfile(project / "histogram.d");
  std::stringstream dependencies;
  dependencies << depfile.rdbuf();
  EXPECT_NE(dependencies.str().find("launch_config.h"), std::string::npos) << dependencies.str();
  EXPECT_EQ(dependencies.str().find("memcarlo-cc-"), std::string::npos) << dependencies.str();
  fs::last_write_time(project / "launch_config.h",
                      fs::last_write_time(project / "histogram.o") + std::chrono::seconds(2));
  const CommandResult stale = run(make + " -q " + nvcc + " " + link);
  EXPECT_EQ(stale.exit_code, 1) << stale.output;
}

TEST(CMake, CudaProjectBuildsWithMemcarloCcAsTheCompilerLauncher) {
  if (!nvcc_available()) {
    GTEST_SKIP() << "CMake's CUDA language needs nvcc to identify the compiler";
  }
  const Scratch scratch("cmake");
  const fs::path& dir = scratch.path();
  const fs::path project = copy_project("cmake_project", dir);
  const fs::path build = dir / "build";
  const std::string cmake = MEMCARLO_CMAKE_COMMAND;
  const std::string configure =
      quoted(cmake) + " -S " + quoted(project.string()) + " -B " + quoted(build.string()) + " -G " +
      quoted(MEMCARLO_CMAKE_GENERATOR) + " -DCMAKE_CUDA_COMPILER=" + quoted(MEMCARLO_NVCC_COMMAND) +
      " -DCMAKE_CUDA_COMPILER_LAUNCHER=" + quoted(kCc + ";--backend;host;--memcarlo-no-resources") +
      " -DCMAKE_CUDA_STANDARD_LIBRARIES=\"$(" + kCc + " --backend host --print-link-flags)\"";
  const CommandResult configured = run(configure);
  ASSERT_EQ(configured.exit_code, 0) << configured.output;
  const CommandResult built = run(quoted(cmake) + " --build " + quoted(build.string()));
  ASSERT_EQ(built.exit_code, 0) << built.output;
  EXPECT_EQ(traced_launches(kMemcarlo, build / "stencil", "cmake_project: OK"), 1u);  // the first
  // Its dependency files let the generator see that nothing changed.
  const CommandResult again = run(quoted(cmake) + " --build " + quoted(build.string()) + " -v");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(again.output.find("memcarlo-cc"), std::string::npos) << again.output;
}

TEST(Install, PrefixMovedAwayFromItsBuildTreeBuildsAndProfilesAProgram) {
  const Scratch scratch("install");
  const fs::path& dir = scratch.path();
  const std::string cmake = MEMCARLO_CMAKE_COMMAND;
  const CommandResult installed = run(quoted(cmake) + " --install " + quoted(kBinaryDir) +
                                      " --prefix " + quoted((dir / "staged").string()));
  ASSERT_EQ(installed.exit_code, 0) << installed.output;
  fs::rename(dir / "staged", dir / "moved");
  const fs::path bin = dir / "moved" / "bin";
  for (const char* command : {"memcarlo", "memcarlo-cc", "memcarlo-instrument"}) {
    EXPECT_TRUE(fs::exists(bin / command)) << command;
  }
  const std::string cc = quoted((bin / "memcarlo-cc").string());
  const CommandResult link = run(cc + " --backend host --print-link-flags");
  EXPECT_EQ(link.output.find((dir / "moved" / "lib").string()), 0u) << link.output;

  // Every command memcarlo-cc runs names the moved prefix, never the build or source tree.
  fs::copy_file(kData + "/data/saxpy.cu", dir / "saxpy.cu");
  const CommandResult built =
      run("cd " + quoted(dir.string()) + " && " + cc +
          " --backend host --memcarlo-verbose --memcarlo-no-resources saxpy.cu -o saxpy");
  ASSERT_EQ(built.exit_code, 0) << built.output;
  EXPECT_EQ(built.output.find(kBinaryDir), std::string::npos) << built.output;
  EXPECT_EQ(built.output.find(kSourceDir + "/tracebuf"), std::string::npos) << built.output;
  EXPECT_NE(built.output.find((dir / "moved" / "include").string()), std::string::npos)
      << built.output;
  EXPECT_EQ(traced_launches(quoted((bin / "memcarlo").string()), dir / "saxpy", "saxpy: OK"), 1u);

  // memcarlo profile runs the memcarlo-cc beside it.
  const CommandResult profiled =
      run("cd " + quoted(dir.string()) + " && " + quoted((bin / "memcarlo").string()) +
          " profile saxpy.cu -n 2 --cc-flag=--memcarlo-no-resources -o " +
          quoted((dir / "report.json").string()));
  EXPECT_EQ(profiled.exit_code, 0) << profiled.output;
  EXPECT_NE(profiled.output.find("y[i]"), std::string::npos) << profiled.output;
  EXPECT_TRUE(fs::exists(dir / "report.json"));
}

}  // namespace
