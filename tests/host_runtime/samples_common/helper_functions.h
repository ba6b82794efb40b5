// Our stand-in for the CUDA samples' Common/helper_functions.h, reduced to what sample-style
// programs use from it here: the command-line helpers and an L2 relative-error comparison. Timing
// is done with CUDA events, not the samples' StopWatchInterface. Written for these tests.
#ifndef MEMCARLO_TEST_HELPER_FUNCTIONS_H
#define MEMCARLO_TEST_HELPER_FUNCTIONS_H

#include <cmath>
#include <cstdio>

#include "helper_string.h"

/// True when ||reference - data|| / ||reference|| is below `epsilon` (the samples' sdkCompareL2fe).
inline bool sdkCompareL2fe(const float* reference, const float* data, unsigned length,
                           float epsilon) {
  double error = 0;
  double norm = 0;
  for (unsigned i = 0; i < length; ++i) {
    const double difference = static_cast<double>(reference[i]) - data[i];
    error += difference * difference;
    norm += static_cast<double>(reference[i]) * reference[i];
  }
  if (norm < 1e-7) {
    std::fprintf(stderr, "sdkCompareL2fe: the reference is all zeros\n");
    return false;
  }
  return std::sqrt(error / norm) < epsilon;
}

#endif  // MEMCARLO_TEST_HELPER_FUNCTIONS_H
