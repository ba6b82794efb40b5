// Stand-in for CUDA's <cuda_profiler_api.h> on the host backend: cudaProfilerStart and
// cudaProfilerStop come from the emulation header (they do nothing: there is no profiler to start).
#pragma once
#include "memcarlo/host/cuda_runtime_emulation.h"

#define __CUDA_PROFILER_API_H__
