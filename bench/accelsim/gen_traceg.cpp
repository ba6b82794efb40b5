// Generates a large Accel-Sim .traceg (tracer version 5) for the import benchmark: an SpMV-like
// kernel whose warps mix arithmetic, coalesced and gathered global accesses, shared memory and
// barriers, in the proportions of real NVBit traces. Standalone: no memcarlo dependency.
//
//   gen_traceg OUTPUT.traceg SIZE_IN_MB [ITERATIONS_PER_WARP]
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

constexpr unsigned kThreads = 256;  // per block: 8 warps
constexpr unsigned kWarps = kThreads / 32;

void append(std::string& out, const char* format, auto... args) {
  char line[1024];
  const int n = std::snprintf(line, sizeof line, format, args...);
  out.append(line, static_cast<std::size_t>(n));
}

/// One warp's instruction lines; `seed` varies the gathered addresses.
std::string warp_lines(std::uint64_t block, unsigned warp, unsigned iterations, unsigned& count) {
  std::string text;
  count = 0;
  std::uint64_t state = block * 7919 + warp * 104729 + 1;
  auto next = [&] {  // xorshift64
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const std::uint64_t row = (block * kWarps + warp) * 32;
  const std::uint64_t values = 0x7f3a20000000, indices = 0x7f3a60000000, x = 0x7f3aa0000000;
  const std::uint64_t y = 0x7f3ae0000000, shared = 0x7f3b00000000;
  append(text, "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0\n");
  append(text, "0010 ffffffff 1 R0 S2R 0 0 0\n");
  append(text, "0020 ffffffff 1 R3 S2R 0 0 0\n");
  append(text, "0030 ffffffff 1 R0 IMAD 3 R3 R0 R255 0 0\n");
  count += 4;
  for (unsigned i = 0; i < iterations; ++i) {
    const std::uint64_t j = row * 64 + i * 32;
    append(text, "0040 ffffffff 1 R4 IMAD.WIDE 2 R0 R255 0 0\n");
    append(text, "0050 ffffffff 1 R6 LDG.E 1 R4 4 1 0x%016" PRIx64 " 4 0\n", indices + 4 * j);
    append(text, "0060 ffffffff 1 R8 LDG.E.64 1 R4 8 1 0x%016" PRIx64 " 8 0\n", values + 8 * j);
    append(text, "0070 ffffffff 1 R10 IMAD.WIDE 2 R6 R255 0 0\n");
    // x[indices[j]]: a gather, base and 31 deltas from lane to lane.
    std::uint64_t previous = x + (next() % (1 << 22)) * 8;
    append(text, "0080 ffffffff 1 R12 LDG.E.64 1 R10 8 2 0x%016" PRIx64, previous);
    for (unsigned lane = 1; lane < 32; ++lane) {
      const std::uint64_t address = x + (next() % (1 << 22)) * 8;
      append(text, " %" PRId64, static_cast<std::int64_t>(address - previous));
      previous = address;
    }
    text += " 0\n";
    append(text, "0090 ffffffff 1 R14 DFMA 3 R8 R12 R14 0 0\n");
    append(text, "00a0 ffffffff 0 STS.64 2 R3 R14 8 1 0x%016" PRIx64 " 8 0\n", shared + 256 * warp);
    append(text, "00b0 ffffffff 1 P0 ISETP.GE.AND 2 R0 R2 0 0\n");
    append(text, "00c0 ffffffff 0 BRA 0 0 0\n");
    count += 9;
  }
  append(text, "00d0 ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 0\n");
  append(text, "00e0 ffffffff 1 R16 LDS.64 1 R3 8 1 0x%016" PRIx64 " 8 0\n", shared + 256 * warp);
  append(text, "00f0 ffffffff 0 STG.E.64 2 R4 R16 8 1 0x%016" PRIx64 " 8 0\n", y + 8 * row);
  append(text, "0100 ffffffff 0 EXIT 0 0 0\n");
  count += 4;
  return text;
}

std::string block_text(std::uint64_t block, std::uint64_t grid, unsigned iterations) {
  std::string text = "\n#BEGIN_TB\n\n";
  append(text, "thread block = %" PRIu64 ",0,0\n", block % grid);
  for (unsigned warp = 0; warp < kWarps; ++warp) {
    unsigned count = 0;
    const std::string lines = warp_lines(block, warp, iterations, count);
    append(text, "\nwarp = %u\ninsts = %u\n", warp, count);
    text += lines;
  }
  text += "\n#END_TB\n";
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUTPUT.traceg SIZE_IN_MB [ITERATIONS_PER_WARP]\n", argv[0]);
    return 1;
  }
  const std::uint64_t target = std::strtoull(argv[2], nullptr, 10) * 1000 * 1000;
  const unsigned iterations = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 64;
  const std::uint64_t block_bytes = block_text(0, 1, iterations).size();
  const std::uint64_t blocks = (target + block_bytes - 1) / block_bytes;
  std::FILE* out = std::fopen(argv[1], "w");
  if (out == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  std::string header;
  append(header,
         "-kernel name = _Z11spmv_scalarPKdPKiS2_S0_Pdi\n-kernel id = 1\n-grid dim = (%" PRIu64
         ",1,1)\n-block dim = (%u,1,1)\n-shmem = 2048\n-nregs = 32\n-binary version = 70\n"
         "-cuda stream id = 0\n-shmem base_addr = 0x00007f3b00000000\n"
         "-local mem base_addr = 0x00007f3c00000000\n-nvbit version = 1.5.5\n"
         "-accelsim tracer version = 5\n-enable lineinfo = 0\n\n#traces format = PC mask "
         "dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] "
         "[mem_addresses] immediate\n",
         blocks, kThreads);
  std::fputs(header.c_str(), out);
  for (std::uint64_t block = 0; block < blocks; ++block) {
    const std::string text = block_text(block, blocks, iterations);
    std::fwrite(text.data(), 1, text.size(), out);
  }
  std::fclose(out);
  std::fprintf(stderr, "%s: %" PRIu64 " blocks of %u threads, about %" PRIu64 " MB\n", argv[1],
               blocks, kThreads, blocks * block_bytes / 1000000);
  return 0;
}
