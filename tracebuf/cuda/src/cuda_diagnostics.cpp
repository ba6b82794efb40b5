// The cuda runtime's name in the message lines that the code shared with the host backend prints
// (tracebuf/host/src/runtime_messages.cpp, compiled into this runtime too).
#include "cuda_diagnostics.hpp"

namespace memcarlo::host::detail {

std::string_view runtime_name() {
  return "memcarlo cuda runtime";
}

}  // namespace memcarlo::host::detail
