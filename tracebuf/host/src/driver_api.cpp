// The two driver API calls the host backend has: the names of CUresult codes.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file
// are CUDA's.
#include "memcarlo/host/detail/driver_api.h"

namespace {
const char* result_name(CUresult error) {
  switch (error) {
#define MEMCARLO_DRIVER_RESULT_NAME(name, value) \
  case name:                                     \
    return #name;
    MEMCARLO_DRIVER_RESULTS(MEMCARLO_DRIVER_RESULT_NAME)
#undef MEMCARLO_DRIVER_RESULT_NAME
  }
  return nullptr;
}
}  // namespace

CUresult cuGetErrorName(CUresult error, const char** name) {
  if (name == nullptr) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  *name = result_name(error);
  return *name != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuGetErrorString(CUresult error, const char** text) {
  return cuGetErrorName(error, text);
}
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
