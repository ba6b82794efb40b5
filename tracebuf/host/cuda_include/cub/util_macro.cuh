// CUB's utility macros for memcarlo's host backend (CUB defines them in <cub/util_macro.cuh>).
#pragma once

#include "detail/memcarlo_cub.cuh"

#ifndef CUB_MAX
#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#endif
#ifndef CUB_MIN
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#endif
#ifndef CUB_QUOTIENT_FLOOR
#define CUB_QUOTIENT_FLOOR(x, y) ((x) / (y))
#endif
#ifndef CUB_QUOTIENT_CEILING
#define CUB_QUOTIENT_CEILING(x, y) (((x) + (y) - 1) / (y))
#endif
#ifndef CUB_ROUND_UP_NEAREST
#define CUB_ROUND_UP_NEAREST(x, y) (CUB_QUOTIENT_CEILING(x, y) * (y))
#endif
#ifndef CUB_ROUND_DOWN_NEAREST
#define CUB_ROUND_DOWN_NEAREST(x, y) (((x) / (y)) * (y))
#endif
