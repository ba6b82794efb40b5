// Sums of the access counters, field by field from the counter table.
#include "memcarlo/sim/counters.hpp"

namespace memcarlo::sim {

AccessCounters& AccessCounters::operator+=(const AccessCounters& other) {
  for_each_access_counter([&](auto member) { this->*member += other.*member; });
  return *this;
}

}  // namespace memcarlo::sim
