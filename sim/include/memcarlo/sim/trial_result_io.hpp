// TrialResults as bytes, for the runs that cross a process boundary (MPI ranks, --shard files):
// a little-endian binary form that covers every member of TrialResult, written and read by one
// member list (trial_result_io.cpp) so that the two cannot drift apart.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::sim {

/// Bytes that do not hold what append_trial_results wrote (cut short, wrong lengths).
class TrialResultFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Appends `trials` to `out`: their count, then each trial's members in the order of the member
/// list; integers as 8 little-endian bytes, doubles as the 8 little-endian bytes of their IEEE
/// bits, vectors as a length then their elements.
void append_trial_results(std::span<const TrialResult> trials, std::vector<std::uint8_t>& out);

/// The trials that append_trial_results wrote at the start of `bytes`; `bytes` is advanced past
/// them. Throws TrialResultFormatError when the bytes end early or hold an impossible length.
std::vector<TrialResult> read_trial_results(std::span<const std::uint8_t>& bytes);

/// The whole of `bytes` as one append_trial_results block (nothing may follow it).
std::vector<TrialResult> decode_trial_results(std::span<const std::uint8_t> bytes);

/// Base64 (RFC 4648, with padding), for putting the bytes in a JSON file.
std::string base64_encode(std::span<const std::uint8_t> bytes);
/// Throws TrialResultFormatError on a character outside the alphabet or a wrong length.
std::vector<std::uint8_t> base64_decode(const std::string& text);

}  // namespace memcarlo::sim
