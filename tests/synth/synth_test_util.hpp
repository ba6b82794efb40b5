// Helpers for synthetic-trace tests: generate into a temporary file, and collect records by
// static id or by warp with their lane addresses decoded.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "memcarlo/synth/synth.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::synth::testing {

inline std::string temp_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / "memcarlo-tests";
  std::filesystem::create_directories(dir);
  return (dir / ("synth-" + name + "-" + std::to_string(::getpid()) + ".mct")).string();
}

inline std::vector<char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// One decoded record: static id, mask and the addresses of the active lanes by lane.
struct Record {
  std::uint32_t block = 0;
  std::uint32_t warp = 0;
  std::uint32_t static_id = 0;
  std::uint32_t mask = 0;
  tracebuf::AccessKind kind = tracebuf::AccessKind::kRead;
  std::uint32_t element_size = 0;
  std::map<unsigned, std::uint64_t> addresses;  // lane -> address, active lanes only

  [[nodiscard]] unsigned lanes() const { return static_cast<unsigned>(std::popcount(mask)); }
  [[nodiscard]] std::size_t distinct_lines(std::uint64_t line_bytes = 128) const {
    std::vector<std::uint64_t> lines;
    for (const auto& [lane, address] : addresses) {
      lines.push_back(address / line_bytes);
    }
    std::sort(lines.begin(), lines.end());
    return static_cast<std::size_t>(std::unique(lines.begin(), lines.end()) - lines.begin());
  }
};

/// All records of the trace's single launch, warps in (block, warp) order, each in program order.
inline std::vector<Record> all_records(const tracebuf::TraceReader& reader) {
  std::vector<Record> records;
  for (const tracebuf::WarpStream& stream : reader.launches().at(0).warps) {
    stream.for_each([&](const tracebuf::RecordView& view) {
      Record record;
      record.block = stream.block;
      record.warp = stream.warp;
      record.static_id = view.static_id();
      record.mask = view.active_mask();
      record.kind = view.kind();
      record.element_size = view.element_size();
      view.for_each_address(
          [&](unsigned lane, std::uint64_t address) { record.addresses[lane] = address; });
      records.push_back(std::move(record));
    });
  }
  return records;
}

inline std::vector<Record> records_of(const std::vector<Record>& records, std::uint32_t id) {
  std::vector<Record> selected;
  for (const Record& record : records) {
    if (record.static_id == id) {
      selected.push_back(record);
    }
  }
  return selected;
}

/// Id of the load whose expression is `expression`; fails the test if there is none.
inline std::uint32_t load_id(const tracebuf::TraceReader& reader, const std::string& expression) {
  for (const tracebuf::LoadInfo& load : reader.loads()) {
    if (load.expression == expression) {
      return load.id;
    }
  }
  ADD_FAILURE() << "no load " << expression;
  return 0;
}

/// meta.properties_json parsed.
inline nlohmann::json properties(const tracebuf::TraceReader& reader) {
  return nlohmann::json::parse(reader.meta().properties_json);
}

inline std::uint64_t allocation_base(const tracebuf::TraceReader& reader, const std::string& name) {
  for (const tracebuf::Allocation& allocation : reader.allocations()) {
    if (allocation.name == name) {
      return allocation.base;
    }
  }
  ADD_FAILURE() << "no allocation " << name;
  return 0;
}

/// Generates `options` into a temporary file named after `name` and opens it.
inline tracebuf::TraceReader generate_and_open(const SynthOptions& options, const std::string& name,
                                               SynthSummary* summary = nullptr) {
  const std::string path = temp_path(name);
  const SynthSummary written = generate(options, path);
  if (summary != nullptr) {
    *summary = written;
  }
  return tracebuf::TraceReader::open(path);
}

}  // namespace memcarlo::synth::testing
