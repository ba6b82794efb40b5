// Mutation tests of the whole reading path, from the file to a replayed trial. A valid trace gets
// one chunk changed at random (a JSON value replaced or removed, a few bytes of a warp-record
// chunk overwritten, now and then a chunk dropped) and its checksums recomputed, so that the
// change gets past the CRCs to the parsers and validators behind them. Each mutant must be
// refused with a TraceError (reader, invariants) or a compile error (std::invalid_argument), or
// be read, checked, compiled and replayed with counters that agree with the compiled trace:
// never another exception, a hang or a crash (CI runs this under ASan and UBSan too).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "memcarlo/tracebuf/crc32c.hpp"
#include "memcarlo/tracebuf/errors.hpp"
#include "memcarlo/tracebuf/format.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::TraceBuilder;
using tracebuf::AccessKind;

struct Chunk {
  std::uint16_t type;
  std::vector<char> payload;
};

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The chunks of a well-formed file (after its 32-byte header).
std::vector<Chunk> split(const std::vector<char>& file) {
  std::vector<Chunk> chunks;
  std::size_t offset = sizeof(tracebuf::FileHeader);
  while (offset < file.size()) {
    tracebuf::ChunkHeader header{};
    std::memcpy(&header, file.data() + offset, sizeof header);
    const auto begin = file.begin() + static_cast<std::ptrdiff_t>(offset + sizeof header);
    chunks.push_back(
        {header.type, {begin, begin + static_cast<std::ptrdiff_t>(header.payload_size)}});
    offset += sizeof header + (header.payload_size + 7) / 8 * 8;
  }
  return chunks;
}

/// A file of `chunks` behind `file_header`, every chunk with valid framing and checksums.
std::vector<char> join(const std::vector<char>& file_header, const std::vector<Chunk>& chunks) {
  std::vector<char> out(file_header);
  for (const Chunk& chunk : chunks) {
    tracebuf::ChunkHeader header{};
    header.magic = tracebuf::kChunkMagic;
    header.type = chunk.type;
    header.payload_size = chunk.payload.size();
    header.payload_crc = tracebuf::crc32c(chunk.payload.data(), chunk.payload.size());
    header.header_crc = tracebuf::crc32c(&header, offsetof(tracebuf::ChunkHeader, header_crc));
    const auto* bytes = reinterpret_cast<const char*>(&header);
    out.insert(out.end(), bytes, bytes + sizeof header);
    out.insert(out.end(), chunk.payload.begin(), chunk.payload.end());
    out.resize(out.size() + (8 - chunk.payload.size() % 8) % 8, '\0');
  }
  return out;
}

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : random_(seed) {}

  /// Changes `chunks` in place; false if it found nothing to change.
  bool mutate(std::vector<Chunk>& chunks) {
    Chunk& chunk = chunks[below(chunks.size())];
    if (chunk.type == static_cast<std::uint16_t>(tracebuf::ChunkType::kWarpRecords)) {
      for (std::size_t n = 1 + below(3); n > 0; --n) {
        // Mostly the chunk header and the first records' headers, where the structure is.
        const std::size_t span = below(10) < 7
                                     ? std::min<std::size_t>(chunk.payload.size(), 24 + 8 * 24)
                                     : chunk.payload.size();
        char& byte = chunk.payload[below(span)];
        byte = below(2) == 0 ? static_cast<char>(below(256))
                             : static_cast<char>(byte ^ (1 << below(8)));
      }
    } else {
      auto json = nlohmann::json::parse(chunk.payload.begin(), chunk.payload.end(), nullptr,
                                        /*allow_exceptions=*/false);
      if (json.is_discarded() || !mutate(json)) {
        return false;
      }
      const std::string text = json.dump();
      chunk.payload.assign(text.begin(), text.end());
    }
    if (below(20) == 0 && chunks.size() > 2) {  // and sometimes a whole chunk goes
      chunks.erase(chunks.begin() + static_cast<std::ptrdiff_t>(1 + below(chunks.size() - 2)));
    }
    return true;
  }

 private:
  std::size_t below(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_);
  }

  nlohmann::json interesting() {
    switch (below(12)) {
      case 0:
        return 0;
      case 1:
        return -1;
      case 2:
        return 1;
      case 3:
        return std::uint64_t{1} << 31;
      case 4:
        return std::numeric_limits<std::uint32_t>::max();
      case 5:
        return std::numeric_limits<std::uint64_t>::max();
      case 6:
        return 1e300;
      case 7:
        return 33;
      case 8:
        return nullptr;
      case 9:
        return "x";
      case 10:
        return nlohmann::json::array();
      default:
        return nlohmann::json::object();
    }
  }

  /// Replaces or removes one value somewhere in `json`.
  bool mutate(nlohmann::json& json) {
    if (!json.is_structured() || json.empty()) {
      return false;
    }
    auto it = json.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(below(json.size())));
    if (it->is_structured() && !it->empty() && below(10) < 7) {
      return mutate(*it);
    }
    if (below(6) == 0) {
      json.erase(it);
    } else {
      *it = interesting();
    }
    return true;
  }

  std::mt19937_64 random_;
};

/// Two launches of two kernels, reads, writes, an atomic, scattered lanes, partial masks,
/// barriers and allocations.
std::string base_trace() {
  TraceBuilder builder(4, 64);
  const auto in = builder.add_load(AccessKind::kRead, "in[i]", 0);
  const auto gather = builder.add_load(AccessKind::kRead, "x[col[i]]");
  const auto out = builder.add_load(AccessKind::kWrite, "out[i]");
  const auto count = builder.add_load(AccessKind::kAtomic, "atomicAdd(&n, 1)");
  builder.add_allocation(0x100000, 1 << 16, "in");
  builder.add_allocation(0x200000, 1 << 20, "x");
  builder.add_allocation(0x400000, 1 << 16, "out");
  for (int launch = 0; launch < 2; ++launch) {
    if (launch == 1) {
      builder.next_launch("second_kernel");
    }
    for (std::uint32_t b = 0; b < 4; ++b) {
      for (std::uint32_t w = 0; w < 2; ++w) {
        const std::uint64_t i = (b * 2 + w) * 128;
        builder.coalesced(b, w, in, 0x100000 + i);
        builder.access(
            b, w, gather,
            [i](unsigned lane) { return 0x200000 + (i * 977 + lane * 4099) % (1 << 20) / 4 * 4; },
            0x0FFFFFFF);
        builder.coalesced(b, w, out, 0x400000 + i, 1);
        builder.access(
            b, w, count, [](unsigned) { return std::uint64_t{0x400000}; }, 0x1);
      }
    }
  }
  return builder.write("mutation-base");
}

TEST(MalformedTraces, EveryMutantIsRefusedWithAnErrorOrReplayedConsistently) {
  const std::vector<char> file = read_bytes(base_trace());
  const std::vector<char> file_header(file.begin(), file.begin() + sizeof(tracebuf::FileHeader));
  const std::vector<Chunk> chunks = split(file);
  ASSERT_EQ(join(file_header, chunks), file);  // the test's own framing is the writer's

  const HierarchyConfig config = load_hierarchy("fermi-c2050");
  const std::string path = (std::filesystem::temp_directory_path() / "memcarlo-tests" /
                            ("mutant-" + std::to_string(::getpid()) + ".mct"))
                               .string();
  Mutator mutator(20261122);
  int refused = 0;
  int replayed = 0;
  for (int n = 0; n < 300; ++n) {
    std::vector<Chunk> mutant = chunks;
    if (!mutator.mutate(mutant)) {
      continue;
    }
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      const auto bytes = join(file_header, mutant);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    try {
      const auto reader = tracebuf::TraceReader::open(path);
      tracebuf::check_invariants(reader);
      const CompiledTrace compiled = compile_trace(reader, config);
      TrialWorkspace workspace;
      const TrialResult result = run_trial(compiled, config, 7, 0, workspace);
      EXPECT_EQ(result.transactions, compiled.transactions.size()) << "mutant " << n;
      AccessCounters sum;
      for (const AccessCounters& load : result.loads) {
        sum += load;
      }
      EXPECT_EQ(sum.l1_accesses, result.overall.l1_accesses) << "mutant " << n;
      EXPECT_EQ(sum.l2_reads + sum.l2_writes + sum.l2_atomics,
                result.overall.l2_reads + result.overall.l2_writes + result.overall.l2_atomics)
          << "mutant " << n;
      ++replayed;
    } catch (const tracebuf::TraceError&) {
      ++refused;
    } catch (const std::invalid_argument&) {
      ++refused;
    } catch (const std::exception& error) {
      ADD_FAILURE() << "mutant " << n << ": unexpected exception: " << error.what();
    }
  }
  std::filesystem::remove(path);
  // Both outcomes must be common, or the mutations no longer reach what they are meant to test.
  EXPECT_GT(refused, 30);
  EXPECT_GT(replayed, 30);
}

}  // namespace
}  // namespace memcarlo::sim
