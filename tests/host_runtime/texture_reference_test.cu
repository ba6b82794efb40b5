// Texture references bound to linear device memory: the C++ and C binding forms, tex1Dfetch with
// zeros outside the binding, tex1D and tex2D point sampling under each address mode, normalized
// reads, where a fetch reads, and what the emulation refuses.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

texture<float, 1, cudaReadModeElementType> linear_floats;
texture<float, 1, cudaReadModeElementType> kmeans_style;
texture<int, 2, cudaReadModeElementType> pitched_ints;
texture<unsigned char, 1, cudaReadModeNormalizedFloat> normalized_bytes;
texture<signed char, 1, cudaReadModeNormalizedFloat> normalized_signed;
texture<uchar4, 1, cudaReadModeNormalizedFloat> normalized_pixels;
texture<float, 1, cudaReadModeElementType> never_bound;

// out[i] = tex1Dfetch at i - 2: two fetches before the binding, then past its end.
__global__ void fetch_around(const texture<float, 1, cudaReadModeElementType>* reference,
                             float* out) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = tex1Dfetch(*reference, i - 2);
}

// Samples tex2D at texel centres of a 6 x 4 image from (-2, -1), so that the first two columns
// and the first row lie outside; tex1D along the first row of a 1D binding the same way.
__global__ void sample_2d(int* out) {
  const float x = static_cast<float>(threadIdx.x) - 2.0f + 0.5f;
  const float y = static_cast<float>(threadIdx.y) - 1.0f + 0.5f;
  out[threadIdx.y * blockDim.x + threadIdx.x] = tex2D(pitched_ints, x, y);
}

__global__ void sample_1d(float* out, float scale, float shift) {
  out[threadIdx.x] = tex1D(linear_floats, static_cast<float>(threadIdx.x) * scale + shift);
}

__global__ void read_normalized(float* bytes, float* signed_values, float4* pixels) {
  const int i = static_cast<int>(threadIdx.x);
  bytes[i] = tex1Dfetch(normalized_bytes, i);
  signed_values[i] = tex1Dfetch(normalized_signed, i);
  pixels[i] = tex1Dfetch(normalized_pixels, i);
}

constexpr unsigned kUnboundLine = __LINE__ + 2;
__global__ void fetch_unbound(float* out) {
  out[threadIdx.x] = tex1Dfetch(never_bound, static_cast<int>(threadIdx.x));
}

constexpr unsigned kLinearFilterLine = __LINE__ + 2;
__global__ void filter_linearly(float* out) {
  out[threadIdx.x] = tex1D(linear_floats, 0.25f);
}

constexpr unsigned kThreeDimensionalLine = __LINE__ + 2;
__global__ void fetch_3d(float* out) {
  out[threadIdx.x] = tex3D(linear_floats, 0.0f, 0.0f, 0.0f);
}

std::vector<float> iota_floats(std::size_t count, float first) {
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    values[i] = first + static_cast<float>(i);
  }
  return values;
}

class HostTextureReferenceDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

}  // namespace

TEST(HostTextureReferences, Tex1DfetchReadsTheBindingAndZerosOutsideIt) {
  const DeviceArray<float> buffer(iota_floats(64, 100.0f));
  std::size_t offset = 123;
  // Bind 16 elements starting at element 8: fetches -2..-1 and 16.. fall outside.
  ASSERT_CUDA(cudaBindTexture(&offset, linear_floats, buffer.get() + 8, 16 * sizeof(float)));
  EXPECT_EQ(offset, 0u) << "a binding starts where the program asked";
  DeviceArray<float> out(32);
  memcarlo_launch("fetch_around", fetch_around, 1, 32, 0, 0, &linear_floats, out.get());
  const auto o = out.to_host();
  for (int i = 0; i < 32; ++i) {
    const int index = i - 2;
    EXPECT_EQ(o[static_cast<std::size_t>(i)],
              index >= 0 && index < 16 ? 108.0f + static_cast<float>(index) : 0.0f)
        << "fetch " << index;
  }
  // The default size binds the rest of the allocation.
  ASSERT_CUDA(cudaBindTexture(nullptr, linear_floats, buffer.get() + 40));
  memcarlo_launch("fetch_around", fetch_around, 1, 32, 0, 0, &linear_floats, out.get());
  const auto rest = out.to_host();
  EXPECT_EQ(rest[2], 140.0f);
  EXPECT_EQ(rest[25], 163.0f);
  EXPECT_EQ(rest[26], 0.0f) << "element 24 of the binding lies past the allocation";
  EXPECT_CUDA(cudaUnbindTexture(linear_floats));
}

TEST(HostTextureReferences, KmeansStyleCBindingWithAChannelDescriptor) {
  const DeviceArray<float> first(iota_floats(32, 0.0f));
  const DeviceArray<float> second(iota_floats(32, 1000.0f));
  cudaChannelFormatDesc description = cudaCreateChannelDesc<float>();
  kmeans_style.filterMode = cudaFilterModePoint;
  kmeans_style.normalized = false;
  kmeans_style.channelDesc = description;
  ASSERT_CUDA(cudaBindTexture(NULL, &kmeans_style, first.get(), &description, 32 * sizeof(float)));
  DeviceArray<float> out(32);
  memcarlo_launch("fetch_around", fetch_around, 1, 32, 0, 0, &kmeans_style, out.get());
  EXPECT_EQ(out.to_host()[10], 8.0f);
  // Rebinding replaces the binding.
  ASSERT_CUDA(cudaUnbindTexture(&kmeans_style));
  ASSERT_CUDA(cudaBindTexture(NULL, &kmeans_style, second.get(), &description, 32 * sizeof(float)));
  memcarlo_launch("fetch_around", fetch_around, 1, 32, 0, 0, &kmeans_style, out.get());
  EXPECT_EQ(out.to_host()[10], 1008.0f);
  // A descriptor of another texel size does not fit a texture<float>.
  const cudaChannelFormatDesc pairs = cudaCreateChannelDesc<float2>();
  EXPECT_EQ(cudaBindTexture(NULL, &kmeans_style, first.get(), &pairs, 32 * sizeof(float)),
            cudaErrorInvalidChannelDescriptor);
  EXPECT_EQ(cudaBindTexture(NULL, kmeans_style, first.get(), pairs, 32 * sizeof(float)),
            cudaErrorInvalidChannelDescriptor);
}

TEST(HostTextureReferences, BindingsNeedDeviceMemoryThatHoldsThem) {
  std::vector<float> host(64);
  EXPECT_EQ(cudaBindTexture(nullptr, linear_floats, host.data(), 64 * sizeof(float)),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  const DeviceArray<int> small(64);
  // 4 rows of 16 ints 128 bytes apart need 3 * 128 + 64 bytes; the allocation has 256.
  EXPECT_EQ(cudaBindTexture2D(nullptr, pitched_ints, small.get(), 16, 4, 128),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaBindTexture2D(nullptr, pitched_ints, small.get(), 16, 2, 32), cudaErrorInvalidValue)
      << "a pitch below the row's bytes";
  EXPECT_CUDA(cudaBindTexture2D(nullptr, pitched_ints, small.get(), 16, 4, 64));
  EXPECT_CUDA(cudaUnbindTexture(pitched_ints));
}

TEST(HostTextureReferences, Tex2DSamplesAPitchedBindingUnderClampAndBorder) {
  // A 6 x 4 image of ints in pitched memory: texel (x, y) = 10 * y + x + 1 (never the border's 0).
  int* image = nullptr;
  std::size_t pitch = 0;
  ASSERT_CUDA(cudaMallocPitch(reinterpret_cast<void**>(&image), &pitch, 6 * sizeof(int), 4));
  std::vector<int> host(6 * 4);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 6; ++x) {
      host[static_cast<std::size_t>(6 * y + x)] = 10 * y + x + 1;
    }
  }
  ASSERT_CUDA(cudaMemcpy2D(image, pitch, host.data(), 6 * sizeof(int), 6 * sizeof(int), 4,
                           cudaMemcpyHostToDevice));
  const cudaChannelFormatDesc description = cudaCreateChannelDesc<int>();
  ASSERT_CUDA(cudaBindTexture2D(nullptr, pitched_ints, image, description, 6, 4, pitch));
  DeviceArray<int> out(10 * 6);
  const dim3 block(10, 6);  // x from -2 to 7, y from -1 to 4

  pitched_ints.addressMode[0] = pitched_ints.addressMode[1] = cudaAddressModeClamp;
  memcarlo_launch("sample_2d", sample_2d, 1, block, 0, 0, out.get());
  auto o = out.to_host();
  for (int ty = 0; ty < 6; ++ty) {
    for (int tx = 0; tx < 10; ++tx) {
      const int x = std::min(std::max(tx - 2, 0), 5);
      const int y = std::min(std::max(ty - 1, 0), 3);
      EXPECT_EQ(o[static_cast<std::size_t>(ty * 10 + tx)], 10 * y + x + 1)
          << "clamp at (" << tx - 2 << ", " << ty - 1 << ")";
    }
  }

  pitched_ints.addressMode[0] = pitched_ints.addressMode[1] = cudaAddressModeBorder;
  memcarlo_launch("sample_2d", sample_2d, 1, block, 0, 0, out.get());
  o = out.to_host();
  for (int ty = 0; ty < 6; ++ty) {
    for (int tx = 0; tx < 10; ++tx) {
      const int x = tx - 2;
      const int y = ty - 1;
      const bool inside = x >= 0 && x < 6 && y >= 0 && y < 4;
      EXPECT_EQ(o[static_cast<std::size_t>(ty * 10 + tx)], inside ? 10 * y + x + 1 : 0)
          << "border at (" << x << ", " << y << ")";
    }
  }
  EXPECT_CUDA(cudaUnbindTexture(pitched_ints));
  EXPECT_CUDA(cudaFree(image));
}

TEST(HostTextureReferences, Tex1DNormalizedCoordinatesWrapAndMirror) {
  const DeviceArray<float> buffer(iota_floats(8, 0.0f));
  ASSERT_CUDA(cudaBindTexture(nullptr, linear_floats, buffer.get(), 8 * sizeof(float)));
  DeviceArray<float> out(32);
  const auto sample = [&](float scale, float shift) {
    memcarlo_launch("sample_1d", sample_1d, 1, 32, 0, 0, out.get(), scale, shift);
    return out.to_host();
  };
  // Unnormalized, clamp: x = i - 4.5 picks texel i - 5 clamped to [0, 7].
  linear_floats.normalized = 0;
  linear_floats.addressMode[0] = cudaAddressModeClamp;
  auto o = sample(1.0f, -4.5f);
  EXPECT_EQ(o[0], 0.0f);
  EXPECT_EQ(o[7], 2.0f);
  EXPECT_EQ(o[31], 7.0f);
  // Wrap needs normalized coordinates; unnormalized, it is clamp, as in CUDA.
  linear_floats.addressMode[0] = cudaAddressModeWrap;
  EXPECT_EQ(sample(1.0f, -4.5f), o);
  // Normalized, wrap: x = (i + 0.5) / 8 - 1 repeats the texels every 8 threads.
  linear_floats.normalized = 1;
  o = sample(1.0f / 8.0f, 0.5f / 8.0f - 1.0f);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(o[static_cast<std::size_t>(i)], static_cast<float>(i % 8)) << "wrap, thread " << i;
  }
  // Normalized, mirror: every other copy runs backwards.
  linear_floats.addressMode[0] = cudaAddressModeMirror;
  o = sample(1.0f / 8.0f, 0.5f / 8.0f);
  for (int i = 0; i < 32; ++i) {
    const int texel = (i / 8) % 2 == 0 ? i % 8 : 7 - i % 8;
    EXPECT_EQ(o[static_cast<std::size_t>(i)], static_cast<float>(texel)) << "mirror, thread " << i;
  }
  linear_floats.normalized = 0;
  linear_floats.addressMode[0] = cudaAddressModeClamp;
  EXPECT_CUDA(cudaUnbindTexture(linear_floats));
}

TEST(HostTextureReferences, NormalizedFloatReadsOfSmallIntegers) {
  const std::vector<unsigned char> bytes = {0, 51, 255, 128};
  const std::vector<signed char> signed_values = {-128, -127, 0, 127};
  const std::vector<uchar4> pixels = {{0, 255, 51, 102}, {255, 0, 0, 255}, {}, {}};
  const DeviceArray<unsigned char> device_bytes(bytes);
  const DeviceArray<signed char> device_signed(signed_values);
  const DeviceArray<uchar4> device_pixels(pixels);
  ASSERT_CUDA(cudaBindTexture(nullptr, normalized_bytes, device_bytes.get(), 4));
  ASSERT_CUDA(cudaBindTexture(nullptr, normalized_signed, device_signed.get(), 4));
  ASSERT_CUDA(cudaBindTexture(nullptr, normalized_pixels, device_pixels.get(), 4 * sizeof(uchar4)));
  DeviceArray<float> out_bytes(4), out_signed(4);
  DeviceArray<float4> out_pixels(4);
  memcarlo_launch("read_normalized", read_normalized, 1, 4, 0, 0, out_bytes.get(), out_signed.get(),
                  out_pixels.get());
  const auto b = out_bytes.to_host();
  EXPECT_FLOAT_EQ(b[0], 0.0f);
  EXPECT_FLOAT_EQ(b[1], 0.2f);
  EXPECT_FLOAT_EQ(b[2], 1.0f);
  EXPECT_FLOAT_EQ(b[3], 128.0f / 255.0f);
  const auto s = out_signed.to_host();
  EXPECT_FLOAT_EQ(s[0], -1.0f) << "-128 clamps to -1";
  EXPECT_FLOAT_EQ(s[1], -1.0f);
  EXPECT_FLOAT_EQ(s[2], 0.0f);
  EXPECT_FLOAT_EQ(s[3], 1.0f);
  const auto p = out_pixels.to_host();
  EXPECT_FLOAT_EQ(p[0].y, 1.0f);
  EXPECT_FLOAT_EQ(p[0].z, 0.2f);
  EXPECT_FLOAT_EQ(p[0].w, 0.4f);
  EXPECT_FLOAT_EQ(p[1].x, 1.0f);
  cudaUnbindTexture(normalized_bytes);
  cudaUnbindTexture(normalized_signed);
  cudaUnbindTexture(normalized_pixels);
}

TEST(HostTextureReferences, FetchesReadThroughOneAddressFunction) {
  const DeviceArray<float> buffer(iota_floats(16, 5.0f));
  ASSERT_CUDA(cudaBindTexture(nullptr, linear_floats, buffer.get(), 16 * sizeof(float)));
  EXPECT_EQ(memcarlo_texture_fetch_address(linear_floats, 3), buffer.get() + 3);
  const float* outside = memcarlo_texture_fetch_address(linear_floats, 16);
  EXPECT_EQ(*outside, 0.0f);
  EXPECT_EQ(__isGlobal(outside), 0u) << "what a probe would drop";
  EXPECT_EQ(
      memcarlo_texture_value(linear_floats, *memcarlo_texture_fetch_address(linear_floats, 4)),
      9.0f);
  EXPECT_EQ(memcarlo_texture_sample_address(linear_floats, 2.75f), buffer.get() + 2);
  EXPECT_CUDA(cudaUnbindTexture(linear_floats));
}

TEST(HostTextureReferences, ChannelDescriptorsOfVectorTexels) {
  const cudaChannelFormatDesc quad = cudaCreateChannelDesc<float4>();
  EXPECT_EQ(quad.x, 32);
  EXPECT_EQ(quad.w, 32);
  EXPECT_EQ(quad.f, cudaChannelFormatKindFloat);
  const cudaChannelFormatDesc pair = cudaCreateChannelDesc<uchar2>();
  EXPECT_EQ(pair.x, 8);
  EXPECT_EQ(pair.y, 8);
  EXPECT_EQ(pair.z, 0);
  EXPECT_EQ(pair.f, cudaChannelFormatKindUnsigned);
  EXPECT_EQ(cudaCreateChannelDesc<short>().f, cudaChannelFormatKindSigned);
  // A texture<> starts with its texel's descriptor, as CUDA's constructor sets it.
  EXPECT_EQ(normalized_pixels.channelDesc.x, 8);
  EXPECT_EQ(normalized_pixels.channelDesc.w, 8);
}

TEST_F(HostTextureReferenceDeathTest, FetchThroughAnUnboundReferenceNamesTheLine) {
  DeviceArray<float> out(32);
  EXPECT_EXIT(memcarlo_launch("fetch_unbound", fetch_unbound, 1, 32, 0, 0, out.get()),
              ::testing::ExitedWithCode(70),
              "memcarlo host runtime: tex1Dfetch through a texture reference that is not bound "
              "\\(.*texture_reference_test\\.cu:" +
                  std::to_string(kUnboundLine) + "\\)");
}

TEST_F(HostTextureReferenceDeathTest, LinearFilteringAndArraysAreUnsupported) {
  const DeviceArray<float> buffer(iota_floats(16, 0.0f));
  DeviceArray<float> out(32);
  EXPECT_EXIT(
      {
        cudaBindTexture(nullptr, linear_floats, buffer.get(), 16 * sizeof(float));
        linear_floats.filterMode = cudaFilterModeLinear;
        memcarlo_launch("filter_linearly", filter_linearly, 1, 32, 0, 0, out.get());
      },
      ::testing::ExitedWithCode(69),
      "texture linear filtering \\(cudaFilterModeLinear\\) is not supported by the host backend "
      "\\(.*texture_reference_test\\.cu:" +
          std::to_string(kLinearFilterLine) + "\\)");
  EXPECT_EXIT(
      {
        cudaBindTexture(nullptr, linear_floats, buffer.get(), 16 * sizeof(float));
        memcarlo_launch("fetch_3d", fetch_3d, 1, 32, 0, 0, out.get());
      },
      ::testing::ExitedWithCode(69),
      "texture reference fetches \\(tex3D\\) is not supported.*texture_reference_test\\.cu:" +
          std::to_string(kThreeDimensionalLine) + "\\)");
  EXPECT_EXIT(cudaBindTextureToArray(linear_floats, nullptr), ::testing::ExitedWithCode(69),
              "texture references bound to CUDA arrays \\(cudaBindTextureToArray\\) is not "
              "supported");
}
