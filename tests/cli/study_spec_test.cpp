// Reading a study file (cli/study_spec.cpp) without building anything: {study}, the study file's
// folder, in a program's include folders, flags and make arguments (issue 28), so that a study
// can name a shim header kept beside it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "study_spec.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path write_study(const json& study) {
  const fs::path dir =
      fs::temp_directory_path() / ("memcarlo-study-spec-" + std::to_string(::getpid()));
  fs::create_directories(dir / "studies");
  const fs::path path = dir / "studies" / "shim.json";
  std::ofstream(path) << study.dump(2);
  return path;
}

json study_with(const json& programs) {
  return {{"name", "shim"},
          {"points", {{{"name", "base"}, {"preset", "fermi-c2050"}, {"baseline", true}}}},
          {"programs", programs}};
}

// The studies we ship (studies/*.json) read, and every point's preset with its --set overrides
// is a hierarchy the simulator accepts: a misspelt key fails here, not after a study's builds.
TEST(StudySpec, EveryBundledStudyReadsAndEachOfItsPointsIsAHierarchy) {
  std::size_t studies = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(MEMCARLO_SOURCE_DIR) / "studies")) {
    if (entry.path().extension() != ".json") {
      continue;
    }
    ++studies;
    const memcarlo::cli::StudySpec spec = memcarlo::cli::read_study(entry.path().string());
    EXPECT_FALSE(spec.programs.empty()) << entry.path();
    for (std::size_t p = 0; p < spec.inputs.points.size(); ++p) {
      const auto& point = spec.inputs.points[p];
      std::vector<std::string> overrides;
      for (const auto& [key, value] : point.set) {
        overrides.push_back(key + "=" + value);
      }
      if (spec.point_descriptors[p]) {
        continue;  // its descriptors file is the proposer's, made during the study
      }
      EXPECT_NO_THROW(memcarlo::sim::load_hierarchy(point.preset, overrides))
          << entry.path() << " point " << point.name;
    }
  }
  EXPECT_GE(studies, 7u);
}

TEST(StudySpec, StudyFolderIsExpandedInIncludeFlagsAndMakeArguments) {
  const fs::path file = write_study(study_with(
      {{{"name", "cc"},
        {"sources", {"main.cu"}},
        {"include", {"{study}/inputs/shim", "common"}},
        {"flags", {"-include", "{study}/inputs/cutil.h", "-O1"}},
        {"args", {"{study}/x"}}},
       {{"name", "make"},
        {"make", {{"executable", "app"}, {"arguments", {"EXTRA=-I{study}/a:{study}/b"}}}}}}));
  const std::string folder = fs::absolute(file).parent_path().string();
  const memcarlo::cli::StudySpec spec = memcarlo::cli::read_study(file.string());
  EXPECT_EQ(spec.folder, folder);
  ASSERT_EQ(spec.programs.size(), 2u);
  EXPECT_EQ(spec.programs[0].include,
            (std::vector<std::string>{folder + "/inputs/shim", "common"}));
  EXPECT_EQ(spec.programs[0].flags,
            (std::vector<std::string>{"-include", folder + "/inputs/cutil.h", "-O1"}));
  // args keep {study}: the study command expands it with {suite}, {dir} and {work} at run time.
  EXPECT_EQ(spec.programs[0].args, (std::vector<std::string>{"{study}/x"}));
  EXPECT_EQ(spec.programs[1].make_arguments,
            (std::vector<std::string>{"EXTRA=-I" + folder + "/a:" + folder + "/b"}));
  fs::remove_all(fs::path(folder).parent_path());
}

TEST(StudySpec, DescriptorsAskedByPointsAndAProgramsOwnFileFromTheStudysFolder) {
  json study =
      study_with({{{"name", "own"}, {"sources", {"a.cu"}}, {"descriptors", "d/a.json"}},
                  {{"name", "study"}, {"sources", {"b.cu"}}, {"descriptors", "{study}/../b.json"}},
                  {{"name", "proposed"}, {"sources", {"c.cu"}}}});
  study["points"].push_back(
      {{"name", "ldesc"}, {"preset", "fermi-c2050"}, {"descriptors", "propose"}});
  const fs::path file = write_study(study);
  const std::string folder = fs::absolute(file).parent_path().string();
  const memcarlo::cli::StudySpec spec = memcarlo::cli::read_study(file.string());
  EXPECT_EQ(spec.point_descriptors, (std::vector<bool>{false, true}));
  EXPECT_TRUE(spec.wants_descriptors());
  EXPECT_EQ(spec.programs[0].descriptors, folder + "/d/a.json");
  EXPECT_EQ(spec.programs[1].descriptors, fs::path(folder).parent_path().string() + "/b.json");
  EXPECT_EQ(spec.programs[1].descriptors_text, "{study}/../b.json");
  EXPECT_TRUE(spec.programs[2].descriptors.empty());
  // A point cannot both ask for the proposed descriptors and set the file itself.
  study["points"][1]["set"] = {{"ldesc.descriptors", "x.json"}};
  try {
    (void)memcarlo::cli::read_study(write_study(study).string());
    ADD_FAILURE() << "read a point with descriptors and ldesc.descriptors";
  } catch (const memcarlo::cli::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("points[1].set.ldesc.descriptors"), std::string::npos)
        << e.what();
  }
  fs::remove_all(fs::path(folder).parent_path());
}

}  // namespace
