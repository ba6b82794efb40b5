// Stand-in for CUDA's <math_constants.h> on the host backend: the commonly used constants.
#pragma once
#include "memcarlo/host/cuda_runtime_emulation.h"

#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_NAN __builtin_nan("")
#define CUDART_SQRT_2_F 1.414213562f
#define CUDART_MAX_NORMAL_F 3.40282347e+38f
