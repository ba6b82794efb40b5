// Texture references of the CUDA 2-11 era (removed in CUDA 12): 1D and 2D references, a
// normalized-float read of uchar4 texels, the reference's sampling fields set from host code,
// and every way of binding one. Fetches read through the texture unit, so only out[] is probed.
#include <cstdio>

texture<float, 1, cudaReadModeElementType> weights;
texture<float, cudaTextureType2D, cudaReadModeElementType> image;
texture<uchar4, 2, cudaReadModeNormalizedFloat> colors;

__global__ void sample(float* out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y;
  if (x >= width || y >= height) return;
  const float4 color = tex2D(colors, x + 0.5f, y + 0.5f);
  out[y * width + x] = tex1Dfetch(weights, x) * tex2D(image, x, y) + color.w;
}

int main() {
  const int width = 64, height = 4;
  float *d_weights, *d_out;
  cudaMalloc((void**)&d_weights, width * sizeof(float));
  cudaMalloc((void**)&d_out, width * height * sizeof(float));
  size_t offset = 0;
  cudaBindTexture(&offset, weights, d_weights, width * sizeof(float));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaBindTexture(0, weights, d_weights, desc, width * sizeof(float));
  cudaBindTexture2D(0, image, d_out, desc, width, height, width * sizeof(float));
  image.normalized = false;
  image.filterMode = cudaFilterModePoint;
  image.addressMode[0] = cudaAddressModeClamp;
  cudaArray* pixels = 0;
  cudaChannelFormatDesc pixel_desc = cudaCreateChannelDesc<uchar4>();
  cudaMallocArray(&pixels, &pixel_desc, width, height);
  cudaBindTextureToArray(colors, pixels, pixel_desc);
  sample<<<dim3(1, height), width>>>(d_out, width, height);
  cudaUnbindTexture(weights);
  cudaUnbindTexture(image);
  cudaUnbindTexture(colors);
  cudaFreeArray(pixels);
  printf("texture_references: OK\n");
  return 0;
}
// CHECK-LOADS: 1
// CHECK-LOAD: {"id": 0, "kind": "write", "base": "out", "function": "sample"}
// CHECK-HOST: memcarlo_launch("sample", sample, dim3(1, height), width, 0, 0, d_out, width, height);
// CHECK-SUMMARY: probed 1 accesses, skipped 0; 1 launches rewritten
