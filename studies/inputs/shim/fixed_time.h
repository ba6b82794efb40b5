// A shim of ours for studies (docs/studies.md): a program that seeds its random numbers with the
// clock (Rodinia's particlefilter: `seed[i] = time(0) * i`) writes another trace at every run, so
// its study results move from one empty cache to the next. Included first (`-include`), this
// makes its calls of time() return one fixed instant (2023-11-14 22:13:20 UTC), so that each run
// traces the same particles. Only time() is fixed; the program's own timers (gettimeofday) run.
#ifndef MEMCARLO_STUDY_FIXED_TIME_H
#define MEMCARLO_STUDY_FIXED_TIME_H
#include <time.h>  // declared as the C library has it, before the name is taken over

static inline time_t memcarlo_study_fixed_time(time_t* out) {
  const time_t instant = 1700000000;
  if (out != NULL)
    *out = instant;
  return instant;
}
#define time(out) memcarlo_study_fixed_time(out)
#endif
