// What device_probe.cu offers the host code: the upload of the probes' configuration.
#pragma once

#include <cuda_runtime_api.h>

#include "ring_buffer_layout.h"

namespace memcarlo::cuda::detail {

/// Copies `config` to the probes' __constant__ configuration of the current device and waits
/// until the copy is complete.
cudaError_t upload_device_config(const DeviceConfig& config);

}  // namespace memcarlo::cuda::detail
