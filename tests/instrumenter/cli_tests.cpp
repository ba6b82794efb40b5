// Command-line behaviour of memcarlo-instrument: clear errors with a non-zero exit and no partial
// output (parse errors, unsupported constructs, host errors that cannot be tolerated), one edit
// for a launch deduced differently per instantiation, legacy APIs in both parse setups,
// --patch, -p, and --print-include-flags.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {
struct Outcome {
  int exit_code = 0;
  std::string output;  // stdout and stderr
};

Outcome run(const std::string& arguments) {
  const fs::path log = fs::temp_directory_path() / ("memcarlo_cli_" + std::to_string(::getpid()));
  const std::string command = std::string(MEMCARLO_INSTRUMENT_EXE) + " " + arguments + " > " +
                              log.string() + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(log);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

std::string data(const std::string& name) {
  return std::string(MEMCARLO_INSTRUMENTER_TEST_DATA) + "/" + name;
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("memcarlo_cli_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

TEST(InstrumenterErrors, UnparseableInputReportsClangDiagnosticsAndWritesNothing) {
  const fs::path dir = scratch("unparseable");
  const Outcome outcome = run(data("unparseable.cu") + " -o " + (dir / "out.cu").string() +
                              " --loads " + (dir / "loads.json").string());
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_NE(outcome.output.find("unparseable.cu:3:"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("error:"), std::string::npos);
  EXPECT_NE(outcome.output.find("no output written"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "out.cu"));
  EXPECT_FALSE(fs::exists(dir / "loads.json"));
}

TEST(InstrumenterErrors, CommandLineMacrosThatBreakTheToolkitHeadersAreNamed) {
  // -DN=64: CUDA 13's cuda.h and Clang's CUDA wrappers use N as a name, so the toolkit setup
  // fails in their headers. The file's own error is what the builtin setup reports; a note says
  // why the toolkit setup failed too.
  const Outcome outcome = run(data("unparseable.cu") + " --backend host -o /dev/null -- " +
                              "-DN=64 -DTSTEPS=2 -D_INTERNAL_FLAG -DuseFast");
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_NE(outcome.output.find("unparseable.cu:3:"), std::string::npos) << outcome.output;
  if (outcome.output.find("parse setups tried: toolkit") == std::string::npos) {
    GTEST_SKIP() << "no CUDA toolkit";
  }
  EXPECT_NE(outcome.output.find("note: the toolkit setup did not parse ("), std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("the command line's macros (N, TSTEPS) may replace names"),
            std::string::npos)
      << outcome.output;
}

TEST(InstrumenterErrors, UnsupportedConstructNamesItAndWritesNothing) {
  const fs::path dir = scratch("asm");
  const Outcome outcome = run(data("inline_asm.cu") + " --backend host -o " +
                              (dir / "out.cu").string());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.output.find("inline_asm.cu:4:3: error: inline assembly"), std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("unsupported construct"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "out.cu"));
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(InstrumenterErrors, InlineAssemblyIsOnlySkippedForTheCudaBackend) {
  const fs::path dir = scratch("asm_cuda");
  const Outcome outcome = run(data("inline_asm.cu") + " --backend cuda --verbose -o " +
                              (dir / "out.cu").string());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("inline-asm: 1"), std::string::npos) << outcome.output;
}

TEST(InstrumenterLaunches, LaunchDeducedDifferentlyPerInstantiationIsOneEdit) {
  const fs::path dir = scratch("deduced");
  const Outcome outcome = run(data("deduced_launch_in_template.cu") + " --backend host -o " +
                              (dir / "out.cu").string());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_EQ(outcome.output.find("conflicting edits"), std::string::npos) << outcome.output;
  const std::string text = read(dir / "out.cu");
  EXPECT_NE(text.find("memcarlo_launch(\"fill\", decltype(memcarlo_kernel_signature(data, T(1)))"
                      "::thunk([](auto... memcarlo_arguments) { fill(memcarlo_arguments...); }), "
                      "1, 32, 0, 0, data, T(1));"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("struct memcarlo_kernel_arguments"), std::string::npos) << text;
}

TEST(InstrumenterOutput, RangeBasedForLoopsStayAsWrittenAndAreCountedAsSkipped) {
  const fs::path dir = scratch("range_for");
  const Outcome outcome =
      run(data("range_for.cu") + " --backend host --verbose -o " + (dir / "out.cu").string());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("probed 1 accesses, skipped 2 (range-for: 2)"), std::string::npos)
      << outcome.output;
  const std::string text = read(dir / "out.cu");
  EXPECT_NE(text.find("for (const int d : {3, 4, 5}) sum += d;"), std::string::npos) << text;
  EXPECT_NE(text.find("for (int v : local) sum += v;"), std::string::npos) << text;
  EXPECT_NE(text.find("memcarlo_probe(memcarlo_tu, 0, &(out[threadIdx.x]))"), std::string::npos)
      << text;
}

TEST(InstrumenterOutput, AKernelWithCodeOnlyForTheDeviceIsNamedForTheHostBackend) {
  const fs::path dir = scratch("device_only");
  const Outcome host =
      run(data("device_only_kernel.cu") + " --backend host -o " + (dir / "host.cu").string());
  EXPECT_EQ(host.exit_code, 0) << host.output;
  EXPECT_NE(host.output.find("device_only_kernel.cu:11:17: kernel 'device_only' holds code only "
                             "for the device (#if __CUDA_ARCH__ >= 700 at line 12, no #else)"),
            std::string::npos)
      << host.output;
  EXPECT_EQ(host.output.find("kernel 'both'"), std::string::npos) << host.output;
  EXPECT_EQ(host.output.find("'helper'"), std::string::npos) << host.output;
  const Outcome cuda =
      run(data("device_only_kernel.cu") + " --backend cuda -o " + (dir / "cuda.cu").string());
  EXPECT_EQ(cuda.exit_code, 0) << cuda.output;
  EXPECT_EQ(cuda.output.find("holds code only for the device"), std::string::npos)
      << cuda.output;
}

TEST(InstrumenterErrors, HostErrorInALaunchIsNotToleratedAndSaysWhy) {
  const fs::path dir = scratch("launch_error");
  const Outcome outcome = run(data("host_error_in_launch.cu") + " -o " +
                              (dir / "out.cu").string());
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("host_error_in_launch.cu:7:26: error: use of undeclared "
                                "identifier 'undeclared_factor'"),
            std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("(it is in a kernel launch)"), std::string::npos)
      << outcome.output;
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(InstrumenterErrors, ErrorInDeviceCodeIsNotTolerated) {
  const fs::path dir = scratch("device_error");
  const Outcome outcome = run(data("device_code_error.cu") + " -o " + (dir / "out.cu").string());
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("(it is in device code (scale))"), std::string::npos)
      << outcome.output;
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(InstrumenterErrors, RewrittenHeaderNeedsAnOutputDirectory) {
  const fs::path dir = scratch("header");
  const Outcome outcome = run(data("header_kernel.cu") + " -o " + (dir / "out.cu").string());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.output.find("header_kernel.cuh: error:"), std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("--output-dir"), std::string::npos);
  EXPECT_TRUE(fs::is_empty(dir));

  const Outcome mirrored = run(data("header_kernel.cu") + " --output-dir " + dir.string());
  EXPECT_EQ(mirrored.exit_code, 0) << mirrored.output;
  EXPECT_NE(read(dir / "header_kernel.cuh").find("memcarlo_probe(memcarlo_tu, 0, &(a[threadIdx.x]))"),
            std::string::npos);
  EXPECT_NE(read(dir / "header_kernel.cu").find("memcarlo_launch(\"header_kernel\""),
            std::string::npos);
}

TEST(InstrumenterParsing, LegacyApisParseWithEitherSetup) {
  const fs::path dir = scratch("legacy");
  const Outcome builtin = run(data("legacy_texture.cu") + " --verbose --parse-order builtin -o " +
                              (dir / "builtin.cu").string());
  EXPECT_EQ(builtin.exit_code, 0) << builtin.output;
  EXPECT_NE(builtin.output.find("probed 1 accesses"), std::string::npos) << builtin.output;
  EXPECT_NE(builtin.output.find("parsed host: builtin, device: builtin"), std::string::npos)
      << builtin.output;

  // The toolkit setup declares what CUDA 12/13 removed on top of the toolkit's headers.
  if (fs::exists("/usr/local/cuda/include/cuda_runtime.h")) {
    const Outcome toolkit = run(data("legacy_texture.cu") + " --parse-order toolkit -o " +
                                (dir / "toolkit.cu").string() + " --cuda-path /usr/local/cuda");
    EXPECT_EQ(toolkit.exit_code, 0) << toolkit.output;
    EXPECT_NE(toolkit.output.find("parsed host: toolkit, device: toolkit"), std::string::npos)
        << toolkit.output;
    EXPECT_EQ(read(dir / "toolkit.cu"), read(dir / "builtin.cu"));
  }
}

TEST(InstrumenterOutput, PatchAppliesToTheOriginal) {
  const fs::path dir = scratch("patch");
  fs::copy_file(data("inline_asm.cu"), dir / "kernel.cu");
  const std::string command = "cd " + dir.string() + " && " + MEMCARLO_INSTRUMENT_EXE +
                              " kernel.cu --backend cuda --patch -o kernel.patch 2>/dev/null" +
                              " && " + MEMCARLO_INSTRUMENT_EXE +
                              " kernel.cu --backend cuda --no-line-directives -o expected.cu" +
                              " 2>/dev/null && patch -s -p0 < kernel.patch" +
                              " && cmp kernel.cu expected.cu";
  EXPECT_EQ(std::system(command.c_str()), 0);
  EXPECT_NE(read(dir / "kernel.patch").find("+#include \"memcarlo/probe_api.h\""),
            std::string::npos);
}

TEST(InstrumenterOutput, CompileFlagsComeFromACompilationDatabase) {
  const fs::path dir = scratch("database");
  fs::copy_file(data("../golden/multi_file.cu"), dir / "multi_file.cu");
  fs::create_directories(dir / "include");
  fs::copy_file(data("../golden/include/multi_file_kernel.cuh"),
                dir / "include/multi_file_kernel.cuh");
  std::ofstream(dir / "compile_commands.json")
      << "[{\"directory\": \"" << dir.string() << "\", \"file\": \"multi_file.cu\", "
      << "\"command\": \"nvcc -O3 -arch=sm_80 -DSCALE=2 -Xcompiler -fopenmp -c multi_file.cu "
      << "-o multi_file.o\"}]\n";
  const Outcome outcome = run((dir / "multi_file.cu").string() + " -p " + dir.string() +
                              " --output-dir " + (dir / "out").string());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("probed 1 accesses"), std::string::npos) << outcome.output;
}

TEST(InstrumenterOutput, PrintIncludeFlagsNamesTheProbeHeaderAndTheBackend) {
  const Outcome cuda = run("--print-include-flags --backend cuda");
  EXPECT_EQ(cuda.exit_code, 0);
  EXPECT_NE(cuda.output.find("-DMEMCARLO_BACKEND_CUDA"), std::string::npos) << cuda.output;
  EXPECT_NE(cuda.output.find("-rdc=true"), std::string::npos) << cuda.output;
  const std::string include_dir = cuda.output.substr(2, cuda.output.find(' ') - 2);
  EXPECT_TRUE(fs::exists(fs::path(include_dir) / "memcarlo" / "probe_api.h")) << include_dir;
  const Outcome host = run("--print-include-flags --backend host");
  EXPECT_NE(host.output.find("-DMEMCARLO_BACKEND_HOST"), std::string::npos) << host.output;
}

TEST(InstrumenterUsage, MissingOutputIsAUsageError) {
  const Outcome outcome = run(data("inline_asm.cu"));
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.output.find("give -o FILE"), std::string::npos);
}
