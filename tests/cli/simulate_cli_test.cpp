// End-to-end tests of the `memcarlo` binary: reproducible reports whatever the thread count,
// the report's required keys, and exit code 2 with a precise message for malformed inputs.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include <cstring>

#include "common/run_command.hpp"
#include "memcarlo/tracebuf/crc32c.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";

using memcarlo::test_support::CommandResult;

/// `memcarlo ARGUMENTS`, standard error with standard output.
CommandResult run(const std::string& arguments) {
  return memcarlo::test_support::run_command(kMemcarlo + " " + arguments + " 2>&1");
}

fs::path temp_dir() {
  const fs::path dir = fs::temp_directory_path() / ("memcarlo-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

/// 32 blocks x 4 warps: a gather over 256 KiB then a coalesced store, a loop of 8 iterations.
std::string write_gather_trace(const std::string& name) {
  const std::string path = (temp_dir() / name).string();
  memcarlo::tracebuf::TraceMeta meta;
  meta.backend = "synthetic";
  memcarlo::tracebuf::TraceWriter writer(path, meta);
  std::vector<memcarlo::tracebuf::LoadInfo> loads(3);
  const char* expressions[] = {"idx[i]", "data[idx[i]]", "out[i]"};
  for (std::uint32_t id = 0; id < 3; ++id) {
    loads[id].id = id;
    loads[id].expression = expressions[id];
    loads[id].file = "gather.cu";
    loads[id].line = 10 + id;
    loads[id].element_size = 4;
    loads[id].sequence = id == 2 ? 1 : 0;
    loads[id].kind = id == 2 ? memcarlo::tracebuf::AccessKind::kWrite
                             : memcarlo::tracebuf::AccessKind::kRead;
  }
  loads[1].depends_on = {0};
  writer.write_loads(loads);
  writer.write_allocations(std::vector<memcarlo::tracebuf::Allocation>{
      {0, 0x100000, 1 << 20, "idx"}, {1, 0x400000, 256 << 10, "data"},
      {2, 0x800000, 1 << 20, "out"}});
  memcarlo::tracebuf::LaunchInfo launch;
  launch.kernel = "gather";
  launch.grid = {32, 1, 1};
  launch.block = {128, 1, 1};
  launch.snapshot_block_count = 32;
  const auto index = writer.begin_launch(launch);
  std::mt19937 random(5);
  for (std::uint32_t block = 0; block < 32; ++block) {
    for (std::uint32_t warp = 0; warp < 4; ++warp) {
      std::vector<memcarlo::tracebuf::WarpRecord> records;
      for (std::uint32_t k = 0; k < 8; ++k) {
        const std::uint64_t element = ((k * 32 + block) * 4 + warp) * 32;
        memcarlo::tracebuf::WarpRecord idx;
        idx.static_id = 0;
        idx.active_mask = 0xFFFFFFFF;
        memcarlo::tracebuf::WarpRecord data = idx;
        data.static_id = 1;
        for (unsigned lane = 0; lane < 32; ++lane) {
          idx.addresses[lane] = 0x100000 + 4 * (element + lane);
          data.addresses[lane] = 0x400000 + 4 * (random() % (64 * 1024));
        }
        records.push_back(idx);
        records.push_back(data);
      }
      memcarlo::tracebuf::WarpRecord out;
      out.static_id = 2;
      out.kind = memcarlo::tracebuf::AccessKind::kWrite;
      out.active_mask = 0xFFFFFFFF;
      for (unsigned lane = 0; lane < 32; ++lane) {
        out.addresses[lane] = 0x800000 + 4 * ((block * 4 + warp) * 32 + lane);
      }
      records.push_back(out);
      writer.write_warp_records(index, block, warp, records);
    }
  }
  writer.finish();
  return path;
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

TEST(Simulate, ReportIsIdenticalForOneAndTwoThreadsApartFromPerformance) {
  const std::string trace = write_gather_trace("determinism.mct");
  const fs::path one = temp_dir() / "one.json";
  const fs::path two = temp_dir() / "two.json";
  ASSERT_EQ(run("simulate " + trace + " -n 12 -s 9 -j 1 -q -o " + one.string()).exit_code, 0);
  ASSERT_EQ(run("simulate " + trace + " -n 12 -s 9 -j 2 -q -o " + two.string()).exit_code, 0);
  json a = read_json(one);
  json b = read_json(two);
  EXPECT_EQ(a["performance"]["threads"], 1);
  EXPECT_EQ(b["performance"]["threads"], 2);
  a.erase("performance");
  b.erase("performance");
  EXPECT_EQ(a.dump(), b.dump());
  // A different seed changes the randomized orderings, hence the numbers.
  const fs::path other = temp_dir() / "other.json";
  ASSERT_EQ(run("simulate " + trace + " -n 12 -s 10 -j 2 -q -o " + other.string()).exit_code, 0);
  json c = read_json(other);
  c.erase("performance");
  EXPECT_NE(a["overall"].dump(), c["overall"].dump());
}

TEST(Simulate, ReportHasTheDocumentedKeys) {
  const std::string trace = write_gather_trace("schema.mct");
  const fs::path path = temp_dir() / "schema.json";
  ASSERT_EQ(run("simulate " + trace + " -n 4 -q -o " + path.string()).exit_code, 0);
  const json r = read_json(path);
  EXPECT_EQ(r["schema_version"], 1);
  EXPECT_EQ(r["inputs"]["trace_sha256"].get<std::string>().size(), 64u);
  EXPECT_EQ(r["inputs"]["hierarchy"]["name"], "fermi-c2050");
  EXPECT_EQ(r["inputs"]["seed"], 1);
  EXPECT_EQ(r["inputs"]["trials"], 4);
  for (const char* key : {"l1_read_hit_ratio", "l2_read_hit_ratio", "l2_write_hit_ratio",
                          "dram_latency_cycles"}) {
    ASSERT_TRUE(r["overall"].contains(key)) << key;
  }
  ASSERT_EQ(r["loads"].size(), 3u);
  const json& gather = r["loads"][1];
  EXPECT_EQ(gather["expression"], "data[idx[i]]");
  EXPECT_EQ(gather["kind"], "read");
  EXPECT_EQ(gather["line"], 11);
  EXPECT_EQ(gather["requests"], 32 * 4 * 8);
  EXPECT_GT(gather["transactions_per_request"].get<double>(), 20.0);  // random over 2048 lines
  for (const char* key : {"l1_hit_ratio", "l2_hit_ratio", "latency_cycles"}) {
    const json& d = gather[key];
    ASSERT_TRUE(d.is_object()) << key;
    for (const char* field : {"mean", "stddev", "ci95", "spread_2sigma", "histogram"}) {
      EXPECT_TRUE(d.contains(field)) << key << "." << field;
    }
    EXPECT_EQ(d["ci95"].size(), 2u);
    EXPECT_EQ(d["histogram"]["edges"].size(), d["histogram"]["counts"].size() + 1);
  }
  EXPECT_TRUE(r["loads"][2]["latency_cycles"].is_null());  // a store makes no warp wait
  EXPECT_EQ(r["allocations"].size(), 3u);
  // One kernel: its per-kernel figures are the overall ones.
  ASSERT_EQ(r["kernels"].size(), 1u);
  EXPECT_EQ(r["kernels"][0]["kernel"], "gather");
  EXPECT_EQ(r["kernels"][0]["launches"], json::array({0}));
  EXPECT_EQ(r["kernels"][0]["overall"]["l1_read_hit_ratio"]["mean"],
            r["overall"]["l1_read_hit_ratio"]["mean"]);
  EXPECT_EQ(r["kernels"][0]["overall"]["l2_write_hit_ratio"]["mean"],
            r["overall"]["l2_write_hit_ratio"]["mean"]);
  EXPECT_EQ(r["convergence"]["stddev"]["l1_read_hit_ratio"].size(), 4u);
  for (const char* key : {"transactions_per_trial", "wall_seconds", "threads"}) {
    EXPECT_TRUE(r["performance"].contains(key)) << key;
  }
}

TEST(Simulate, SectorLookupRatioCountsStoreSectorsBesideLoadSectorsWherever) {
  // Loads idx[i], data[idx[i]] and the store out[i], whose lines no load brought into the L1:
  // the store's sectors are lookups that miss.
  const std::string trace = write_gather_trace("lookup.mct");
  const fs::path path = temp_dir() / "lookup.json";
  ASSERT_EQ(run("simulate " + trace + " -n 4 -q -o " + path.string()).exit_code, 0);
  const json r = read_json(path);
  const auto mean = [](const json& d) { return d.at("mean").get<double>(); };
  for (std::size_t id = 0; id < 2; ++id) {  // a load's lookups are its load sectors
    EXPECT_EQ(r["loads"][id]["l1_sector_lookup_hit_ratio"], r["loads"][id]["l1_sector_hit_ratio"]);
  }
  const json& store = r["loads"][2];
  EXPECT_TRUE(store["l1_sector_hit_ratio"].is_null());
  EXPECT_EQ(mean(store["l1_sector_lookup_hit_ratio"]), 0.0);
  EXPECT_EQ(store["l1_sector_lookup_hit_ratio"]["trials"], 4);

  const json& overall = r["overall"];
  EXPECT_GT(mean(overall["l1_sector_read_hit_ratio"]), 0.0);
  EXPECT_LT(mean(overall["l1_sector_lookup_hit_ratio"]), mean(overall["l1_sector_read_hit_ratio"]));
  EXPECT_EQ(r["kernels"][0]["overall"]["l1_sector_lookup_hit_ratio"],
            overall["l1_sector_lookup_hit_ratio"]);
  for (const json& allocation : r["allocations"]) {
    const json& lookup = allocation["l1_sector_lookup_hit_ratio"];
    if (allocation["name"] == "out") {
      EXPECT_TRUE(allocation["l1_sector_read_hit_ratio"].is_null());
      EXPECT_EQ(mean(lookup), 0.0);
    } else {
      EXPECT_EQ(lookup, allocation["l1_sector_read_hit_ratio"]) << allocation["name"];
    }
  }
}

TEST(Simulate, UntilCiStopsOnceEveryIntervalIsNarrowEnough) {
  const std::string trace = write_gather_trace("until.mct");
  const fs::path path = temp_dir() / "until.json";
  const CommandResult result =
      run("simulate " + trace + " -n 4 --until-ci 0.05 --max-trials 200 -q -o " + path.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const json r = read_json(path);
  EXPECT_TRUE(r["inputs"]["stop_rule"]["converged"].get<bool>());
  const auto trials = r["inputs"]["trials"].get<int>();
  EXPECT_GE(trials, 4);
  EXPECT_LT(trials, 200);
  for (const json& load : r["loads"]) {
    for (const char* metric : {"l1_hit_ratio", "l2_hit_ratio"}) {
      if (load[metric].is_null()) {
        continue;  // the store has no L1 hit ratio
      }
      const json& ci = load[metric]["ci95"];
      EXPECT_LE((ci[1].get<double>() - ci[0].get<double>()) / 2, 0.05) << metric;
    }
  }
}

void corrupt(const std::string& path, std::size_t offset_from_end, char mask) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg(0, std::ios::end);
  const auto size = static_cast<std::size_t>(file.tellg());
  file.seekg(static_cast<std::streamoff>(size - offset_from_end));
  char byte = 0;
  file.read(&byte, 1);
  byte = static_cast<char>(byte ^ mask);
  file.seekp(static_cast<std::streamoff>(size - offset_from_end));
  file.write(&byte, 1);
}

TEST(MalformedInput, TruncatedTraceIsExitCodeTwoWithTheByteOffset) {
  const std::string trace = write_gather_trace("cut.mct");
  fs::resize_file(trace, fs::file_size(trace) - 100);
  CommandResult r = run("simulate " + trace + " -n 2 -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("cut.mct: byte "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("truncated"), std::string::npos) << r.output;
  r = run("trace check " + trace);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("truncated"), std::string::npos) << r.output;
  EXPECT_EQ(run("trace check --allow-truncated " + trace).exit_code, 0);
}

TEST(MalformedInput, CorruptedRecordIsAChecksumError) {
  const std::string trace = write_gather_trace("flip.mct");
  corrupt(trace, 5000, 0x40);
  const CommandResult r = run("simulate " + trace + " -n 2 -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("checksum"), std::string::npos) << r.output;
  EXPECT_EQ(run("trace check " + trace).exit_code, 2);
}

TEST(MalformedInput, OtherFormatVersionIsRefused) {
  const std::string trace = write_gather_trace("version.mct");
  {
    // Bump the version and recompute the header checksum, as a future writer would.
    std::fstream file(trace, std::ios::in | std::ios::out | std::ios::binary);
    std::array<char, 32> header{};
    file.read(header.data(), header.size());
    header[8] = 3;
    const std::uint32_t crc = memcarlo::tracebuf::crc32c(header.data(), 28);
    std::memcpy(header.data() + 28, &crc, 4);
    file.seekp(0);
    file.write(header.data(), header.size());
  }
  const CommandResult r = run("simulate " + trace + " -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("trace format version 3; this memcarlo reads versions 1 to 2"),
            std::string::npos)
      << r.output;
}

TEST(MalformedInput, RecordWithAnIdOutsideTheLoadsTableIsRefused) {
  const std::string path = (temp_dir() / "badid.mct").string();
  {
    memcarlo::tracebuf::TraceWriter writer(path, memcarlo::tracebuf::TraceMeta{});
    memcarlo::tracebuf::LoadInfo load;
    load.expression = "a[i]";
    writer.write_loads(std::vector<memcarlo::tracebuf::LoadInfo>{load});
    memcarlo::tracebuf::LaunchInfo launch;
    launch.block = {32, 1, 1};
    launch.snapshot_block_count = 1;
    writer.begin_launch(launch);
    memcarlo::tracebuf::WarpRecord record;
    record.static_id = 3;
    record.active_mask = 1;
    writer.write_warp_records(0, 0, 0, std::vector<memcarlo::tracebuf::WarpRecord>{record});
    writer.finish();
  }
  CommandResult r = run("simulate " + path + " -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("static id 3 is not in the loads table"), std::string::npos)
      << r.output;
  r = run("trace check " + path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("badid.mct: byte "), std::string::npos) << r.output;
}

TEST(MalformedInput, MissingFileAndNonTraceFile) {
  EXPECT_EQ(run("simulate /nonexistent/trace.mct -q").exit_code, 2);
  const fs::path text = temp_dir() / "not-a-trace.mct";
  std::ofstream(text) << "hello, this is not a trace file at all, just some text\n";
  const CommandResult r = run("simulate " + text.string() + " -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("bad magic"), std::string::npos) << r.output;
}

TEST(MalformedInput, BadOptionValuesAreExitCodeTwoAndUsageErrorsOne) {
  const std::string trace = write_gather_trace("options.mct");
  const std::string tail = " -q -o /dev/null";
  CommandResult r = run("simulate " + trace + " --trials 0" + tail);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--trials: Value 0 not in range 1 to 1000000"), std::string::npos)
      << r.output;
  for (const char* value : {"nan", "-1", "0", "inf", "0.05x"}) {
    r = run("simulate " + trace + " --until-ci " + value + tail);
    EXPECT_EQ(r.exit_code, 2) << value;
    EXPECT_NE(r.output.find(std::string("--until-ci: expected a positive number such as 0.01; "
                                        "got ") + value),
              std::string::npos)
        << r.output;
  }
  r = run("simulate " + trace + " --seed abc" + tail);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--seed"), std::string::npos) << r.output;

  r = run("simulate " + trace + " --max-trials 64" + tail);  // meaningless without --until-ci
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("--max-trials requires --until-ci"), std::string::npos) << r.output;
  r = run("simulate " + trace + " --no-such-option" + tail);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(run("simulate --help").exit_code, 0);
  EXPECT_EQ(run("simulate " + trace + " --until-ci 0.5 --max-trials 16" + tail).exit_code, 0);
}

TEST(MalformedInput, HierarchyErrorsNameTheKeyAndTheAllowedValues) {
  const std::string trace = write_gather_trace("hierarchy.mct");
  const fs::path file = temp_dir() / "h.json";
  std::ofstream(file) << R"({"base": "fermi-c2050", "l1": {"replacement": "mru"}})";
  CommandResult r = run("simulate " + trace + " -H " + file.string() + " -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("h.json: l1.replacement: expected one of lru, fifo, random"),
            std::string::npos)
      << r.output;

  std::ofstream(file) << R"({"base": "fermi-c2050", "l1": {"sise": "32KiB"}})";
  r = run("simulate " + trace + " -H " + file.string() + " -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("l1.sise: unknown key; did you mean l1.size?"), std::string::npos)
      << r.output;

  std::ofstream(file) << R"({"base": "fermi-c2050", "l1": {"size": )";
  r = run("simulate " + trace + " -H " + file.string() + " -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("not valid JSON"), std::string::npos) << r.output;

  std::ofstream(file) << R"({"l1": {"size": "32KiB"}})";
  r = run("simulate " + trace + " -H " + file.string() + " -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("missing keys"), std::string::npos) << r.output;

  r = run("simulate " + trace + " --set l1.size=10KiB -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("l1.size"), std::string::npos) << r.output;

  r = run("simulate " + trace + " -H volta -q -o /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("fermi-c2050, gtx480, v100, a100, h100"), std::string::npos) << r.output;
}

TEST(Simulate, EveryPresetRunsAndSetOverridesApply) {
  const std::string trace = write_gather_trace("presets.mct");
  for (const char* preset : {"fermi-c2050", "gtx480", "v100", "h100"}) {
    const fs::path path = temp_dir() / (std::string(preset) + ".json");
    const CommandResult r = run("simulate " + trace + " -H " + preset + " -n 2 -q -o " + path.string());
    ASSERT_EQ(r.exit_code, 0) << preset << ": " << r.output;
    EXPECT_EQ(read_json(path)["inputs"]["hierarchy"]["name"], preset);
  }
  const fs::path path = temp_dir() / "override.json";
  ASSERT_EQ(run("simulate " + trace + " --set l1.size=48KiB --set l1.replacement=fifo -n 2 -q -o " +
                path.string())
                .exit_code,
            0);
  const json parameters = read_json(path)["inputs"]["hierarchy"]["parameters"];
  EXPECT_EQ(parameters["l1.size"], 48 * 1024);
  EXPECT_EQ(parameters["l1.replacement"], "fifo");
}

}  // namespace
