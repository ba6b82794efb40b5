// <cub/config.cuh> on memcarlo's host backend: CUB's configuration come with the emulation's CUB
// (cub/detail/memcarlo_cub.cuh, cub/util_macro.cuh).
#pragma once
#include "detail/memcarlo_cub.cuh"
#include "util_macro.cuh"
