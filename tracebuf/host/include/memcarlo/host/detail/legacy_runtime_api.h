// Runtime API calls that classic benchmarks (Rodinia, Parboil, PolyBench-ACC, CUDA 2-11 samples)
// make and CUDA 12 and 13 removed or deprecated: the cudaThread* names of the cudaDevice* calls,
// device flags, cudaChooseDevice and cudaSetDoubleFor*. They do what their successors do. The
// cudaDeviceProp fields CUDA 13 removed (clockRate, deviceOverlap, memoryClockRate, ...) are in
// runtime_api.h with the others.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <cstddef>

#include "memcarlo/host/detail/runtime_api.h"

#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaDeviceMask 0x1f

/// cudaDeviceReset: there is nothing to tear down.
cudaError_t cudaThreadExit();
cudaError_t cudaThreadSetCacheConfig(cudaFuncCache config);
cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* config);
cudaError_t cudaThreadSetLimit(cudaLimit limit, std::size_t value);
cudaError_t cudaThreadGetLimit(std::size_t* value, cudaLimit limit);
/// Recorded and reported back; the emulation has one way to wait, returning when work is done.
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceFlags(unsigned* flags);
/// Always device 0, the only one.
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* properties);
/// No-ops, as on every device with double precision.
cudaError_t cudaSetDoubleForDevice(double* value);
cudaError_t cudaSetDoubleForHost(double* value);
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
