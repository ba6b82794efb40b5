// Stand-in for Thrust's <thrust/system/detail/sequential/get_value.h> on the host backend: the
// same read of a device_reference (Thrust's C++ device system dispatches to it), recorded (see
// memcarlo_trace.h).
#pragma once

#include <thrust/detail/config.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/system/detail/sequential/execution_policy.h>

#include "memcarlo_trace.h"

THRUST_NAMESPACE_BEGIN
namespace system {
namespace detail {
namespace sequential {

template <typename DerivedPolicy, typename Pointer>
__host__ __device__ typename thrust::iterator_value<Pointer>::type get_value(
    sequential::execution_policy<DerivedPolicy>&, Pointer ptr) {
  const auto* address = thrust::raw_pointer_cast(ptr);
  ::memcarlo_thrust_detail::record(address, ::memcarlo_thrust_detail::reference_read);
  return *address;
}

}  // namespace sequential
}  // namespace detail
}  // namespace system
THRUST_NAMESPACE_END
