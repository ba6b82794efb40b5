// The binary form of TrialResult: one member list (for_each_trial_member, trial_result.hpp) drives
// the writer, the reader and the trial digest; a member added to TrialResult without a line there
// fails its static_assert.
#include "memcarlo/sim/trial_result_io.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <limits>

namespace memcarlo::sim {
namespace {

// The members are those of for_each_trial_member and for_each_group_member (trial_result.hpp),
// whose static_asserts check that none is left out; all of them are written, digested or not.
template <class Result, class Visit>
constexpr void visit_members(Result& result, Visit&& visit) {
  for_each_trial_member(result, [&visit](auto& member, Digested /*digested*/) { visit(member); });
}

template <class Group, class Visit>
constexpr void visit_members_of_group(Group& group, Visit&& visit) {
  for_each_group_member(group, [&visit](auto& member, Digested /*digested*/) { visit(member); });
}

class Writer {
 public:
  explicit Writer(std::vector<std::uint8_t>& out) : out_(out) {}

  void operator()(std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
      out_.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
    }
  }
  void operator()(double value) { (*this)(std::bit_cast<std::uint64_t>(value)); }
  // 32-bit values take 8 bytes too, so that every element has the same size.
  void operator()(std::uint32_t value) { (*this)(std::uint64_t{value}); }
  void operator()(const AccessCounters& counters) {
    for_each_access_counter([&](auto member) { (*this)(counters.*member); });
  }
  void operator()(const CounterGroupTotals& group) { visit_members_of_group(group, *this); }
  void operator()(const TrialResult& result) { visit_members(result, *this); }
  template <class T>
  void operator()(const std::vector<T>& values) {
    (*this)(static_cast<std::uint64_t>(values.size()));
    for (const T& value : values) {
      (*this)(value);
    }
  }
  template <class T, std::size_t N>
  void operator()(const std::array<T, N>& values) {
    for (const T& value : values) {
      (*this)(value);
    }
  }

 private:
  std::vector<std::uint8_t>& out_;
};

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t>& bytes) : bytes_(bytes) {}

  void operator()(std::uint64_t& value) {
    if (bytes_.size() < 8) {
      throw TrialResultFormatError("trial results: the data ends early");
    }
    value = 0;
    for (int i = 0; i < 8; ++i) {
      value |= std::uint64_t{bytes_[static_cast<std::size_t>(i)]} << (8 * i);
    }
    bytes_ = bytes_.subspan(8);
  }
  void operator()(double& value) {
    std::uint64_t bits = 0;
    (*this)(bits);
    value = std::bit_cast<double>(bits);
  }
  void operator()(std::uint32_t& value) {
    std::uint64_t wide = 0;
    (*this)(wide);
    if (wide > std::numeric_limits<std::uint32_t>::max()) {
      throw TrialResultFormatError("trial results: a 32-bit value out of range");
    }
    value = static_cast<std::uint32_t>(wide);
  }
  void operator()(AccessCounters& counters) {
    for_each_access_counter([&](auto member) { (*this)(counters.*member); });
  }
  void operator()(CounterGroupTotals& group) { visit_members_of_group(group, *this); }
  void operator()(TrialResult& result) { visit_members(result, *this); }
  template <class T>
  void operator()(std::vector<T>& values) {
    std::uint64_t size = 0;
    (*this)(size);
    // Every element takes at least 8 bytes: a larger count is corrupt, not a huge allocation.
    if (size > bytes_.size() / 8) {
      throw TrialResultFormatError("trial results: a length exceeds the data");
    }
    values.assign(static_cast<std::size_t>(size), T{});
    for (T& value : values) {
      (*this)(value);
    }
  }
  template <class T, std::size_t N>
  void operator()(std::array<T, N>& values) {
    for (T& value : values) {
      (*this)(value);
    }
  }

 private:
  std::span<const std::uint8_t>& bytes_;
};

static_assert(sizeof(std::size_t) == sizeof(std::uint64_t), "CounterGroupTotals::width");

}  // namespace

void append_trial_results(std::span<const TrialResult> trials, std::vector<std::uint8_t>& out) {
  Writer write(out);
  write(static_cast<std::uint64_t>(trials.size()));
  for (const TrialResult& trial : trials) {
    write(trial);
  }
}

std::vector<TrialResult> read_trial_results(std::span<const std::uint8_t>& bytes) {
  Reader read(bytes);
  std::vector<TrialResult> trials;
  read(trials);
  return trials;
}

std::vector<TrialResult> decode_trial_results(std::span<const std::uint8_t> bytes) {
  std::vector<TrialResult> trials = read_trial_results(bytes);
  if (!bytes.empty()) {
    throw TrialResultFormatError("trial results: " + std::to_string(bytes.size()) +
                                 " bytes follow the last trial");
  }
  return trials;
}

namespace {

constexpr std::string_view kBase64Alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  std::string text;
  text.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t left = bytes.size() - i;
    const std::uint32_t block = (std::uint32_t{bytes[i]} << 16) |
                                (left > 1 ? std::uint32_t{bytes[i + 1]} << 8 : 0) |
                                (left > 2 ? std::uint32_t{bytes[i + 2]} : 0);
    text += kBase64Alphabet[(block >> 18) & 63];
    text += kBase64Alphabet[(block >> 12) & 63];
    text += left > 1 ? kBase64Alphabet[(block >> 6) & 63] : '=';
    text += left > 2 ? kBase64Alphabet[block & 63] : '=';
  }
  return text;
}

std::vector<std::uint8_t> base64_decode(const std::string& text) {
  if (text.size() % 4 != 0) {
    throw TrialResultFormatError("base64: the length is not a multiple of 4");
  }
  std::vector<std::uint8_t> bytes;
  bytes.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::uint32_t block = 0;
    int padding = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      std::uint32_t value = 0;
      if (c == '=' && i + 4 == text.size() && k >= 2) {
        ++padding;
      } else {
        const auto at = kBase64Alphabet.find(c);
        if (at == std::string_view::npos || padding > 0) {
          throw TrialResultFormatError("base64: unexpected character at " + std::to_string(i + k));
        }
        value = static_cast<std::uint32_t>(at);
      }
      block = (block << 6) | value;
    }
    bytes.push_back(static_cast<std::uint8_t>(block >> 16));
    if (padding < 2) {
      bytes.push_back(static_cast<std::uint8_t>(block >> 8));
    }
    if (padding < 1) {
      bytes.push_back(static_cast<std::uint8_t>(block));
    }
  }
  return bytes;
}

}  // namespace memcarlo::sim
