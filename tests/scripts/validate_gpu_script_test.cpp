// scripts/validate-gpu.sh on a machine that lacks what GPU validation needs: it names exactly what
// is missing, exits 0 and runs nothing (no build, no output directory). The PATH each run sees is a
// folder of our own, so the tests behave the same on a machine with a GPU.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::CommandResult;

const std::string kScript = std::string(MEMCARLO_SOURCE_DIR) + "/scripts/validate-gpu.sh";

class ValidateGpuScript : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("memcarlo-validate-gpu-" + std::to_string(::getpid()) + "-" + test->name());
    fs::remove_all(dir_);
    fs::create_directories(bin());
    // The external commands the script runs before it knows what is there (cat: --help).
    for (const std::string tool : {"dirname", "cat"}) {
      fs::create_symlink(fs::exists("/usr/bin/" + tool) ? "/usr/bin/" + tool : "/bin/" + tool,
                         bin() / tool);
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir() const { return dir_; }
  fs::path bin() const { return dir_ / "bin"; }
  fs::path ran() const { return dir_ / "ran"; }  // the fake tools append their command lines

  /// A fake tool in the PATH: prints `output`, exits `status`, and notes that it ran unless it is
  /// nvidia-smi (which the script must query).
  void fake(const std::string& name, const std::string& output = "", int status = 0) const {
    const fs::path path = bin() / name;
    std::ofstream(path) << "#!/bin/sh\n"
                        << (name == "nvidia-smi" ? ""
                                                 : "echo \"$0 $*\" >> " + ran().string() + "\n")
                        << "printf '%s' '" << output << "'\nexit " << status << "\n";
    ::chmod(path.c_str(), 0755);
  }

  /// The script with only bin() in PATH and no CUDA installation to fall back on.
  CommandResult run(const std::string& arguments = "") const {
    return memcarlo::test_support::run_command(
        "env -i PATH=" + bin().string() + " CUDA_HOME=" + (dir_ / "no-cuda").string() +
        " /bin/bash " + kScript + " --out " + (dir_ / "out").string() + " --build-dir " +
        (dir_ / "build").string() + " " + arguments + " 2>&1");
  }

  void expect_nothing_ran() const {
    EXPECT_FALSE(fs::exists(ran())) << "a tool ran";
    EXPECT_FALSE(fs::exists(dir_ / "out")) << "the output directory was created";
    EXPECT_FALSE(fs::exists(dir_ / "build")) << "memcarlo was configured";
  }

 private:
  fs::path dir_;
};

TEST_F(ValidateGpuScript, WithoutNvidiaSmiInPathItSaysThereIsNoGpuAndRunsNothing) {
  fake("nvcc");
  fake("ncu");
  fake("cmake");
  const CommandResult result = run();
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output,
            "validate-gpu.sh: nothing run: validating on a GPU needs what this machine lacks:\n"
            "  - an NVIDIA GPU: nvidia-smi is not in PATH (no NVIDIA driver installed)\n");
  expect_nothing_ran();
}

TEST_F(ValidateGpuScript, ADriverThatListsNoDeviceIsNoGpu) {
  fake("nvidia-smi", "No devices were found", 6);
  fake("nvcc");
  fake("ncu");
  fake("cmake");
  const CommandResult result = run();
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(
      result.output.find("  - an NVIDIA GPU: nvidia-smi lists none (\"No devices were found\")\n"),
      std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("nvcc"), std::string::npos) << result.output;
  expect_nothing_ran();
}

TEST_F(ValidateGpuScript, AGpuWithoutNvccOrNcuNamesBoth) {
  fake("nvidia-smi", "NVIDIA H100 80GB HBM3");
  fake("cmake");
  const CommandResult result = run();
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output.find("an NVIDIA GPU"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("  - nvcc (the CUDA toolkit): not found in $NVCC, PATH or "),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("  - ncu (Nsight Compute): not found in $NCU, PATH or "),
            std::string::npos)
      << result.output;
  expect_nothing_ran();
}

TEST_F(ValidateGpuScript, HelpAndBadOptions) {
  CommandResult result = run("--help");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.output.find("usage: scripts/validate-gpu.sh [options]"), std::string::npos);
  EXPECT_NE(result.output.find("exit status: 0 every example validated, or nothing to run"),
            std::string::npos);
  result = run("--trials 0");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--trials needs a positive number"), std::string::npos)
      << result.output;
  result = run("--example spmv");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("no example is named spmv"), std::string::npos) << result.output;
  expect_nothing_ran();
}

// The split run (--prepare here, run.sh on the GPU machine, --finish here): each step checks its
// own needs before it builds or writes anything.
TEST_F(ValidateGpuScript, SplitRunStepsRefuseWhatTheyCannotDo) {
  CommandResult result = run("--prepare " + (dir() / "split").string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--prepare needs --arch sm_XY"), std::string::npos)
      << result.output;
  result = run("--prepare " + (dir() / "split").string() + " --arch sm_90");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--prepare needs --device NAME or --hierarchy"), std::string::npos)
      << result.output;
  result = run("--arch 90");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--arch needs sm_XY"), std::string::npos) << result.output;
  result = run("--arch sm_90");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--arch and --device go with --prepare"), std::string::npos)
      << result.output;
  result = run("--finish " + (dir() / "split").string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find((dir() / "split" / "prepared.txt").string() +
                               " is missing: run --prepare"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(dir() / "split"));
  expect_nothing_ran();
}

TEST_F(ValidateGpuScript, PrepareNeedsNvccButNoGpu) {
  fake("cmake");
  const CommandResult result =
      run("--prepare " + (dir() / "split").string() + " --arch sm_90 -H h100");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_EQ(result.output,
            "validate-gpu.sh: --prepare needs what this machine lacks:\n"
            "  - nvcc (the CUDA toolkit): not found in $NVCC, PATH or " +
                (dir() / "no-cuda").string() + "/bin\n");
  EXPECT_FALSE(fs::exists(dir() / "split"));
  expect_nothing_ran();
}

}  // namespace
