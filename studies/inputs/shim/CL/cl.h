/* A stand-in for <CL/cl.h>, ours: the few OpenCL types that Parboil's common/include/parboil.h
   names in declarations (it includes <CL/cl.h> unconditionally), so that its CUDA programs build
   on a machine without OpenCL. Nothing here is defined or called. */
#ifndef MEMCARLO_STUDY_SHIM_CL_H
#define MEMCARLO_STUDY_SHIM_CL_H
#include <stddef.h>
#include <stdint.h>
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef struct _cl_command_queue* cl_command_queue;
typedef struct _cl_kernel* cl_kernel;
typedef struct _cl_event* cl_event;
typedef struct _cl_mem* cl_mem;
#endif
