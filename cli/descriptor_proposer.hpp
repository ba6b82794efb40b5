// Locality Descriptors proposed from a trace's affine index forms: the work of `memcarlo
// descriptors` (descriptors_command.cpp), and how each proposal is made (descriptor_proposer.cpp,
// docs/locality-descriptors.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "memcarlo/sim/config.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::cli {

/// The descriptors proposed for launch `launch` (its kernel and shape), in priority order; what
/// cannot be proposed goes to `notes`, each prefixed with `prefix`. `hierarchy` ranks them: the
/// data whose accesses leave its L1 most often (one trial of the launch, seed 1) first.
std::vector<tracebuf::LocalityDescriptor> propose_for_launch(
    const tracebuf::TraceReader& reader, std::uint32_t launch,
    const std::map<std::string, std::int64_t>& given, const sim::HierarchyConfig& hierarchy,
    const std::string& prefix, std::vector<std::string>& notes);

}  // namespace memcarlo::cli
