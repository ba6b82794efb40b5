// TAFE's hand relations (memcarlo/tafe.h, Punniyamurthy & Gerstlauer, PACT'20) in the bundled
// examples: compiled in only when memcarlo-cc builds the example for one of memcarlo's backends,
// so that the examples still build with nvcc alone. memcarlo derives the same relations from its
// loads table; tests/footprint checks that the two give the same footprints.
#ifndef MEMCARLO_EXAMPLE_TAFE_H
#define MEMCARLO_EXAMPLE_TAFE_H

#if defined(MEMCARLO_BACKEND_HOST) || defined(MEMCARLO_BACKEND_CUDA)
#include "memcarlo/tafe.h"
#define EXAMPLE_TAFE 1
#endif

#endif  // MEMCARLO_EXAMPLE_TAFE_H
