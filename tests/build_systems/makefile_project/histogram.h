// The CUDA part of the program, as the C++ part sees it.
#pragma once

/// Counts `values` (each in [0, bins)) into `counts` on the GPU; returns false on a CUDA error.
bool gpu_histogram(const int* values, int count, int* counts, int bins);
