// The Locality Descriptors each launch runs with: those of the JSON file hierarchy key
// ldesc.descriptors names (`memcarlo simulate --descriptors FILE`) that are for the launch's
// kernel (and launch shape), or else those the trace records (locality_descriptor annotations,
// re-specifiable between launches). Resolved once per
// compiled trace into LaunchTrace::descriptors, in priority order and checked against the launch,
// so that every ldesc policy (CTA scheduler, placement, prefetcher, L1 attributes) reads the same
// list. A launch without descriptors gets an empty list: the ldesc policies then act as their
// baselines.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/key_spec.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::sim::ldesc {

inline constexpr KeySpec kDescriptorsFile{
    "ldesc.descriptors", "string", "\"\"",
    "Locality Descriptors (a JSON file, docs/locality-descriptors.md), each for the launches of "
    "the kernel it names, instead of those the trace records; empty: the trace's"};

/// The descriptors of the file ldesc.descriptors names, or nullopt when the key is empty.
/// DescriptorError whose field starts with the file's path for a file that cannot be read or
/// parsed.
std::optional<std::vector<tracebuf::ScopedDescriptor>> file_descriptors(
    const HierarchyConfig& config);

/// Checks that every scope of `from_file` names what the trace has: a kernel of its launches (an
/// entry without one only when the trace has a single kernel), and a grid and block that one of
/// that kernel's launches has. DescriptorError naming the file, the entry and what the trace has
/// ("FILE: descriptors[2].kernel: 'mm3' is not a kernel of the trace (kernels: mm2_kernel1,
/// mm2_kernel2)").
void check_scopes(const tracebuf::TraceReader& reader,
                  const std::vector<tracebuf::ScopedDescriptor>& from_file,
                  const std::string& file_name);

/// Launch `launch`'s descriptors: those of `from_file` whose scope is the launch's kernel (and
/// grid and block, where given) when a file is given (the caller runs check_scopes once), else the
/// trace's; in priority order (tracebuf::by_priority) and checked against the launch's grid and the
/// trace's allocations. DescriptorError naming the source ("FILE: descriptors[1].compute_tile.y",
/// the index of the file's entry, or "TRACE: annotations[3].payload.size") and the launch.
std::vector<tracebuf::LocalityDescriptor> launch_descriptors(
    const tracebuf::TraceReader& reader, std::uint32_t launch,
    const std::optional<std::vector<tracebuf::ScopedDescriptor>>& from_file,
    const std::string& file_name);

}  // namespace memcarlo::sim::ldesc
