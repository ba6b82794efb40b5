// The per-host-thread "last error" that cudaGetLastError reports, shared by the API files.
#pragma once

#include "memcarlo/host/detail/runtime_api.h"

namespace memcarlo::host::detail {

/// Records a failure for cudaGetLastError (successes leave the last error alone) and returns it.
cudaError_t api_result(cudaError_t error);

}  // namespace memcarlo::host::detail
