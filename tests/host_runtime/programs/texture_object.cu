// A texture object set up the way CUDA programs do it (resource and texture descriptors, channel
// format, address and filter modes): it must compile for the host backend and fail at
// cudaCreateTextureObject with a message that names the construct and this file's line.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

__global__ void read_texture(cudaTextureObject_t texture, float* out) {
  out[threadIdx.x] = tex1Dfetch<float>(texture, static_cast<int>(threadIdx.x));
}

int main() {
  float* buffer = nullptr;
  cudaMalloc(&buffer, 32 * sizeof(float));
  cudaResourceDesc resource;
  std::memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = buffer;
  resource.res.linear.desc = cudaCreateChannelDesc<float>();
  resource.res.linear.desc.f = cudaChannelFormatKindFloat;
  resource.res.linear.sizeInBytes = 32 * sizeof(float);
  cudaTextureDesc description;
  std::memset(&description, 0, sizeof description);
  description.readMode = cudaReadModeElementType;
  description.addressMode[0] = cudaAddressModeClamp;
  description.filterMode = cudaFilterModePoint;
  cudaTextureObject_t texture = 0;
  cudaCreateTextureObject(&texture, &resource, &description, nullptr);  // line 29
  read_texture<<<1, 32>>>(texture, buffer);
  cudaDestroyTextureObject(texture);
  std::printf("unreachable\n");
  return 0;
}
