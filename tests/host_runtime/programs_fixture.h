// What the whole-program tests share (programs_test.cpp, library_programs_test.cpp): building
// tests/host_runtime/<folder>/<name>.cu with memcarlo-cc for the host backend, running it under
// `memcarlo run`, and reading what its trace recorded per access.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/run_command.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace fs = std::filesystem;
using memcarlo::test_support::CommandResult;

inline const std::string kBinaryDir = MEMCARLO_BINARY_DIR;
inline const std::string kMemcarlo = kBinaryDir + "/cli/memcarlo";
inline const std::string kCc = kBinaryDir + "/cli/memcarlo-cc";
inline const std::string kTests = std::string(MEMCARLO_SOURCE_DIR) + "/tests/host_runtime";

inline CommandResult run(const std::string& command) {
  return memcarlo::test_support::run_command(command + " 2>&1");
}

inline fs::path work_dir() {
  const fs::path dir =
      fs::temp_directory_path() / ("memcarlo-host-programs-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

/// Builds tests/host_runtime/<folder>/<name>.cu with memcarlo-cc; the instrumenter must accept it
/// (memcarlo-cc warns when it compiles a file as written).
inline std::string build(const std::string& folder, const std::string& name,
                         const std::string& extra_flags = "") {
  const std::string exe = (work_dir() / name).string();
  const CommandResult built =
      run(kCc + " --backend host -std=c++17 " + extra_flags + " -I" + kTests + "/samples_common " +
          kTests + "/" + folder + "/" + name + ".cu -o " + exe);
  EXPECT_EQ(built.exit_code, 0) << built.output;
  EXPECT_EQ(built.output.find("warning"), std::string::npos) << built.output;
  return exe;
}

inline CommandResult memcarlo_run(const std::string& exe, const std::string& options = "") {
  return run(kMemcarlo + " run " + options + " --trace " + exe + ".mct -- " + exe);
}

inline bool contains(const CommandResult& result, const std::string& text) {
  return result.output.find(text) != std::string::npos;
}

/// The element sizes of the traced records of each access, by its expression in the loads table.
inline std::map<std::string, std::set<std::uint32_t>> traced_sizes(const std::string& trace) {
  const auto reader = memcarlo::tracebuf::TraceReader::open(trace);
  std::map<std::uint32_t, std::string> expressions;
  for (const memcarlo::tracebuf::LoadInfo& load : reader.loads()) {
    expressions[load.id] = load.expression;
  }
  std::map<std::string, std::set<std::uint32_t>> sizes;
  for (const memcarlo::tracebuf::LaunchStreams& launch : reader.launches()) {
    for (const memcarlo::tracebuf::WarpStream& stream : launch.warps) {
      stream.for_each([&](const memcarlo::tracebuf::RecordView& record) {
        sizes[expressions[record.static_id()]].insert(record.element_size());
      });
    }
  }
  return sizes;
}

/// The lane addresses of every traced record of each access, by its expression in the loads
/// table, one vector per warp record.
inline std::map<std::string, std::vector<std::vector<std::uint64_t>>> traced_addresses(
    const std::string& trace) {
  const auto reader = memcarlo::tracebuf::TraceReader::open(trace);
  std::map<std::uint32_t, std::string> expressions;
  for (const memcarlo::tracebuf::LoadInfo& load : reader.loads()) {
    expressions[load.id] = load.expression;
  }
  std::map<std::string, std::vector<std::vector<std::uint64_t>>> out;
  for (const memcarlo::tracebuf::LaunchStreams& launch : reader.launches()) {
    for (const memcarlo::tracebuf::WarpStream& stream : launch.warps) {
      stream.for_each([&](const memcarlo::tracebuf::RecordView& record) {
        std::vector<std::uint64_t> lanes;
        for (unsigned k = 0; k < record.active_lanes(); ++k) {
          lanes.push_back(record.active_address(k));
        }
        out[expressions[record.static_id()]].push_back(std::move(lanes));
      });
    }
  }
  return out;
}

/// Whether memcarlo-cc found a CUDA toolkit with Thrust: the instrumenter parses `<cub/...>` and
/// `<thrust/...>` with the toolkit's headers, and Thrust is the toolkit's.
inline bool toolkit_with_thrust() {
  static const bool found =
      contains(run(kCc + " --backend host --print-compile-flags"), "THRUST_DEVICE_SYSTEM");
  return found;
}
