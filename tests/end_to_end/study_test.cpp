// memcarlo study end to end on small programs of our own (tests/end_to_end/study/): two programs
// (one build, two arguments) x three points, a program that fails to build and one that fails its
// check; the trace cache (a new point reuses the traces, a changed flag rebuilds and retraces);
// --resume after a SIGKILL; two shards then --resume equal to one process; points that propose
// Locality Descriptors. The programs are built
// once for the whole binary (one CTest test), and each test works on a copy of that study's
// output folder, whose cache/ holds the builds and traces.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "common/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::CommandResult;
using nlohmann::json;

const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";
const std::string kPrograms = std::string(MEMCARLO_SOURCE_DIR) + "/tests/end_to_end/study";

fs::path scratch() {
  static const fs::path dir =
      fs::temp_directory_path() / ("memcarlo-study-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

json study_file(bool new_point = false, const std::string& b_flag = "-O1") {
  json points = json::array({
      {{"name", "base"}, {"preset", "fermi-c2050"}, {"baseline", true}},
      {{"name", "l1-48k"}, {"preset", "fermi-c2050"}, {"set", {{"l1.size", "48KiB"}}}},
      {{"name", "no-l1"}, {"preset", "fermi-c2050"}, {"set", {{"l1.enabled", false}}}},
  });
  if (new_point) {
    points.push_back(
        {{"name", "l2-lru"}, {"preset", "fermi-c2050"}, {"set", {{"l2.size", "96KiB"}}}});
  }
  const json passed = {{"output_contains", "PASSED"}};
  return {{"name", "tiny"},
          {"trials", 4},
          {"metrics", {"l1_read_hit_ratio", "latency_cycles"}},
          {"points", points},
          {"programs",
           {{{"name", "unit"},
             {"sources", {"strided.cu"}},
             {"flags", {"-O1"}},
             {"args", {"1"}},
             {"check", passed}},
            {{"name", "wide"},
             {"sources", {"strided.cu"}},
             {"flags", {b_flag}},
             {"args", {"33"}},
             {"check", passed}},
            {{"name", "broken"}, {"sources", {"broken.cu"}}},
            {{"name", "unchecked"},
             {"sources", {"strided.cu"}},
             {"flags", {"-O1"}},
             {"args", {"1"}},
             {"check", {{"output_contains", "NO SUCH TEXT"}}}}}}};
}

fs::path write_study(const std::string& name, const json& study) {
  const fs::path path = scratch() / name;
  std::ofstream(path) << study.dump(2);
  return path;
}

CommandResult study(const fs::path& file, const fs::path& out, const std::string& more = "") {
  return memcarlo::test_support::run_command(kMemcarlo + " study " + file.string() +
                                             " --suite-root " + kPrograms + " -o " + out.string() +
                                             " -j 2 " + more + " 2>&1");
}

std::string read_file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

/// The report without what describes the run itself (times, caches).
json results_of(json report) {
  report.erase("performance");
  for (auto& program : report["programs"]) {
    program.erase("performance");
  }
  return report;
}

/// The study every test starts from, run once: its output folder (to copy) and exit status.
struct BaseStudy {
  fs::path file;
  fs::path out;
  CommandResult result;
};

const BaseStudy& base_study() {
  static const BaseStudy base = [] {
    BaseStudy made;
    made.file = write_study("study.json", study_file());
    made.out = scratch() / "base";
    made.result = study(made.file, made.out);
    return made;
  }();
  return base;
}

fs::path copy_of_base(const std::string& name) {
  const fs::path copy = scratch() / name;
  fs::remove_all(copy);
  fs::copy(base_study().out, copy, fs::copy_options::recursive);
  return copy;
}

const json& program_named(const json& report, const std::string& name) {
  for (const json& program : report["programs"]) {
    if (program["name"] == name) {
      return program;
    }
  }
  ADD_FAILURE() << "no program " << name;
  static const json none;
  return none;
}

TEST(Study, TwoProgramsThreePointsWithPairedDifferencesAndAverages) {
  const BaseStudy& base = base_study();
  EXPECT_EQ(base.result.exit_code, 1) << base.result.output;  // two programs fail
  const json report = read_json(base.out / "study.json");
  EXPECT_EQ(report["schema"], "memcarlo-study");
  ASSERT_EQ(report["points"].size(), 3u);
  for (const std::string name : {"unit", "wide"}) {
    const json& program = program_named(report, name);
    ASSERT_EQ(program["status"], "ok") << program.dump();
    const json& results = program["results"];
    // Each point's paired difference is its mean minus the baseline's (every trial defines the
    // hit ratio on both sides, so the mean of the differences is the difference of the means).
    for (const std::string point : {"base", "l1-48k"}) {
      const json& hit = results[point]["l1_read_hit_ratio"];
      const double base_mean = results["base"]["l1_read_hit_ratio"]["mean"];
      EXPECT_NEAR(hit["difference"]["mean"].get<double>(), hit["mean"].get<double>() - base_mean,
                  1e-12);
      EXPECT_EQ(hit["difference"]["pairs"], 4);
    }
    // Without an L1 there is no L1 hit ratio, and every load goes further: X grows.
    EXPECT_TRUE(results["no-l1"]["l1_read_hit_ratio"]["mean"].is_null());
    const json& latency = results["no-l1"]["latency_cycles"];
    EXPECT_NEAR(
        latency["ratio"]["mean"].get<double>(),
        latency["mean"].get<double>() / results["base"]["latency_cycles"]["mean"].get<double>(),
        1e-9);
    EXPECT_GT(latency["ratio"]["mean"].get<double>(), 1.0);
  }
  // The averages: arithmetic over the two programs for the ratio, geometric for the latency.
  const json& unit = program_named(report, "unit")["results"];
  const json& wide = program_named(report, "wide")["results"];
  const json& average = report["average"];
  EXPECT_NEAR(average["l1-48k"]["l1_read_hit_ratio"]["mean"].get<double>(),
              (unit["l1-48k"]["l1_read_hit_ratio"]["mean"].get<double>() +
               wide["l1-48k"]["l1_read_hit_ratio"]["mean"].get<double>()) /
                  2,
              1e-12);
  EXPECT_NEAR(average["base"]["latency_cycles"]["mean"].get<double>(),
              std::sqrt(unit["base"]["latency_cycles"]["mean"].get<double>() *
                        wide["base"]["latency_cycles"]["mean"].get<double>()),
              1e-9);
  EXPECT_EQ(average["base"]["latency_cycles"]["programs"], 2);
  EXPECT_NE(average["base"]["latency_cycles"]["method"].get<std::string>().find("geometric"),
            std::string::npos);
  // study.csv: a header, then (2 programs + the average) x 3 points x 2 metrics.
  std::ifstream csv(base.out / "study.csv");
  std::size_t lines = 0;
  for (std::string line; std::getline(csv, line);) {
    ++lines;
  }
  EXPECT_EQ(lines, 1u + 3 * 3 * 2);
  EXPECT_TRUE(fs::exists(base.out / "study.html"));
}

TEST(Study, FailuresNameTheirStageAndReasonAndTheStudyGoesOn) {
  const BaseStudy& base = base_study();
  const json report = read_json(base.out / "study.json");
  ASSERT_EQ(report["failures"].size(), 2u) << report["failures"].dump();
  const json& broken = program_named(report, "broken");
  EXPECT_EQ(broken["stage"], "build");
  // memcarlo-cc's status, its log (relative to the output folder) and the log's last lines.
  const std::string reason = broken["reason"];
  EXPECT_NE(reason.find("memcarlo-cc exited with status 1"), std::string::npos) << reason;
  EXPECT_NE(reason.find("(log: cache/build-"), std::string::npos) << reason;
  EXPECT_NE(reason.find("broken.cu"), std::string::npos) << reason;
  const json& unchecked = program_named(report, "unchecked");
  EXPECT_EQ(unchecked["stage"], "check");
  EXPECT_NE(unchecked["reason"].get<std::string>().find("NO SUCH TEXT"), std::string::npos);
  EXPECT_NE(base.result.output.find("failed: broken at build"), std::string::npos)
      << base.result.output;
}

TEST(Study, ANewPointReusesTheTracesAndAChangedFlagRetraces) {
  const fs::path out = copy_of_base("cache");
  const json before = read_json(out / "study.json");
  const CommandResult added = study(write_study("added.json", study_file(true)), out);
  EXPECT_EQ(added.exit_code, 1) << added.output;
  const json with_point = read_json(out / "study.json");
  for (const std::string name : {"unit", "wide"}) {
    const json& program = program_named(with_point, name);
    EXPECT_TRUE(program["performance"]["build_cached"].get<bool>()) << name;
    EXPECT_TRUE(program["performance"]["trace_cached"].get<bool>()) << name;
    // The old points are the same numbers: the same trace, seed and trials.
    EXPECT_EQ(program["results"]["l1-48k"], program_named(before, name)["results"]["l1-48k"]);
    EXPECT_TRUE(program["results"].contains("l2-lru"));
  }
  const CommandResult changed = study(write_study("changed.json", study_file(true, "-O2")), out);
  EXPECT_EQ(changed.exit_code, 1) << changed.output;
  const json after = read_json(out / "study.json");
  EXPECT_FALSE(program_named(after, "wide")["performance"]["build_cached"].get<bool>());
  EXPECT_FALSE(program_named(after, "wide")["performance"]["trace_cached"].get<bool>());
  EXPECT_TRUE(program_named(after, "unit")["performance"]["trace_cached"].get<bool>());
}

TEST(Study, BoundsCheckOffTracesAProgramThatReadsPastItsArrayAndTheReportSaysSo) {
  const json points = json::array(
      {{{"name", "base"}, {"preset", "fermi-c2050"}},
       {{"name", "no-l1"}, {"preset", "fermi-c2050"}, {"set", {{"l1.enabled", false}}}}});
  const json passed = {{"output_contains", "PASSED"}};
  const json file = {
      {"name", "bounds"},
      {"trials", 2},
      {"metrics", {"l1_read_hit_ratio"}},
      {"points", points},
      {"programs",
       {{{"name", "checked"}, {"sources", {"south_neighbour.cu"}}, {"check", passed}},
        {{"name", "unchecked"},
         {"sources", {"south_neighbour.cu"}},
         {"bounds_check", false},
         {"note", "reads a row past its image"},
         {"check", passed}}}}};
  const fs::path out = scratch() / "bounds";
  const CommandResult result = study(write_study("bounds.json", file), out);
  EXPECT_EQ(result.exit_code, 1) << result.output;
  const json report = read_json(out / "study.json");
  // On by default: the run stops, and its reason says how a study turns the check off.
  const json& checked = program_named(report, "checked");
  EXPECT_EQ(checked["stage"], "run") << checked.dump();
  const std::string reason = checked.value("reason", "");
  EXPECT_NE(reason.find("out-of-bounds global memory read in kernel 'south'"), std::string::npos)
      << reason;
  EXPECT_NE(reason.find("(\"bounds_check\": false in the program's study entry turns this check "
                        "off)"),
            std::string::npos)
      << reason;
  // Off: traced and simulated, its check passes, and its note says how it was traced.
  const json& unchecked = program_named(report, "unchecked");
  EXPECT_FALSE(unchecked.contains("stage")) << unchecked.dump();
  EXPECT_TRUE(unchecked["results"].contains("no-l1")) << unchecked.dump();
  EXPECT_EQ(unchecked["note"],
            "reads a row past its image; traced with the host runtime's bounds check off "
            "(bounds_check: false)");
  // A non-boolean is refused with its place.
  json bad = file;
  bad["programs"][1]["bounds_check"] = "no";
  const CommandResult refused = study(write_study("bounds-bad.json", bad), scratch() / "bad");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("programs[1].bounds_check: expected true or false, found \"no\""),
            std::string::npos)
      << refused.output;
}

// A program that opens its input at a fixed relative path (../../data/values.txt) runs in the
// folder "run_in" names under its work folder, where its inputs command (run in the work folder)
// wrote data/values.txt; without run_in the same program finds no file and fails at its run. A
// run_in that leaves the work folder is refused with its place.
TEST(Study, RunInRunsTheProgramInAFolderUnderItsWorkFolder) {
  const json points = json::array({{{"name", "base"}, {"preset", "fermi-c2050"}}});
  const json passed = {{"output_contains", "PASSED: 100 values"}};
  const std::string inputs = "mkdir -p data && seq 1 100 > data/values.txt";
  const json file = {
      {"name", "run-in"},
      {"trials", 2},
      {"metrics", {"l1_read_hit_ratio"}},
      {"points", points},
      {"programs",
       {{{"name", "nested"},
         {"sources", {"fixed_path.cu"}},
         {"inputs", inputs},
         {"run_in", "run/here/"},
         {"check", passed}},
        {{"name", "flat"},
         {"sources", {"fixed_path.cu"}},
         {"inputs", inputs},
         {"check", passed}}}}};
  const fs::path out = scratch() / "run-in";
  const CommandResult result = study(write_study("run-in.json", file), out);
  EXPECT_EQ(result.exit_code, 1) << result.output;
  const json report = read_json(out / "study.json");
  const json& nested = program_named(report, "nested");
  EXPECT_FALSE(nested.contains("stage")) << nested.dump();
  EXPECT_TRUE(nested["results"].contains("base")) << nested.dump();
  const json& flat = program_named(report, "flat");
  EXPECT_EQ(flat["stage"], "run") << flat.dump();
  EXPECT_NE(flat.value("reason", "").find("cannot open ../../data/values.txt"), std::string::npos)
      << flat.dump();
  for (const char* escape : {"../run", "run/../../x", "/tmp/run"}) {
    json bad = file;
    bad["programs"][0]["run_in"] = escape;
    const CommandResult refused = study(write_study("run-in-bad.json", bad), scratch() / "bad");
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
    EXPECT_NE(refused.output.find("programs[0].run_in: expected a folder under the program's work "
                                  "folder (relative, without \"..\"), found \"" +
                                  std::string(escape) + "\""),
              std::string::npos)
        << refused.output;
  }
}

TEST(Study, ResumeAfterAKillGivesTheUninterruptedStudy) {
  const fs::path out = copy_of_base("killed");
  fs::remove_all(out / "programs");
  fs::remove(out / "study.json");
  // Killed part-way (the traces are cached, so the simulations are what runs), then resumed.
  memcarlo::test_support::run_command("timeout -s KILL 0.3 " + kMemcarlo + " study " +
                                      base_study().file.string() + " --suite-root " + kPrograms +
                                      " -o " + out.string() + " -j 2 >/dev/null 2>&1");
  const CommandResult resumed = study(base_study().file, out, "--resume");
  EXPECT_EQ(resumed.exit_code, 1) << resumed.output;
  EXPECT_EQ(results_of(read_json(out / "study.json")),
            results_of(read_json(base_study().out / "study.json")));
}

TEST(Study, ShardsThenResumeEqualOneProcess) {
  const fs::path out = copy_of_base("shards");
  fs::remove_all(out / "programs");
  fs::remove(out / "study.json");
  const CommandResult first = study(base_study().file, out, "--shard 0/2");
  const CommandResult second = study(base_study().file, out, "--shard 1/2");
  EXPECT_FALSE(fs::exists(out / "study.json"));
  // Each shard holds one failing program (broken is 2 % 2 == 0, unchecked 3 % 2 == 1).
  EXPECT_EQ(first.exit_code, 1) << first.output;
  EXPECT_EQ(second.exit_code, 1) << second.output;
  const CommandResult merged = study(base_study().file, out, "--resume");
  EXPECT_EQ(merged.exit_code, 1) << merged.output;
  EXPECT_EQ(results_of(read_json(out / "study.json")),
            results_of(read_json(base_study().out / "study.json")));
}

TEST(Study, AProgressLineOnATerminalOnlyAndKeptProgramsSaySo) {
  if (memcarlo::test_support::run_command("command -v script >/dev/null").exit_code != 0) {
    GTEST_SKIP() << "no script(1) to give the study a terminal";
  }
  const fs::path out = copy_of_base("terminal");
  // script(1) runs the study on a pseudo-terminal; the programs that ran are kept (--resume),
  // the failed build is tried again, with its stage on the progress line.
  const CommandResult terminal = memcarlo::test_support::run_command(
      "TERM=xterm script -qec '" + kMemcarlo + " study " + base_study().file.string() +
      " --suite-root " + kPrograms + " -o " + out.string() + " -j 2 --resume' /dev/null");
  EXPECT_NE(terminal.output.find("\r\033[Kmemcarlo study: program 3 of 4 (broken): build"),
            std::string::npos)
      << terminal.output;
  EXPECT_NE(terminal.output.find("[1/4] unit: ok (kept from the earlier run: "), std::string::npos)
      << terminal.output;
  // In a pipe, no progress line.
  EXPECT_EQ(base_study().result.output.find("\033[K"), std::string::npos);
}

/// The descriptors-HASH folders of a study's cache, and how many of them the proposer made
/// (those with its log).
std::pair<std::size_t, std::size_t> descriptor_folders(const fs::path& out) {
  std::size_t folders = 0;
  std::size_t proposed = 0;
  for (const auto& entry : fs::directory_iterator(out / "cache")) {
    if (entry.path().filename().string().starts_with("descriptors-")) {
      ++folders;
      proposed += fs::exists(entry.path() / "descriptors.log") ? 1 : 0;
    }
  }
  return {folders, proposed};
}

TEST(Study, PointsThatProposeDescriptorsGetTheProgramsFileMadeOnceAndTheOthersAreUnchanged) {
  const fs::path out = copy_of_base("descriptors");
  // Two points ask (the proposer must still run once per program); "wide" names its own file.
  json with = study_file();
  with["points"].push_back({{"name", "ldesc-cache"},
                            {"preset", "fermi-c2050"},
                            {"set", {{"ldesc.cache", true}}},
                            {"descriptors", "propose"}});
  with["points"].push_back({{"name", "ldesc-cta"},
                            {"preset", "fermi-c2050"},
                            {"set", {{"schedule.cta", "ldesc"}}},
                            {"descriptors", "propose"}});
  with["programs"][1]["descriptors"] = "{study}/wide-descriptors.json";
  with["programs"].erase(2);  // broken: its build, tried again on every run, is not the point
  std::ofstream(scratch() / "wide-descriptors.json") << R"({"descriptors": []})";
  const CommandResult ran = study(write_study("descriptors.json", with), out);
  EXPECT_EQ(ran.exit_code, 1) << ran.output;  // unchecked, as before
  const json report = read_json(out / "study.json");
  const json before = read_json(base_study().out / "study.json");
  // unit: the proposer's file, made once for both points, passed to them and to no other.
  const json& unit = program_named(report, "unit");
  ASSERT_EQ(unit["status"], "ok") << unit.dump();
  const json& proposed = unit["descriptors"];
  EXPECT_EQ(proposed["from"], "proposed");
  const std::string file = proposed["file"];
  EXPECT_TRUE(file.starts_with("cache/descriptors-")) << file;
  EXPECT_EQ(proposed["points"]["ldesc-cache"], file);
  EXPECT_EQ(proposed["points"]["ldesc-cta"], file);
  EXPECT_TRUE(proposed["points"]["base"].is_null());
  EXPECT_FALSE(unit["performance"]["descriptors_cached"].get<bool>());
  // gather's b[i] is its own block's (NO-REUSE); a[(i * stride) % (n * 4)] and a[i % 64] are
  // not affine (%), so a gets none: one descriptor, the one `memcarlo descriptors` gives.
  EXPECT_EQ(proposed["count"], 1);
  const fs::path trace =
      out / "cache" /
      ("trace-" + json::parse(read_file_text(out / "programs" / "unit" /
                                             "status.json"))["fingerprint"]["trace"]
                      .get<std::string>()) /
      "trace.mct";
  const CommandResult by_hand = memcarlo::test_support::run_command(
      kMemcarlo + " descriptors " + trace.string() + " 2>/dev/null");
  EXPECT_EQ(read_file_text(out / file), by_hand.output);
  const json points = read_json(out / "programs" / "unit" / "points.json");
  std::size_t passed = 0;
  for (const json& point : points) {
    if (point.contains("ldesc.descriptors")) {
      EXPECT_EQ(point["ldesc.descriptors"], (out / file).string());
      ++passed;
    }
  }
  EXPECT_EQ(passed, 2u);
  // wide: its own file, copied into the cache, no proposer.
  const json& wide = program_named(report, "wide")["descriptors"];
  EXPECT_EQ(wide["from"], "program");
  EXPECT_EQ(wide["source"], "{study}/wide-descriptors.json");
  EXPECT_EQ(wide["count"], 0);
  EXPECT_EQ(descriptor_folders(out), std::make_pair(std::size_t{2}, std::size_t{1}));
  EXPECT_EQ(report["points"][3]["descriptors"], "propose");
  // The points that do not ask are the same numbers as in the study without descriptors.
  for (const std::string name : {"unit", "wide"}) {
    for (const std::string point : {"base", "l1-48k", "no-l1"}) {
      EXPECT_EQ(program_named(report, name)["results"][point],
                program_named(before, name)["results"][point])
          << name << " " << point;
    }
  }
  // A new point reuses the proposal (no second run); a bad file of the program's own fails it
  // at stage "descriptors", and the study goes on.
  with["points"].push_back({{"name", "ldesc-both"},
                            {"preset", "fermi-c2050"},
                            {"set", {{"ldesc.cache", true}, {"schedule.cta", "ldesc"}}},
                            {"descriptors", "propose"}});
  std::ofstream(scratch() / "wide-descriptors.json") << R"({"descriptors": [{"size": 4}]})";
  const CommandResult again = study(write_study("descriptors.json", with), out, "--resume");
  EXPECT_EQ(again.exit_code, 1) << again.output;
  const json after = read_json(out / "study.json");
  const json& unit_after = program_named(after, "unit");
  EXPECT_TRUE(unit_after["performance"]["descriptors_cached"].get<bool>());
  EXPECT_EQ(unit_after["descriptors"]["points"]["ldesc-both"], file);
  EXPECT_EQ(unit_after["results"]["ldesc-cta"], unit["results"]["ldesc-cta"]);
  const json& wide_after = program_named(after, "wide");
  EXPECT_EQ(wide_after["stage"], "descriptors");
  EXPECT_NE(wide_after["reason"].get<std::string>().find("wide-descriptors.json: descriptors[0]"),
            std::string::npos)
      << wide_after["reason"];
  EXPECT_EQ(descriptor_folders(out).second, 1u);
}

TEST(Study, BadStudyFileNamesThePlace) {
  json bad = study_file();
  bad["points"][1]["set"]["l1.nonsense"] = 1;
  const CommandResult result = study(write_study("bad.json", bad), scratch() / "bad");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("bad.json: points[1]"), std::string::npos) << result.output;
  bad = study_file();
  bad["points"][2]["descriptors"] = "proposed";
  const CommandResult descriptors = study(write_study("bad_desc.json", bad), scratch() / "bad");
  EXPECT_EQ(descriptors.exit_code, 2);
  EXPECT_NE(descriptors.output.find("points[2].descriptors: expected \"propose\""),
            std::string::npos)
      << descriptors.output;
  bad = study_file();
  bad["metrics"] = {"no_such_metric"};
  const CommandResult metric = study(write_study("bad_metric.json", bad), scratch() / "bad");
  EXPECT_EQ(metric.exit_code, 2);
  EXPECT_NE(metric.output.find("metrics[0]"), std::string::npos) << metric.output;
}

}  // namespace
