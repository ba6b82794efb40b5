// Stand-in for CUDA's <texture_types.h> on the host backend: everything it declares comes from the
// emulation header, which the build force-includes (included here too for sources compiled without
// it).
#pragma once
#include "memcarlo/host/cuda_runtime_emulation.h"
