// Stand-in for Thrust's <thrust/detail/config.h>, which every Thrust header includes first, on the
// host backend: Thrust's own, then <thrust/system_error.h>. With the CUDA device system, Thrust's
// headers bring thrust::system_error in whatever a program includes, and programs written for it
// catch it without including <thrust/system_error.h> (the CUDA samples' segmentationTreeThrust
// does); the C++ device system the host backend builds Thrust with does not.
#pragma once

#include_next <thrust/detail/config.h>

#include <thrust/system_error.h>
