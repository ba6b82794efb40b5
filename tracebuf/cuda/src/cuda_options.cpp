// MEMCARLO_* variables for the cuda runtime: the host backend's parser for the shared ones, and
// MEMCARLO_CUDA_BUFFER_MB.
#include "cuda_options.hpp"

#include <charconv>
#include <string>
#include <string_view>

#include "cuda_diagnostics.hpp"
#include "host_config.hpp"

namespace memcarlo::cuda::detail {

CudaRuntimeOptions cuda_options_from(const char* (*lookup)(const char* name)) {
  CudaRuntimeOptions options;
  options.common = host::detail::options_from(lookup);
  const char* text = lookup("MEMCARLO_CUDA_BUFFER_MB");
  if (text != nullptr && *text != '\0') {
    const std::string_view value(text);
    std::uint64_t megabytes = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), megabytes);
    constexpr std::uint64_t kMaxMegabytes = std::uint64_t{1} << 20;
    if (error != std::errc() || end != value.data() + value.size() || megabytes == 0 ||
        megabytes > kMaxMegabytes) {
      fatal(kExitConfig, "MEMCARLO_CUDA_BUFFER_MB=\"" + std::string(value) +
                             "\": expected a whole number in [1, " + std::to_string(kMaxMegabytes) +
                             "]");
    }
    options.buffer_bytes = megabytes << 20;
  }
  return options;
}

}  // namespace memcarlo::cuda::detail
