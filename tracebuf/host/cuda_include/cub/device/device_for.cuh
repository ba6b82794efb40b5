// <cub/device/device_for.cuh> on memcarlo's host backend: not part of the emulation's CUB (see
// cub/cub.cuh), so that a program using it stops here with a message rather than in NVIDIA's
// header, which needs the CUDA compiler.
#pragma once
#error "memcarlo host backend: <cub/device/device_for.cuh> (cub::DeviceFor) is not part of the emulation's CUB; build this program with --backend cuda"
