// The per-line state that both cache levels key by dense L1 line id, in one record per line: the
// holder bits of the private caches (bit i of word w: instance 16 w + i holds the line) and the
// shared cache's way for each of the line's L2 lines (kNoWay when absent). One record, so that an
// L2 eviction, which clears the L2 line's way and then looks for L1 holders to back-invalidate,
// touches one cache line of a table that rarely fits in the CPU's caches instead of two.
#pragma once

#include <cstdint>
#include <vector>

namespace memcarlo::sim {

class LineTable {
 public:
  /// `lines` records of `holder_words` holder words then `parts` L2 ways, all 16-bit (one type
  /// for the whole record, so that no access aliases another of a different type).
  void reset(std::uint32_t lines, std::uint32_t holder_words, std::uint32_t parts,
             std::uint16_t no_way) {
    words_ = holder_words;
    stride_ = holder_words + parts;
    no_way_ = no_way;
    records_.assign(std::size_t{lines} * stride_, 0);
    for (std::size_t line = 0; line < lines; ++line) {
      for (std::uint32_t part = 0; part < parts; ++part) {
        records_[line * stride_ + words_ + part] = no_way;
      }
    }
  }

  /// Drops every line from every private cache (their holder bits); the L2 ways stay.
  void clear_holders() {
    for (std::size_t record = 0; record < records_.size(); record += stride_) {
      for (std::uint32_t word = 0; word < words_; ++word) {
        records_[record + word] = 0;
      }
    }
  }

  /// Whether no L2 line of L1 line `line` is cached.
  [[nodiscard]] bool l2_free(std::uint32_t line) const {
    for (std::uint32_t part = words_; part < stride_; ++part) {
      if (records_[std::size_t{line} * stride_ + part] != no_way_) {
        return false;
      }
    }
    return true;
  }

  [[nodiscard]] std::uint16_t* records() { return records_.data(); }
  [[nodiscard]] std::uint32_t stride() const { return stride_; }
  [[nodiscard]] std::uint32_t holder_words() const { return words_; }
  [[nodiscard]] std::uint64_t bytes() const { return records_.capacity() * 2; }

 private:
  std::uint32_t words_ = 0;
  std::uint32_t stride_ = 0;
  std::uint16_t no_way_ = 0;
  std::vector<std::uint16_t> records_;
};

}  // namespace memcarlo::sim
