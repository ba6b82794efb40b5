// What memcarlo's stand-ins for Thrust's sequential get_value.h and assign_value.h share on the
// host backend: the reads and writes of a thrust::device_reference (what `ptr[i]` and `*ptr` of a
// thrust::device_ptr give) are recorded, so that a kernel working through a device_ptr is traced
// like one working through a raw pointer. Outside kernels (Thrust's algorithms, host code reading
// a device_vector's elements) the runtime ignores them. They form two static loads of their own
// unit (0x74687221) with address space `unknown` (only device addresses are kept).
#pragma once

#include "memcarlo/probe_api.h"

namespace memcarlo_thrust_detail {

inline constexpr unsigned trace_unit = 0x74687221u;
inline constexpr unsigned reference_read = 0;
inline constexpr unsigned reference_write = 1;
inline constexpr char loads_table[] =
    "[{\"id\":0,\"function\":\"thrust::device_reference\",\"kernels\":[],\"file\":\"thrust/"
    "device_reference.h\",\"line\":0,\"column\":0,\"expression\":\"ptr[i] (a thrust::device_ptr "
    "read)\",\"kind\":\"read\",\"element_type\":\"\",\"element_size\":0,\"base\":\"ptr\","
    "\"address_space\":\"unknown\",\"loop_depth\":1,\"sequence\":0,\"depends_on\":[]},"
    "{\"id\":1,\"function\":\"thrust::device_reference\",\"kernels\":[],\"file\":\"thrust/"
    "device_reference.h\",\"line\":0,\"column\":0,\"expression\":\"ptr[i] = value (a "
    "thrust::device_ptr write)\",\"kind\":\"write\",\"element_type\":\"\",\"element_size\":0,"
    "\"base\":\"ptr\",\"address_space\":\"unknown\",\"loop_depth\":1,\"sequence\":1,"
    "\"depends_on\":[]}]";
/// Registered once per program, by whichever translation unit initializes it first.
inline const ::memcarlo_detail::LoadsRegistrar loads_registrar(trace_unit, loads_table);

template <class Value>
inline void record(const Value* address, unsigned load) {
  (void)&loads_registrar;
  memcarlo_record_access(trace_unit, load, static_cast<const void*>(address), sizeof(Value));
}

}  // namespace memcarlo_thrust_detail
