// <cub/util_math.cuh> on memcarlo's host backend: CUB's arithmetic helpers come with the emulation's CUB
// (cub/detail/memcarlo_cub.cuh, cub/util_macro.cuh).
#pragma once
#include "detail/memcarlo_cub.cuh"
#include "util_macro.cuh"
