// `memcarlo simulate` on a terminal (a pseudo-terminal here) draws a progress line on standard
// error and erases it; in a pipe it draws nothing; either way the report is the same. And a
// --threads above the machine's gets our own note instead of TBB's warning.
#include <gtest/gtest.h>

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "cli_fixtures.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::kMemcarlo;
using memcarlo::test_support::memcarlo;
using memcarlo::test_support::results_of;
using memcarlo::test_support::scratch_dir;
using memcarlo::test_support::write_trace;

struct TerminalRun {
  int exit_code = -1;
  std::string output;  // standard output and standard error, both the terminal
};

/// Runs `memcarlo ARGUMENTS...` with a 200-column pseudo-terminal as its standard streams.
TerminalRun run_on_terminal(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv_text = {kMemcarlo};
  argv_text.insert(argv_text.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);
  std::string term = "TERM=xterm";
  std::string path = std::string("PATH=") + (std::getenv("PATH") ? std::getenv("PATH") : "");
  std::vector<char*> envp = {term.data(), path.data(), nullptr};
  winsize size{};
  size.ws_row = 50;
  size.ws_col = 200;
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, &size);
  TerminalRun result;
  if (pid < 0) {
    result.output = "forkpty failed";
    return result;
  }
  if (pid == 0) {
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n > 0) {
      result.output.append(buffer, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child has closed the terminal
    }
  }
  ::close(master);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST(Progress, OnATerminalALineIsDrawnAndErasedAndTheReportIsUnchanged) {
  const std::string trace = write_trace("progress.mct", {.blocks = 64});
  const fs::path on_terminal = scratch_dir() / "terminal.json";
  const fs::path in_pipe = scratch_dir() / "pipe.json";
  const TerminalRun t = run_on_terminal(
      {"simulate", trace, "-n", "24", "-j", "2", "-s", "3", "-o", on_terminal.string()});
  ASSERT_EQ(t.exit_code, 0) << t.output;
  EXPECT_NE(t.output.find("\r\033[Kmemcarlo: 0/24 trials"), std::string::npos) << t.output;
  EXPECT_NE(t.output.find("/24 trials, "), std::string::npos) << t.output;
  // Erased before the table.
  EXPECT_NE(t.output.find("\r\033[Khierarchy fermi-c2050"), std::string::npos) << t.output;
  const auto p = memcarlo("simulate " + trace + " -n 24 -j 2 -s 3 -o " + in_pipe.string());
  ASSERT_EQ(p.exit_code, 0) << p.output;
  EXPECT_EQ(p.output.find("\033[K"), std::string::npos) << p.output;
  EXPECT_EQ(p.output.find("trials, "), std::string::npos) << p.output;
  EXPECT_EQ(results_of(on_terminal), results_of(in_pipe));
}

TEST(Progress, UntilCiShowsTheWidestIntervalAndStopsAfterTheSameTrials) {
  const std::string trace = write_trace("progress-ci.mct", {.blocks = 64});
  const fs::path on_terminal = scratch_dir() / "terminal-ci.json";
  const fs::path in_pipe = scratch_dir() / "pipe-ci.json";
  const std::vector<std::string> options = {"-n", "12", "--until-ci", "0.004", "--max-trials",
                                            "44", "-j", "2",          "-o"};
  std::vector<std::string> arguments = {"simulate", trace};
  arguments.insert(arguments.end(), options.begin(), options.end());
  arguments.push_back(on_terminal.string());
  const TerminalRun t = run_on_terminal(arguments);
  ASSERT_EQ(t.exit_code, 0) << t.output;
  EXPECT_NE(t.output.find("trials (at most 44)"), std::string::npos) << t.output;
  EXPECT_NE(t.output.find("widest 95% interval "), std::string::npos) << t.output;
  EXPECT_NE(t.output.find("target 0.004"), std::string::npos) << t.output;
  const auto p = memcarlo("simulate " + trace +
                          " -n 12 --until-ci 0.004 --max-trials 44 -j 2 -q -o " + in_pipe.string());
  ASSERT_EQ(p.exit_code, 0) << p.output;
  EXPECT_EQ(results_of(on_terminal), results_of(in_pipe));
  // The stop rule was asked after 12, 20, 28, ... trials in both runs.
  const auto trials = memcarlo::test_support::read_json_file(in_pipe)["inputs"]["trials"];
  EXPECT_TRUE(trials == 44 || (trials.get<int>() - 12) % 8 == 0) << trials;
}

TEST(Progress, ASweepDrawsABarOfTheWholeSweepOnATerminalAndNothingInAPipe) {
  const std::string trace = write_trace("progress-sweep.mct", {.blocks = 64});
  const fs::path on_terminal = scratch_dir() / "sweep-terminal.json";
  const fs::path in_pipe = scratch_dir() / "sweep-pipe.json";
  const TerminalRun t =
      run_on_terminal({"sweep", trace, "-n", "8", "-j", "2", "--vary", "l1.size=16KiB,48KiB",
                       "-o", on_terminal.string()});
  ASSERT_EQ(t.exit_code, 0) << t.output;
  EXPECT_NE(t.output.find("\r\033[Kmemcarlo: [--------------------] point 1/2 (l1.size=16KiB): "
                          "0/8 trials"),
            std::string::npos)
      << t.output;
  EXPECT_NE(t.output.find("point 2/2 (l1.size=48KiB): "), std::string::npos) << t.output;
  EXPECT_NE(t.output.find("; sweep "), std::string::npos) << t.output;
  const auto p = memcarlo("sweep " + trace + " -n 8 -j 2 --vary l1.size=16KiB,48KiB -o " +
                          in_pipe.string());
  ASSERT_EQ(p.exit_code, 0) << p.output;
  EXPECT_EQ(p.output.find("\033[K"), std::string::npos) << p.output;
  EXPECT_EQ(p.output.find("point 1/2"), std::string::npos) << p.output;
  EXPECT_EQ(results_of(on_terminal), results_of(in_pipe));
}

TEST(Progress, QuietDrawsNothingEvenOnATerminal) {
  const std::string trace = write_trace("progress-quiet.mct");
  const TerminalRun t = run_on_terminal(
      {"simulate", trace, "-n", "4", "-q", "-o", (scratch_dir() / "quiet.json").string()});
  ASSERT_EQ(t.exit_code, 0) << t.output;
  EXPECT_EQ(t.output, "");
}

TEST(Threads, MoreThanTheMachineHasIsOurOwnNoteAndTheReportSaysWhatRan) {
  const std::string trace = write_trace("threads.mct");
  const fs::path many = scratch_dir() / "many.json";
  const fs::path all = scratch_dir() / "all.json";
  const auto r = memcarlo("simulate " + trace + " -n 4 -j 1000 -o " + many.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("memcarlo: note: --threads 1000 is more than the "), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("TBB"), std::string::npos) << r.output;
  ASSERT_EQ(memcarlo("simulate " + trace + " -n 4 -j 0 -q -o " + all.string()).exit_code, 0);
  const auto threads = [](const fs::path& report) {
    return memcarlo::test_support::read_json_file(report)["performance"]["threads"];
  };
  EXPECT_EQ(threads(many), threads(all));
  EXPECT_EQ(results_of(many), results_of(all));
}

}  // namespace
