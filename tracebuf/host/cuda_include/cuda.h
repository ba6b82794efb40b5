// Stand-in for CUDA's <cuda.h> on the host backend: the runtime API comes from the emulation
// header, which the build force-includes (included here too for sources compiled without it), and
// the driver API's types and result codes from driver_api.h; the driver calls are not emulated.
#pragma once
#include "memcarlo/host/cuda_runtime_emulation.h"
#include "memcarlo/host/detail/driver_api.h"
