// cub::DeviceRadixSort for memcarlo's host backend: defined with the other device-wide algorithms.
#pragma once
#include "device_reduce.cuh"
