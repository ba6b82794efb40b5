// Device-wide settings (cache and shared memory configuration, limits, device flags), which the
// emulation records and reports back but which change nothing it does, and the cudaThread* names
// CUDA 2-4 gave them.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file
// are CUDA's.
#include <atomic>
#include <map>
#include <mutex>
#include <utility>

#include "api_errors.hpp"
#include "memcarlo/host/control.hpp"
#include "memcarlo/host/detail/legacy_runtime_api.h"
#include "memcarlo/host/detail/memory_api_cuda11.h"

namespace {
std::atomic<cudaFuncCache> cache_config{cudaFuncCachePreferNone};
std::atomic<cudaSharedMemConfig> shared_memory_config{cudaSharedMemBankSizeFourByte};
std::atomic<unsigned> device_flags{cudaDeviceScheduleAuto};

/// The attributes set on streams, by stream and attribute.
struct StreamAttributes {
  std::mutex mutex;
  std::map<std::pair<cudaStream_t, cudaStreamAttrID>, cudaStreamAttrValue> values;
};
StreamAttributes& stream_attributes() {
  static StreamAttributes attributes;
  return attributes;
}
}  // namespace

using memcarlo::host::detail::api_result;

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config) {
  cache_config = config;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
  if (config == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *config = cache_config;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  shared_memory_config = config;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config) {
  if (config == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *config = shared_memory_config;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
  // No persisting L2 lines (runtime_api.h): only 0 fits, as on a GPU without them.
  if (limit == cudaLimitPersistingL2CacheSize && value > 0) {
    return api_result(cudaErrorUnsupportedLimit);
  }
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
  if (value == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  switch (limit) {
    case cudaLimitStackSize:
      *value = memcarlo::host::runtime_options().fiber_stack_bytes;
      break;
    case cudaLimitPersistingL2CacheSize:
      *value = 0;
      break;
    default:
      *value = std::size_t{8} << 20;
      break;
  }
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache() {
  return cudaSuccess;
}
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attribute,
                                   const cudaStreamAttrValue* value) {
  if (value == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  StreamAttributes& attributes = stream_attributes();
  const std::lock_guard lock(attributes.mutex);
  attributes.values[{stream, attribute}] = *value;
  return cudaSuccess;
}
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attribute,
                                   cudaStreamAttrValue* value) {
  if (value == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  StreamAttributes& attributes = stream_attributes();
  const std::lock_guard lock(attributes.mutex);
  const auto found = attributes.values.find({stream, attribute});
  *value = found != attributes.values.end() ? found->second : cudaStreamAttrValue{};
  return cudaSuccess;
}
cudaError_t cudaSetDeviceFlags(unsigned flags) {
  if ((flags & ~static_cast<unsigned>(cudaDeviceMask)) != 0) {
    return api_result(cudaErrorInvalidValue);
  }
  device_flags = flags;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned* flags) {
  if (flags == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *flags = device_flags;
  return cudaSuccess;
}
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* properties) {
  if (device == nullptr || properties == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaThreadExit() {
  return cudaDeviceReset();
}
cudaError_t cudaThreadSetCacheConfig(cudaFuncCache config) {
  return cudaDeviceSetCacheConfig(config);
}
cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* config) {
  return cudaDeviceGetCacheConfig(config);
}
cudaError_t cudaThreadSetLimit(cudaLimit limit, std::size_t value) {
  return cudaDeviceSetLimit(limit, value);
}
cudaError_t cudaThreadGetLimit(std::size_t* value, cudaLimit limit) {
  return cudaDeviceGetLimit(value, limit);
}
cudaError_t cudaSetDoubleForDevice(double* value) {
  return value != nullptr ? cudaSuccess : api_result(cudaErrorInvalidValue);
}
cudaError_t cudaSetDoubleForHost(double* value) {
  return value != nullptr ? cudaSuccess : api_result(cudaErrorInvalidValue);
}
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
