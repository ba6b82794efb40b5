/* cutil.h shim of ours (not the CUDA SDK 2.x header): only what the ISPASS-2009 LPS and LIB
   programs use. Checking macros that report a failed call and exit, wall-clock timers, and the
   --name=value command-line lookups. */
#ifndef MEMCARLO_STUDY_CUTIL_SHIM_H
#define MEMCARLO_STUDY_CUTIL_SHIM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

typedef int CUTBoolean;
#define CUTFalse 0
#define CUTTrue 1

#define CUDA_SAFE_CALL_NO_SYNC(call)                                                         \
  do {                                                                                       \
    cudaError_t cutil_error = (call);                                                        \
    if (cutil_error != cudaSuccess) {                                                        \
      fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n", __FILE__, __LINE__,      \
              cudaGetErrorString(cutil_error));                                              \
      exit(EXIT_FAILURE);                                                                    \
    }                                                                                        \
  } while (0)
#define CUDA_SAFE_CALL(call) CUDA_SAFE_CALL_NO_SYNC(call)
#define cutilSafeCall(call) CUDA_SAFE_CALL_NO_SYNC(call)
#define CUT_SAFE_CALL(call)                                                                  \
  do {                                                                                       \
    if ((call) != CUTTrue) {                                                                 \
      fprintf(stderr, "Cut error in file '%s' in line %i.\n", __FILE__, __LINE__);           \
      exit(EXIT_FAILURE);                                                                    \
    }                                                                                        \
  } while (0)
#define CUT_CHECK_ERROR(message)                                                             \
  do {                                                                                       \
    cudaError_t cutil_error = cudaGetLastError();                                            \
    if (cutil_error != cudaSuccess) {                                                        \
      fprintf(stderr, "Cuda error: %s in file '%s' in line %i : %s.\n", (message), __FILE__, \
              __LINE__, cudaGetErrorString(cutil_error));                                    \
      exit(EXIT_FAILURE);                                                                    \
    }                                                                                        \
  } while (0)
#define cutilCheckMsg(message) CUT_CHECK_ERROR(message)
#define CUT_DEVICE_INIT(argc, argv) cudaSetDevice(0)
#define CUT_EXIT(argc, argv) exit(EXIT_SUCCESS)

/* Timers: up to 16, milliseconds of wall-clock time between starts and stops. */
static struct {
  double total_ms;
  double started_ms;
  int running;
} cutil_timers[16];
static unsigned int cutil_timer_count = 0;

static double cutil_now_ms(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return now.tv_sec * 1000.0 + now.tv_usec / 1000.0;
}
static CUTBoolean cutCreateTimer(unsigned int* name) {
  if (cutil_timer_count == 16) return CUTFalse;
  *name = cutil_timer_count++;
  cutil_timers[*name].total_ms = 0;
  cutil_timers[*name].running = 0;
  return CUTTrue;
}
static CUTBoolean cutDeleteTimer(unsigned int name) { return name < 16 ? CUTTrue : CUTFalse; }
static CUTBoolean cutStartTimer(unsigned int name) {
  cutil_timers[name].started_ms = cutil_now_ms();
  cutil_timers[name].running = 1;
  return CUTTrue;
}
static CUTBoolean cutStopTimer(unsigned int name) {
  if (cutil_timers[name].running)
    cutil_timers[name].total_ms += cutil_now_ms() - cutil_timers[name].started_ms;
  cutil_timers[name].running = 0;
  return CUTTrue;
}
static CUTBoolean cutResetTimer(unsigned int name) {
  cutil_timers[name].total_ms = 0;
  if (cutil_timers[name].running) cutil_timers[name].started_ms = cutil_now_ms();
  return CUTTrue;
}
static float cutGetTimerValue(unsigned int name) {
  double ms = cutil_timers[name].total_ms;
  if (cutil_timers[name].running) ms += cutil_now_ms() - cutil_timers[name].started_ms;
  return (float)ms;
}

/* Command line: --name (a flag) and --name=value, with one or two leading dashes. */
static const char* cutil_find_argument(int argc, const char** argv, const char* name) {
  for (int i = 1; i < argc; ++i) {
    const char* text = argv[i];
    while (*text == '-') ++text;
    const size_t length = strlen(name);
    if (text != argv[i] && strncmp(text, name, length) == 0 &&
        (text[length] == '\0' || text[length] == '='))
      return text + length;
  }
  return NULL;
}
static CUTBoolean cutCheckCmdLineFlag(int argc, const char** argv, const char* name) {
  return cutil_find_argument(argc, argv, name) ? CUTTrue : CUTFalse;
}
static CUTBoolean cutGetCmdLineArgumenti(int argc, const char** argv, const char* name,
                                         int* value) {
  const char* found = cutil_find_argument(argc, argv, name);
  if (!found || *found != '=') return CUTFalse;
  *value = atoi(found + 1);
  return CUTTrue;
}

#endif
