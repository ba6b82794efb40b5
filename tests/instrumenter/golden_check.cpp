// Golden-file test driver: instruments one golden .cu file with both backends through the
// memcarlo-instrument executable and checks the expectations written next to the code:
//   // CHECK-HOST: text        the host-backend output contains text (whitespace squeezed)
//   // CHECK-CUDA: text        the cuda-backend output contains text
//   // CHECK-NOT-HOST: text    ... does not contain it (CHECK-NOT-CUDA likewise)
//   // CHECK-FILE: path: text  the host-backend output file `path` (relative) contains text
//   // CHECK-LOAD: {json}      some loads-table entry has all these fields (recursively)
//   // CHECK-NO-LOAD: {json}   no entry has them
//   // CHECK-LOADS: n          the table has n entries
//   // CHECK-SUMMARY: text     the summary (--verbose, stderr) of the host run contains text
//                            (a run that tolerated host-side errors fails unless a CHECK-SUMMARY
//                            expects its "instrumented although ..." warning)
//   // RUN-ARGS: args          extra arguments for both runs
// With --setup toolkit|builtin (before the other options) both runs use only that parse setup;
// exit code 77 (skipped) when it is the toolkit setup and no CUDA toolkit is installed.
// With --outputs-of DIR (after --setup) it does not instrument but takes the outputs a run with
// WORK_DIR DIR left (the golden test's: ctest runs it first, a fixture).
// With --nvcc NVCC it instead compiles the outputs with `nvcc -c`: the cuda output with
// -DMEMCARLO_BACKEND_CUDA -rdc=true and without a backend, and the host output without a backend.
// Exit code 77 (skipped) when NVCC does not exist. With --host CXX FLAGS LINK [EXPECTED] it compiles
// the host-backend output against the emulation runtime (and links, runs and compares stdout).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {
struct Check {
  std::string directive;
  std::string text;
  int line = 0;
};

std::string squeeze(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// The output without the golden file's own expectation comments (they are copied into it).
std::string without_checks(const std::string& text) {
  std::string out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find("// CHECK") == std::string::npos && line.find("// RUN-ARGS") == std::string::npos) {
      out += line + "\n";
    }
  }
  return out;
}

std::vector<Check> parse_checks(const std::string& source) {
  std::vector<Check> checks;
  std::istringstream lines(source);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const size_t at = line.find("// CHECK");
    const size_t run = line.find("// RUN-ARGS:");
    const size_t start = at != std::string::npos ? at : run;
    if (start == std::string::npos) continue;
    const size_t colon = line.find(':', start);
    if (colon == std::string::npos) continue;
    std::string text = line.substr(colon + 1);
    text.erase(0, text.find_first_not_of(' '));
    checks.push_back({line.substr(start + 3, colon - start - 3), text, number});
  }
  return checks;
}

int run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool matches(const nlohmann::json& pattern, const nlohmann::json& value) {
  if (pattern.is_object()) {
    if (!value.is_object()) return false;
    for (const auto& [key, expected] : pattern.items()) {
      if (!value.contains(key) || !matches(expected, value.at(key))) return false;
    }
    return true;
  }
  if (pattern.is_array()) {
    if (!value.is_array() || value.size() != pattern.size()) return false;
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (!matches(pattern[i], value[i])) return false;
    }
    return true;
  }
  return pattern == value;
}

struct Run {
  int exit_code = 0;
  fs::path output_dir;
  std::string main_output;
  std::string diagnostics;
  nlohmann::json loads;
};

Run instrument(const std::string& tool, const fs::path& golden, const std::string& backend,
               const fs::path& work, const std::string& extra) {
  Run result;
  result.output_dir = work / backend;
  fs::remove_all(result.output_dir);
  const fs::path loads = work / (backend + ".loads.json");
  const fs::path log = work / (backend + ".log");
  const std::string command = shell_quote(tool) + " " + shell_quote(golden.string()) +
                              " --output-dir " + shell_quote(result.output_dir.string()) +
                              " --loads " + shell_quote(loads.string()) + " --backend " + backend +
                              " --verbose " + extra + " 2> " + shell_quote(log.string());
  result.exit_code = run(command);
  result.diagnostics = read(log);
  result.main_output = without_checks(read(result.output_dir / golden.filename()));
  if (result.exit_code == 0) result.loads = nlohmann::json::parse(read(loads));
  return result;
}

/// The outputs an earlier run of this program (the golden test, a ctest fixture) left in `work`.
Run earlier_run(const fs::path& golden, const std::string& backend, const fs::path& work) {
  Run result;
  result.output_dir = work / backend;
  const fs::path output = result.output_dir / golden.filename();
  if (!fs::exists(output)) {
    result.exit_code = 1;
    result.diagnostics = output.string() + " is missing: the golden test did not instrument " +
                         golden.string() + " (or failed)\n";
    return result;
  }
  result.diagnostics = read(work / (backend + ".log"));
  result.main_output = without_checks(read(output));
  result.loads = nlohmann::json::parse(read(work / (backend + ".loads.json")));
  return result;
}
}  // namespace

int main(int argc, char** argv) {
  std::string setup;
  if (argc >= 6 && std::string(argv[4]) == "--setup") {
    setup = argv[5];
    for (int i = 6; i < argc; ++i) argv[i - 2] = argv[i];
    argc -= 2;
  }
  // --outputs-of DIR: compile what the golden test's run (WORK_DIR DIR) wrote instead of
  // instrumenting again; ctest runs that test first (a fixture).
  std::string outputs_of;
  if (argc >= 6 && std::string(argv[4]) == "--outputs-of") {
    outputs_of = argv[5];
    for (int i = 6; i < argc; ++i) argv[i - 2] = argv[i];
    argc -= 2;
  }
  if (argc < 4) {
    std::cerr << "usage: golden_check TOOL GOLDEN.cu WORK_DIR [--setup toolkit|builtin] "
                 "[--outputs-of DIR] [--nvcc NVCC INCLUDE_DIR | --host CXX FLAGS LINK "
                 "[EXPECTED]]\n";
    return 2;
  }
  const std::string tool = argv[1];
  const fs::path golden = fs::absolute(argv[2]);
  const fs::path work = fs::path(argv[3]) / golden.stem();
  fs::create_directories(work);
  const std::string source = read(golden);
  const std::vector<Check> checks = parse_checks(source);
  std::string extra = setup.empty() ? "" : " --parse-order " + setup;
  for (const Check& check : checks) {
    if (check.directive == "RUN-ARGS") extra += " " + check.text;
  }
  const fs::path earlier = outputs_of.empty() ? fs::path() : fs::path(outputs_of) / golden.stem();
  const Run host = outputs_of.empty() ? instrument(tool, golden, "host", work, extra)
                                      : earlier_run(golden, "host", earlier);
  const Run cuda = outputs_of.empty() ? instrument(tool, golden, "cuda", work, extra)
                                      : earlier_run(golden, "cuda", earlier);
  if (setup == "toolkit" && host.diagnostics.find("no parse setup is available") !=
                                std::string::npos) {
    std::cerr << "no CUDA toolkit for the toolkit parse setup; skipping\n";
    return 77;
  }
  int failures = 0;
  auto fail = [&](const Check& check, const std::string& why) {
    std::cerr << golden.string() << ":" << check.line << ": " << check.directive << ": "
              << check.text << "\n    " << why << "\n";
    ++failures;
  };
  if (host.exit_code != 0 || cuda.exit_code != 0) {
    std::cerr << golden.string() << ": memcarlo-instrument failed (host " << host.exit_code
              << ", cuda " << cuda.exit_code << ")\n"
              << host.diagnostics << cuda.diagnostics;
    return 1;
  }

  if (argc >= 8 && std::string(argv[4]) == "--host") {
    // --host CXX "COMPILE FLAGS" "LINK INPUTS" [EXPECTED_STDOUT]: compile the host-backend output
    // against the emulation runtime; with EXPECTED_STDOUT also link and run it.
    const std::string cxx = argv[5];
    const std::string flags = argv[6];
    const std::string link = argv[7];
    const size_t separator = extra.find(" -- ");
    const std::string compile_flags =
        separator == std::string::npos ? "" : extra.substr(separator + 4);
    const fs::path input = host.output_dir / golden.filename();
    const fs::path object = work / "host.o";
    const fs::path log = work / "host_compile.log";
    const std::string compile = shell_quote(cxx) + " " + flags + " " + compile_flags + " -iquote " +
                                shell_quote(golden.parent_path().string()) + " -c " +
                                shell_quote(input.string()) + " -o " + shell_quote(object.string()) +
                                " > " + shell_quote(log.string()) + " 2>&1";
    if (run(compile) != 0) {
      std::cerr << golden.string() << ": the host-backend output does not compile:\n" << read(log);
      return 1;
    }
    if (argc < 9) return 0;
    const fs::path program = work / "host_program";
    if (run(shell_quote(cxx) + " " + shell_quote(object.string()) + " " + link + " -o " +
            shell_quote(program.string()) + " > " + shell_quote(log.string()) + " 2>&1") != 0) {
      std::cerr << golden.string() << ": the host-backend program does not link:\n" << read(log);
      return 1;
    }
    const fs::path out = work / "host_program.out";
    const int status = run(shell_quote(program.string()) + " > " + shell_quote(out.string()));
    const std::string printed = read(out);
    if (status != 0 || printed != std::string(argv[8]) + "\n") {
      std::cerr << golden.string() << ": the instrumented program printed (exit " << status
                << "):\n" << printed << "expected:\n" << argv[8] << "\n";
      return 1;
    }
    return 0;
  }

  if (argc >= 7 && std::string(argv[4]) == "--nvcc") {
    const std::string nvcc = argv[5];
    // The compile flags a golden file gives after `--` in RUN-ARGS apply to nvcc too.
    const size_t separator = extra.find(" -- ");
    const std::string compile_flags =
        separator == std::string::npos ? "" : extra.substr(separator + 4);
    const std::string include = argv[6];
    if (!fs::exists(nvcc)) {
      std::cerr << "nvcc not found at " << nvcc << "; skipping\n";
      return 77;
    }
    struct Mode {
      const Run& run;
      std::string defines;
      std::string name;
    };
    // The cuda backend's device recorder is defined by the runtime in another translation unit:
    // relocatable device code, as a program linking that runtime is built.
    const Mode modes[] = {{cuda, "-DMEMCARLO_BACKEND_CUDA -rdc=true", "cuda output, cuda backend"},
                          {cuda, "", "cuda output, no backend"},
                          {host, "", "host output, no backend"}};
    for (const Mode& mode : modes) {
      const fs::path input = mode.run.output_dir / golden.filename();
      const fs::path log = work / "nvcc.log";
      const std::string command = shell_quote(nvcc) + " -c -std=c++17 -I" +
                                  shell_quote(include) + " " + mode.defines + " " + compile_flags +
                                  " " +
                                  shell_quote(input.string()) + " -o " +
                                  shell_quote((work / "out.o").string()) + " > " +
                                  shell_quote(log.string()) + " 2>&1";
      if (run(command) != 0) {
        std::cerr << golden.string() << ": nvcc -c failed for the " << mode.name << ":\n"
                  << read(log);
        ++failures;
      }
    }
    return failures == 0 ? 0 : 1;
  }

  const std::string host_text = squeeze(host.main_output);
  const std::string cuda_text = squeeze(cuda.main_output);
  for (const Check& check : checks) {
    const std::string wanted = squeeze(check.text);
    if (check.directive == "CHECK-HOST" && host_text.find(wanted) == std::string::npos) {
      fail(check, "not in the host-backend output:\n" + host.main_output);
    } else if (check.directive == "CHECK-CUDA" && cuda_text.find(wanted) == std::string::npos) {
      fail(check, "not in the cuda-backend output:\n" + cuda.main_output);
    } else if (check.directive == "CHECK-NOT-HOST" &&
               host_text.find(wanted) != std::string::npos) {
      fail(check, "found in the host-backend output");
    } else if (check.directive == "CHECK-NOT-CUDA" &&
               cuda_text.find(wanted) != std::string::npos) {
      fail(check, "found in the cuda-backend output");
    } else if (check.directive == "CHECK-FILE") {
      const size_t colon = check.text.find(':');
      const fs::path file = host.output_dir / check.text.substr(0, colon);
      const std::string text = squeeze(without_checks(read(file)));
      if (text.find(squeeze(check.text.substr(colon + 1))) == std::string::npos) {
        fail(check, "not in " + file.string() + ":\n" + read(file));
      }
    } else if (check.directive == "CHECK-SUMMARY" &&
               squeeze(host.diagnostics).find(wanted) == std::string::npos) {
      fail(check, "not in the summary:\n" + host.diagnostics);
    } else if (check.directive == "CHECK-LOADS" &&
               host.loads.size() != static_cast<size_t>(std::stoul(check.text))) {
      fail(check, "the table has " + std::to_string(host.loads.size()) + " entries");
    } else if (check.directive == "CHECK-LOAD" || check.directive == "CHECK-NO-LOAD") {
      const nlohmann::json pattern = nlohmann::json::parse(check.text, nullptr, false);
      if (pattern.is_discarded()) {
        fail(check, "the expectation is not valid JSON");
        continue;
      }
      bool found = false;
      for (const nlohmann::json& entry : host.loads) found = found || matches(pattern, entry);
      if (check.directive == "CHECK-LOAD" && !found) {
        fail(check, "no loads-table entry matches; the table is:\n" + host.loads.dump(1));
      }
      if (check.directive == "CHECK-NO-LOAD" && found) fail(check, "an entry matches");
    }
  }
  if (checks.empty()) {
    std::cerr << golden.string() << ": no CHECK lines\n";
    return 1;
  }
  // Instrumenting despite host-side errors must be expected explicitly.
  bool tolerance_expected = false;
  for (const Check& check : checks) {
    tolerance_expected = tolerance_expected || (check.directive == "CHECK-SUMMARY" &&
                                                check.text.find("instrumented although") !=
                                                    std::string::npos);
  }
  if (!tolerance_expected && host.diagnostics.find("instrumented although") != std::string::npos) {
    std::cerr << golden.string() << ": instrumented despite parse errors:\n" << host.diagnostics;
    ++failures;
  }
  return failures == 0 ? 0 : 1;
}
