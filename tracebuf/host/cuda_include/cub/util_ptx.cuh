// cub::LaneId() and cub::WarpId() for memcarlo's host backend (cub/detail/memcarlo_cub.cuh).
#pragma once
#include "detail/memcarlo_cub.cuh"
