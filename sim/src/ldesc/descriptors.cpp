// The descriptors each launch runs with (descriptors.hpp).
#include "descriptors.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::sim::ldesc {

using tracebuf::DescriptorError;
using tracebuf::Dim3;
using tracebuf::LocalityDescriptor;
using tracebuf::ScopedDescriptor;

namespace {

std::string dim3_text(const Dim3& d) {
  return "[" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + "]";
}

/// The trace's kernels, in the order of their first launch.
std::vector<std::string> kernels_of(const tracebuf::TraceReader& reader) {
  std::vector<std::string> kernels;
  for (const tracebuf::LaunchStreams& launch : reader.launches()) {
    if (std::find(kernels.begin(), kernels.end(), launch.info.kernel) == kernels.end()) {
      kernels.push_back(launch.info.kernel);
    }
  }
  return kernels;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) {
    text += (text.empty() ? "" : ", ") + name;
  }
  return text.empty() ? "none" : text;
}

/// Whether `scoped` is for launch `info` (its scope checked by check_scopes).
bool applies(const ScopedDescriptor& scoped, const tracebuf::LaunchInfo& info) {
  const tracebuf::DescriptorScope& scope = scoped.scope;
  return (scope.kernel.empty() || scope.kernel == info.kernel) &&
         (!scope.grid || *scope.grid == info.grid) && (!scope.block || *scope.block == info.block);
}

}  // namespace

std::optional<std::vector<ScopedDescriptor>> file_descriptors(const HierarchyConfig& config) {
  const auto path =
      nlohmann::json::parse(config.params.text(kDescriptorsFile)).get<std::string>();
  if (path.empty()) {
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw DescriptorError(path, "cannot be read (ldesc.descriptors / --descriptors)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return tracebuf::parse_descriptor_file(text.str());
  } catch (const DescriptorError& error) {
    throw DescriptorError(path + ": " + error.field(),
                          std::string(error.what()).substr(error.field().size() + 2));
  }
}

void check_scopes(const tracebuf::TraceReader& reader,
                  const std::vector<ScopedDescriptor>& from_file, const std::string& file_name) {
  const std::vector<std::string> kernels = kernels_of(reader);
  for (std::size_t i = 0; i < from_file.size(); ++i) {
    const tracebuf::DescriptorScope& scope = from_file[i].scope;
    const std::string where = file_name + ": descriptors[" + std::to_string(i) + "]";
    if (scope.kernel.empty()) {
      if (kernels.size() > 1) {
        throw DescriptorError(
            where + ".kernel",
            "missing, and the trace has " + std::to_string(kernels.size()) + " kernels (" +
                joined(kernels) +
                "): say which kernel the descriptor is for (\"kernel\": NAME; `memcarlo "
                "descriptors TRACE` writes it)");
      }
      continue;
    }
    if (std::find(kernels.begin(), kernels.end(), scope.kernel) == kernels.end()) {
      throw DescriptorError(
          where + ".kernel",
          "'" + scope.kernel + "' is not a kernel of the trace (kernels: " + joined(kernels) + ")");
    }
    bool grid_found = !scope.grid;
    bool block_found = !scope.block;
    std::vector<std::string> grids;
    std::vector<std::string> blocks;
    for (const tracebuf::LaunchStreams& launch : reader.launches()) {
      const tracebuf::LaunchInfo& info = launch.info;
      if (info.kernel != scope.kernel) {
        continue;
      }
      grids.push_back(dim3_text(info.grid));
      blocks.push_back(dim3_text(info.block));
      grid_found = grid_found || *scope.grid == info.grid;
      block_found =
          block_found || (*scope.block == info.block && (!scope.grid || *scope.grid == info.grid));
    }
    std::sort(grids.begin(), grids.end());
    grids.erase(std::unique(grids.begin(), grids.end()), grids.end());
    std::sort(blocks.begin(), blocks.end());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
    if (!grid_found) {
      throw DescriptorError(where + ".grid",
                            "kernel " + scope.kernel + " has no launch with grid " +
                                dim3_text(*scope.grid) +
                                " in the trace (its grids: " + joined(grids) + ")");
    }
    if (!block_found) {
      throw DescriptorError(where + ".block",
                            "kernel " + scope.kernel + " has no launch with block " +
                                dim3_text(*scope.block) +
                                (scope.grid ? " and grid " + dim3_text(*scope.grid) : "") +
                                " in the trace (its blocks: " + joined(blocks) + ")");
    }
  }
}

std::vector<LocalityDescriptor> launch_descriptors(
    const tracebuf::TraceReader& reader, std::uint32_t launch,
    const std::optional<std::vector<ScopedDescriptor>>& from_file, const std::string& file_name) {
  const tracebuf::LaunchInfo& info = reader.launches().at(launch).info;
  const std::string at_launch =
      " (launch " + std::to_string(launch) + ", " + info.kernel + ")";
  if (from_file) {
    std::vector<LocalityDescriptor> descriptors;
    for (std::size_t i = 0; i < from_file->size(); ++i) {
      const ScopedDescriptor& scoped = (*from_file)[i];
      if (!applies(scoped, info)) {
        continue;
      }
      try {
        tracebuf::check_descriptors({scoped.descriptor}, info.grid, reader.allocations());
      } catch (const DescriptorError& error) {
        // check_descriptors names its one descriptor descriptors[0]: name the file's entry.
        const std::string field = "descriptors[" + std::to_string(i) + "]" +
                                  error.field().substr(std::string_view("descriptors[0]").size());
        throw DescriptorError(
            file_name + ": " + field,
            std::string(error.what()).substr(error.field().size() + 2) + at_launch);
      }
      descriptors.push_back(scoped.descriptor);
    }
    return tracebuf::by_priority(std::move(descriptors));
  }
  try {
    std::vector<LocalityDescriptor> descriptors =
        tracebuf::recorded_descriptors(reader.annotations_json(), launch);
    tracebuf::check_descriptors(descriptors, info.grid, reader.allocations());
    return tracebuf::by_priority(std::move(descriptors));
  } catch (const DescriptorError& error) {
    throw DescriptorError(reader.path() + ": " + error.field(),
                          std::string(error.what()).substr(error.field().size() + 2) + at_launch);
  } catch (const tracebuf::MetadataError& error) {  // a malformed "launch" / "since_launch"
    throw DescriptorError(reader.path(), error.what() + at_launch);
  }
}

}  // namespace memcarlo::sim::ldesc
