// Annotation records (trace format, chunk type 4): which launches a record applies to. Records are
// kept in the order the program made them (a trace may hold several Annotations chunks; the reader
// concatenates them). A record applies to
//   - launch L only, with "launch": L;
//   - launches L, L + 1, ... with "since_launch": L (the runtimes tag each call with the number of
//     launches traced before it, so a call between two launches applies from the next one on);
//   - every launch, with neither.
// Later records of the same kind and subject replace earlier ones (taf_register, a re-specified
// locality_descriptor): readers walk the records in order and keep what applies to their launch.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace memcarlo::tracebuf {

/// Whether annotation `record` applies to launch `launch`; MetadataError naming `where` for a
/// "launch" or "since_launch" that is not a non-negative integer.
bool annotation_applies(const nlohmann::json& record, std::uint32_t launch,
                        const std::string& where);

}  // namespace memcarlo::tracebuf
