// Stand-in for Thrust's <thrust/system/detail/sequential/assign_value.h> on the host backend: the
// same write through a device_reference (Thrust's C++ device system dispatches to it), recorded,
// with the read of the source when it is another device_reference rather than a value (see
// memcarlo_trace.h).
#pragma once

#include <thrust/detail/config.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/system/detail/sequential/execution_policy.h>
#include <type_traits>

#include "memcarlo_trace.h"

THRUST_NAMESPACE_BEGIN
namespace system {
namespace detail {
namespace sequential {

template <typename DerivedPolicy, typename Destination, typename Source>
__host__ __device__ void assign_value(sequential::execution_policy<DerivedPolicy>&, Destination dst,
                                      Source src) {
  auto* to = thrust::raw_pointer_cast(dst);
  const auto* from = thrust::raw_pointer_cast(src);
  if constexpr (!std::is_pointer_v<Source>) {  // a device_ptr: a read (a raw one is the value's)
    ::memcarlo_thrust_detail::record(from, ::memcarlo_thrust_detail::reference_read);
  }
  ::memcarlo_thrust_detail::record(to, ::memcarlo_thrust_detail::reference_write);
  *to = *from;
}

}  // namespace sequential
}  // namespace detail
}  // namespace system
THRUST_NAMESPACE_END
