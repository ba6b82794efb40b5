// .traceg.xz input (built with liblzma): compressed kernels named directly or found beside the
// name a kernelslist.g gives, and corrupt compressed data reported as such.
#include <gtest/gtest.h>
#include <lzma.h>

#include "interop_test_util.hpp"
#include "memcarlo/accelsim/accelsim.hpp"

namespace memcarlo::accelsim {
namespace {

using testing::block_text;
using testing::kernel_text;
using testing::scratch_dir;
using testing::warp_text;
using testing::write_text;

std::string xz_compress(const std::string& text) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  std::size_t used = 0;
  const lzma_ret result = lzma_easy_buffer_encode(
      6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
      reinterpret_cast<std::uint8_t*>(out.data()), &used, out.size());
  EXPECT_EQ(result, LZMA_OK);
  out.resize(used);
  return out;
}

std::string many_warps_kernel() {
  std::string warps;
  for (unsigned warp = 0; warp < 32; ++warp) {
    std::vector<std::string> lines(2000,
                                   "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x00007f0a2c000000 4 0");
    warps += warp_text(warp, lines);
  }
  return kernel_text(block_text("0,0,0", warps), "(1,1,1)", "(1024,1,1)");
}

TEST(AccelsimXz, CompressedKernelsImportLikePlainOnes) {
  if (!xz_supported()) {
    GTEST_SKIP() << "built without liblzma";
  }
  const std::string dir = scratch_dir("xz");
  const std::string text = many_warps_kernel();  // several decoder buffers long
  write_text(dir + "/kernel-1.traceg.xz", xz_compress(text));
  write_text(dir + "/kernelslist.g", "kernel-1.traceg\n");  // finds kernel-1.traceg.xz
  const ImportStats listed = import_trace(dir + "/kernelslist.g", dir + "/a.mct");
  EXPECT_EQ(listed.records, 32u * 2000u);
  const ImportStats direct = import_trace(dir + "/kernel-1.traceg.xz", dir + "/b.mct");
  EXPECT_EQ(direct.records, 32u * 2000u);
  EXPECT_LT(direct.input_bytes, text.size() / 10);
}

TEST(AccelsimXz, CorruptDataIsReported) {
  if (!xz_supported()) {
    GTEST_SKIP() << "built without liblzma";
  }
  const std::string dir = scratch_dir("xz-corrupt");
  std::string compressed = xz_compress(many_warps_kernel());
  compressed.resize(compressed.size() / 2);
  write_text(dir + "/kernel-1.traceg.xz", compressed);
  try {
    import_trace(dir + "/kernel-1.traceg.xz", dir + "/out.mct");
    FAIL();
  } catch (const ImportError& e) {
    EXPECT_NE(std::string(e.what()).find("xz: compressed data is truncated"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace memcarlo::accelsim
