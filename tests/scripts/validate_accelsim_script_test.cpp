// scripts/validate-accelsim.sh without Accel-Sim: a stand-in (accel-sim-standin.sh) takes its
// place and prints Accel-Sim's statistics format with known counts, so the script's logic is
// checked end to end: finding accel-sim.out and its configuration, exporting each trace, running
// the simulator on the export with the configurations in order, and the table of memcarlo validate
// with Accel-Sim's per-kernel numbers (which the stand-in fixes: L1 50 %, HIT only 37.5 %; L2 reads
// 50 %; L2 writes 90 %). Where there is no Accel-Sim it runs nothing and exits 0.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::CommandResult;

const std::string kSource = MEMCARLO_SOURCE_DIR;
const std::string kScript = kSource + "/scripts/validate-accelsim.sh";
const std::string kStandIn = kSource + "/tests/scripts/accel-sim-standin.sh";
const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";

class ValidateAccelsimScript : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("memcarlo-validate-accelsim-" + std::to_string(::getpid()) + "-" + test->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "configs" / "SM7_QV100");
    std::ofstream(config("gpgpusim.config")) << "-gpgpu_n_clusters 80\n";
    std::ofstream(config("trace.config")) << "-trace_opcode_latency_initiation_int 2,2\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string config(const std::string& name) const {
    return (dir_ / "configs" / "SM7_QV100" / name).string();
  }
  std::string out() const { return (dir_ / "out").string(); }
  std::string log() const { return (dir_ / "standin.log").string(); }

  /// A small synthetic trace of `pattern` (memcarlo synth).
  std::string trace(const std::string& pattern) const {
    const std::string path = (dir_ / (pattern + ".mct")).string();
    const CommandResult made =
        memcarlo::test_support::run_command(kMemcarlo + " synth --pattern " + pattern +
                                            " --blocks 4 --threads 64 -o " + path + " 2>&1");
    EXPECT_EQ(made.exit_code, 0) << made.output;
    return path;
  }

  /// The script with a clean environment plus `environment`.
  CommandResult run(const std::string& arguments, const std::string& environment = "") const {
    return memcarlo::test_support::run_command(
        "env -i PATH=/usr/bin:/bin STANDIN_LOG=" + log() + " " + environment + " /bin/bash " +
        kScript + " --out " + out() + " --memcarlo " + kMemcarlo + " -n 2 " + arguments + " 2>&1");
  }

  std::string read(const std::string& path) const {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

 private:
  fs::path dir_;
};

TEST_F(ValidateAccelsimScript, RunsTheStandInOnEachExportAndPrintsTheTable) {
  const std::string stream = trace("stream");
  const std::string gather = trace("gather");
  const CommandResult result =
      run("--accelsim " + kStandIn + " --config " + config("gpgpusim.config") + " --config " +
          config("trace.config") + " --only-given --trace stream=" + stream +
          " --trace gather=" + gather);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  // Accel-Sim ran once per program, on the export, with the configurations in the order given.
  const std::string ran = read(log());
  for (const std::string name : {"stream", "gather"}) {
    EXPECT_NE(ran.find(" -trace " + out() + "/" + name + "/accelsim-traces/kernelslist.g -config " +
                       config("gpgpusim.config") + " -config " + config("trace.config") + "\n"),
              std::string::npos)
        << ran;
    EXPECT_TRUE(fs::exists(out() + "/" + name + "/accelsim-traces/kernel-1.traceg"));
    EXPECT_TRUE(fs::exists(out() + "/" + name + "/report.json"));
  }
  const std::string& text = result.output;
  EXPECT_NE(text.find("memcarlo validation on Accel-Sim SM7_QV100, memcarlo preset v100: 2 "
                      "programs compared with Accel-Sim\n"),
            std::string::npos)
      << text;
  // The stand-in's numbers in the measured column, one row per kernel and level.
  EXPECT_NE(text.find("  stream   stream_copy  L1 sector hit rate           50.00"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("L2 sector read hit rate      50.00"), std::string::npos);
  EXPECT_NE(text.find("L2 sector write hit rate     90.00"), std::string::npos);
  EXPECT_NE(text.find("  gather   gather       L1 sector hit rate           37.50\n"),
            std::string::npos);  // HIT only
  EXPECT_NE(text.find("Mean absolute error per metric over the judged rows"), std::string::npos);
  EXPECT_NE(text.find("2 validated, 0 not validated"), std::string::npos);
  EXPECT_TRUE(fs::exists(out() + "/validation.json"));
}

TEST_F(ValidateAccelsimScript, ASimulatorThatFailsIsListedAndTheOthersStillCompared) {
  const std::string stream = trace("stream");
  const std::string gather = trace("gather");
  const CommandResult result =
      run("--accelsim " + kStandIn + " --config " + config("gpgpusim.config") +
              " --only-given --trace stream=" + stream + " --trace gather=" + gather,
          "STANDIN_FAIL_ON=gather");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("validate-accelsim.sh: gather: Accel-Sim failed (log "),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("1 validated, 1 not validated"), std::string::npos);
  EXPECT_NE(result.output.find("1 of 2 programs failed: gather"), std::string::npos);
}

TEST_F(ValidateAccelsimScript, FindsAccelSimAndItsConfigurationUnderAccelsimRoot) {
  // $ACCELSIM_ROOT/bin/release/accel-sim.out and the SM7_QV100 configurations beneath it.
  const fs::path root = fs::path(out()).parent_path() / "gpu-simulator";
  fs::create_directories(root / "bin" / "release");
  fs::create_symlink(kStandIn, root / "bin" / "release" / "accel-sim.out");
  fs::create_directories(root / "gpgpu-sim/configs/tested-cfgs/SM7_QV100");
  fs::create_directories(root / "configs/tested-cfgs/SM7_QV100");
  fs::copy(config("gpgpusim.config"), root / "gpgpu-sim/configs/tested-cfgs/SM7_QV100");
  fs::copy(config("trace.config"), root / "configs/tested-cfgs/SM7_QV100");
  const CommandResult result =
      run("--only-given --trace stream=" + trace("stream"), "ACCELSIM_ROOT=" + root.string());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(read(log()).find("-config " + root.string() +
                             "/gpgpu-sim/configs/tested-cfgs/SM7_QV100/gpgpusim.config -config " +
                             root.string() + "/configs/tested-cfgs/SM7_QV100/trace.config"),
            std::string::npos)
      << read(log());
}

TEST_F(ValidateAccelsimScript, WithoutAccelSimItSaysWhatIsMissingAndRunsNothing) {
  CommandResult result = run("");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output,
            "validate-accelsim.sh: nothing run: comparing with Accel-Sim needs what this machine "
            "lacks:\n"
            "  - accel-sim.out: give --accelsim PATH, or set ACCELSIM or ACCELSIM_ROOT\n"
            "  - Accel-Sim's configuration: give --config FILE (gpgpusim.config, trace.config), "
            "or set ACCELSIM_CONFIGS or ACCELSIM_ROOT\n"
            "  (docs/accelsim.md says how to build Accel-Sim; this script never downloads it)\n");
  result = run("", "ACCELSIM=" + kStandIn + " ACCELSIM_CONFIGS=" + config("gpgpusim.config") + ":" +
                       config("missing.config"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("  - Accel-Sim configuration file " + config("missing.config") +
                               ": not found\n"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(out())) << "the output directory was created";
  EXPECT_FALSE(fs::exists(log())) << "the simulator ran";
  result = run("--example spmv");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("no example is named spmv"), std::string::npos) << result.output;
}

}  // namespace
