// Reading a study file (see study_spec.hpp): every field checked, with the file and place named.
#include "study_spec.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "commands.hpp"
#include "memcarlo/analysis/metrics.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::cli {
namespace {

using nlohmann::json;

/// {study} (the study file's folder) in a build's include folders, flags and make arguments, so
/// that they can name files kept beside the study (a shim header); known when the file is read.
std::vector<std::string> with_study(std::vector<std::string> texts, const std::string& folder) {
  static const std::string kStudy = "{study}";
  for (std::string& text : texts) {
    for (std::size_t at = text.find(kStudy); at != std::string::npos;
         at = text.find(kStudy, at + folder.size())) {
      text.replace(at, kStudy.size(), folder);
    }
  }
  return texts;
}

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& place, const std::string& what) const {
    throw UserError(file_ + ": " + (place.empty() ? "" : place + ": ") + what, 2);
  }

  void only(const json& object, const std::string& place, std::set<std::string> allowed) const {
    for (const auto& [key, value] : object.items()) {
      if (!allowed.contains(key)) {
        std::string list;
        for (const auto& name : allowed) {
          list += (list.empty() ? "" : ", ") + name;
        }
        fail(join(place, key), "unknown field; expected one of " + list);
      }
    }
  }

  std::string text(const json& object, const std::string& place, const char* key,
                   bool required = false) const {
    const auto found = object.find(key);
    if (found == object.end()) {
      if (required) {
        fail(place, std::string("missing field \"") + key + "\"");
      }
      return {};
    }
    if (!found->is_string()) {
      fail(join(place, key), "expected a string, found " + found->dump());
    }
    return found->get<std::string>();
  }

  std::vector<std::string> texts(const json& object, const std::string& place,
                                 const char* key) const {
    const auto found = object.find(key);
    if (found == object.end()) {
      return {};
    }
    if (found->is_string()) {
      return {found->get<std::string>()};
    }
    if (!found->is_array()) {
      fail(join(place, key), "expected a list of strings, found " + found->dump());
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < found->size(); ++i) {
      const json& item = (*found)[i];
      if (item.is_number()) {  // an argument given as a number
        out.push_back(item.dump());
      } else if (item.is_string()) {
        out.push_back(item.get<std::string>());
      } else {
        fail(join(place, key) + "[" + std::to_string(i) + "]",
             "expected a string, found " + item.dump());
      }
    }
    return out;
  }

  std::uint64_t count(const json& object, const std::string& place, const char* key,
                      std::uint64_t fallback, std::uint64_t minimum) const {
    const auto found = object.find(key);
    if (found == object.end()) {
      return fallback;
    }
    if (!found->is_number_unsigned() || found->get<std::uint64_t>() < minimum) {
      fail(join(place, key),
           "expected an integer >= " + std::to_string(minimum) + ", found " + found->dump());
    }
    return found->get<std::uint64_t>();
  }

  static std::string join(const std::string& place, const std::string& key) {
    return place.empty() ? key : place + "." + key;
  }

 private:
  std::string file_;
};

std::string value_text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace

StudySpec read_study(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw UserError(path + ": cannot read the study file", 2);
  }
  std::stringstream text;
  text << in.rdbuf();
  json document;
  try {
    document = json::parse(text.str());
  } catch (const json::exception& e) {
    throw UserError(path + ": not JSON (" + e.what() + ")", 2);
  }
  const Reader r(path);
  if (!document.is_object()) {
    r.fail("", "expected a JSON object with \"points\" and \"programs\"");
  }
  r.only(document, "",
         {"name", "description", "trials", "seed", "metrics", "points", "programs",
          "trace_hierarchy", "snapshot_factor", "paper", "notes"});
  StudySpec spec;
  spec.file = path;
  spec.folder = std::filesystem::absolute(path).parent_path().string();
  reports::StudyInputs& inputs = spec.inputs;
  inputs.file = path;
  inputs.name = r.text(document, "", "name");
  if (inputs.name.empty()) {
    inputs.name = std::filesystem::path(path).stem().string();
  }
  inputs.description = r.text(document, "", "description");
  inputs.trials = static_cast<std::uint32_t>(r.count(document, "", "trials", 16, 2));
  inputs.seed = r.count(document, "", "seed", 1, 0);
  spec.snapshot_factor = static_cast<unsigned>(r.count(document, "", "snapshot_factor", 4, 1));
  spec.trace_hierarchy = r.text(document, "", "trace_hierarchy");
  inputs.metrics = r.texts(document, "", "metrics");
  if (inputs.metrics.empty()) {
    inputs.metrics = {"l1_read_hit_ratio", "l2_read_hit_ratio", "latency_cycles"};
  }
  for (std::size_t m = 0; m < inputs.metrics.size(); ++m) {
    if (analysis::find_metric(inputs.metrics[m], analysis::MetricScope::kAggregate) == nullptr) {
      r.fail("metrics[" + std::to_string(m) + "]",
             "\"" + inputs.metrics[m] +
                 "\" is not an overall metric of the report (README.md, the report schema)");
    }
  }

  const auto points = document.find("points");
  if (points == document.end() || !points->is_array() || points->empty()) {
    r.fail("points", "expected a non-empty list of points ({\"name\", \"preset\", \"set\"})");
  }
  std::set<std::string> point_names;
  std::size_t baselines = 0;
  for (std::size_t p = 0; p < points->size(); ++p) {
    const std::string place = "points[" + std::to_string(p) + "]";
    const json& point = (*points)[p];
    if (!point.is_object()) {
      r.fail(place, "expected an object, found " + point.dump());
    }
    r.only(point, place, {"name", "preset", "set", "baseline", "descriptors"});
    reports::StudyPointSpec parsed;
    parsed.name = r.text(point, place, "name", true);
    parsed.preset = r.text(point, place, "preset", true);
    if (!point_names.insert(parsed.name).second) {
      r.fail(place + ".name", "\"" + parsed.name + "\" names an earlier point too");
    }
    if (const auto set = point.find("set"); set != point.end()) {
      if (!set->is_object()) {
        r.fail(place + ".set", "expected an object KEY: VALUE, found " + set->dump());
      }
      for (const auto& [key, value] : set->items()) {
        parsed.set.emplace_back(key, value_text(value));
      }
    }
    if (const auto baseline = point.find("baseline"); baseline != point.end()) {
      if (!baseline->is_boolean()) {
        r.fail(place + ".baseline", "expected true or false, found " + baseline->dump());
      }
      if (baseline->get<bool>()) {
        inputs.baseline = p;
        ++baselines;
      }
    }
    const std::string descriptors = r.text(point, place, "descriptors");
    if (!descriptors.empty() && descriptors != "propose") {
      r.fail(place + ".descriptors",
             "expected \"propose\" (the program's own \"descriptors\" file, else those "
             "`memcarlo descriptors` proposes from its trace), found \"" +
                 descriptors + "\"");
    }
    if (!descriptors.empty()) {
      for (const auto& [key, value] : parsed.set) {
        if (key == "ldesc.descriptors") {
          r.fail(place + ".set.ldesc.descriptors",
                 "the point also says \"descriptors\": \"propose\"; give one or the other");
        }
      }
    }
    spec.point_descriptors.push_back(!descriptors.empty());
    // The hierarchy of every point now, so that a bad key stops the study before it builds.
    std::vector<std::string> overrides;
    for (const auto& [key, value] : parsed.set) {
      overrides.push_back(key + "=" + value);
    }
    try {
      sim::load_hierarchy(parsed.preset, overrides);
    } catch (const sim::ConfigError& e) {
      r.fail(place, e.what());
    }
    inputs.points.push_back(std::move(parsed));
  }
  if (baselines > 1) {
    r.fail("points", "more than one point says \"baseline\": true");
  }
  if (spec.trace_hierarchy.empty()) {
    spec.trace_hierarchy = inputs.points[inputs.baseline].preset;
  }

  const auto programs = document.find("programs");
  if (programs == document.end() || !programs->is_array() || programs->empty()) {
    r.fail("programs", "expected a non-empty list of programs");
  }
  std::set<std::string> program_names;
  for (std::size_t i = 0; i < programs->size(); ++i) {
    const std::string place = "programs[" + std::to_string(i) + "]";
    const json& program = (*programs)[i];
    if (!program.is_object()) {
      r.fail(place, "expected an object, found " + program.dump());
    }
    r.only(program, place,
           {"name", "path", "sources", "include", "defines", "flags", "make", "args", "inputs",
            "run_in", "kernels", "launch", "check", "descriptors", "bounds_check", "note"});
    StudyProgramSpec parsed;
    parsed.path = r.text(program, place, "path");
    parsed.name = r.text(program, place, "name");
    if (parsed.name.empty()) {
      parsed.name = std::filesystem::path(parsed.path).filename().string();
    }
    if (parsed.name.empty() || parsed.name.find('/') != std::string::npos || parsed.name == "." ||
        parsed.name == "..") {
      r.fail(place + ".name",
             "expected a name (a folder name: no '/'), found \"" + parsed.name + "\"");
    }
    if (!program_names.insert(parsed.name).second) {
      r.fail(place + ".name", "\"" + parsed.name + "\" names an earlier program too");
    }
    if (parsed.path.empty()) {
      parsed.path = ".";
    }
    parsed.sources = r.texts(program, place, "sources");
    parsed.include = with_study(r.texts(program, place, "include"), spec.folder);
    parsed.defines = r.texts(program, place, "defines");
    parsed.flags = with_study(r.texts(program, place, "flags"), spec.folder);
    if (const auto make = program.find("make"); make != program.end()) {
      const std::string make_place = place + ".make";
      if (!make->is_object()) {
        r.fail(make_place,
               "expected an object {\"executable\", \"target\", \"compiler\", "
               "\"arguments\"}, found " +
                   make->dump());
      }
      r.only(*make, make_place, {"target", "compiler", "arguments", "executable"});
      parsed.make = true;
      parsed.make_target = r.text(*make, make_place, "target");
      parsed.make_variables = r.texts(*make, make_place, "compiler");
      if (parsed.make_variables.empty()) {
        parsed.make_variables = {"NVCC"};
      }
      parsed.make_arguments = with_study(r.texts(*make, make_place, "arguments"), spec.folder);
      parsed.executable = r.text(*make, make_place, "executable", true);
    }
    if (parsed.make == !parsed.sources.empty()) {
      r.fail(place,
             "expected either \"sources\" (built by memcarlo-cc) or \"make\" (the "
             "folder's Makefile), not " +
                 std::string(parsed.make ? "both" : "neither"));
    }
    parsed.args = r.texts(program, place, "args");
    parsed.inputs = r.text(program, place, "inputs");
    parsed.run_in = r.text(program, place, "run_in");
    if (!parsed.run_in.empty()) {
      const std::filesystem::path run_in = std::filesystem::path(parsed.run_in).lexically_normal();
      const bool escapes =
          std::any_of(run_in.begin(), run_in.end(),
                      [](const std::filesystem::path& part) { return part == ".."; });
      if (run_in.is_absolute() || escapes) {
        r.fail(place + ".run_in",
               "expected a folder under the program's work folder (relative, without \"..\"), "
               "found \"" + parsed.run_in + "\"");
      }
      parsed.run_in = run_in.string();
    }
    parsed.kernels = r.text(program, place, "kernels");
    parsed.launch = r.text(program, place, "launch");
    parsed.note = r.text(program, place, "note");
    if (const auto bounds = program.find("bounds_check"); bounds != program.end()) {
      if (!bounds->is_boolean()) {
        r.fail(place + ".bounds_check", "expected true or false, found " + bounds->dump());
      }
      parsed.bounds_check = bounds->get<bool>();
    }
    parsed.descriptors_text = r.text(program, place, "descriptors");
    if (!parsed.descriptors_text.empty()) {
      std::filesystem::path file = with_study({parsed.descriptors_text}, spec.folder).front();
      if (file.is_relative()) {
        file = std::filesystem::path(spec.folder) / file;
      }
      parsed.descriptors = file.lexically_normal().string();
    }
    if (const auto check = program.find("check"); check != program.end()) {
      const std::string check_place = place + ".check";
      if (!check->is_object()) {
        r.fail(check_place,
               "expected an object {\"output_contains\", \"command\"}, found " + check->dump());
      }
      r.only(*check, check_place, {"output_contains", "command"});
      parsed.output_contains = r.texts(*check, check_place, "output_contains");
      parsed.check_command = r.text(*check, check_place, "command");
    }
    spec.programs.push_back(std::move(parsed));
  }
  return spec;
}

}  // namespace memcarlo::cli
