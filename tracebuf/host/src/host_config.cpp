// MEMCARLO_* environment variables -> RuntimeOptions. Every malformed value is reported with the
// variable's name, the text found and what was expected; nothing falls back silently.
#include "host_config.hpp"

#include <charconv>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

#include "diagnostics.hpp"

namespace memcarlo::host {
namespace detail {
namespace {

[[noreturn]] void bad_value(const char* name, std::string_view text, std::string_view expected) {
  fatal(kExitConfig,
        std::string(name) + "=\"" + std::string(text) + "\": expected " + std::string(expected));
}

std::uint64_t parse_unsigned(const char* name, std::string_view text, std::uint64_t minimum,
                             std::uint64_t maximum) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < minimum ||
      value > maximum) {
    bad_value(
        name, text,
        "a whole number in [" + std::to_string(minimum) + ", " + std::to_string(maximum) + "]");
  }
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) {
      return parts;
    }
    text.remove_prefix(at + 1);
  }
}

/// Kernel names separated by commas, where a comma inside `<...>` or `(...)` belongs to a
/// template instance's name (`reduce<float, 256>`).
std::vector<std::string_view> split_kernel_names(std::string_view text) {
  std::vector<std::string_view> names;
  int depth = 0;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    depth += (c == '<' || c == '(') ? 1 : (c == '>' || c == ')') && depth > 0 ? -1 : 0;
    if (c == ',' && depth == 0) {
      names.push_back(text.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  names.push_back(text.substr(begin));
  return names;
}

class Environment {
 public:
  explicit Environment(const char* (*lookup)(const char*)) : lookup_(lookup) {}

  const char* raw(const char* name) const {
    const char* value = lookup_(name);
    return (value != nullptr && *value != '\0') ? value : nullptr;
  }
  template <class T>
  void read(const char* name, T& field, std::uint64_t minimum = 1,
            std::uint64_t maximum = std::numeric_limits<T>::max()) const {
    if (const char* text = raw(name)) {
      field = static_cast<T>(parse_unsigned(name, text, minimum, maximum));
    }
  }

 private:
  const char* (*lookup_)(const char*);
};

void read_kernel_resources(const char* name, std::string_view text, RuntimeOptions& options) {
  for (std::string_view entry : split(text, ',')) {
    const std::vector<std::string_view> fields = split(entry, ':');
    if (fields.size() != 3 || fields[0].empty()) {
      bad_value(name, text,
                "comma-separated KERNEL:REGISTERS_PER_THREAD:STATIC_SHARED_BYTES entries");
    }
    KernelResources resources;
    resources.kernel = std::string(fields[0]);
    resources.registers_per_thread =
        static_cast<std::uint32_t>(parse_unsigned(name, fields[1], 0, 255));
    resources.static_shared_bytes = parse_unsigned(name, fields[2], 0, std::uint64_t{1} << 32);
    options.kernel_resources.push_back(std::move(resources));
  }
}

}  // namespace

RuntimeOptions options_from(const char* (*lookup)(const char*)) {
  const Environment env(lookup);
  RuntimeOptions options;
  if (const char* path = env.raw("MEMCARLO_TRACE")) {
    options.trace_path = path;
  }
  if (const char* kernels = env.raw("MEMCARLO_KERNEL")) {
    for (std::string_view kernel : split_kernel_names(kernels)) {
      if (kernel.empty()) {
        bad_value("MEMCARLO_KERNEL", kernels, "comma-separated kernel names");
      }
      options.kernels.emplace_back(kernel);
    }
  }
  if (const char* launch = env.raw("MEMCARLO_LAUNCH")) {
    options.first_launch_with_records = false;  // the user chose
    if (std::string_view(launch) == "all") {
      options.launch.reset();
    } else {
      options.launch =
          parse_unsigned("MEMCARLO_LAUNCH", launch, 0, std::numeric_limits<std::uint32_t>::max());
    }
  }
  env.read("MEMCARLO_SNAPSHOT_FACTOR", options.snapshot_factor, 1, 1u << 20);
  env.read("MEMCARLO_SNAPSHOT_FIRST_BLOCK", options.snapshot_first_block, 0);
  if (const char* blocks = env.raw("MEMCARLO_SNAPSHOT_BLOCKS")) {
    options.snapshot_blocks = parse_unsigned("MEMCARLO_SNAPSHOT_BLOCKS", blocks, 1,
                                             std::numeric_limits<std::uint32_t>::max());
  }
  DeviceLimits& limits = options.limits;
  env.read("MEMCARLO_SM_COUNT", limits.sm_count, 1, 1u << 16);
  env.read("MEMCARLO_MAX_THREADS_PER_SM", limits.max_threads_per_sm, 32, 1u << 16);
  env.read("MEMCARLO_MAX_BLOCKS_PER_SM", limits.max_blocks_per_sm, 1, 1u << 16);
  env.read("MEMCARLO_MAX_WARPS_PER_SM", limits.max_warps_per_sm, 1, 1u << 16);
  env.read("MEMCARLO_SHARED_BYTES_PER_SM", limits.shared_bytes_per_sm, 0, std::uint64_t{1} << 32);
  env.read("MEMCARLO_REGISTERS_PER_SM", limits.registers_per_sm, 1, 1u << 24);
  env.read("MEMCARLO_MAX_THREADS_PER_BLOCK", limits.max_threads_per_block, 32, 1024);
  env.read("MEMCARLO_SHARED_BYTES_PER_BLOCK", limits.shared_bytes_per_block, 0,
           std::uint64_t{1} << 32);
  env.read("MEMCARLO_REGISTER_ALLOCATION_UNIT", limits.register_allocation_unit, 1, 1u << 16);
  env.read("MEMCARLO_REGISTERS_PER_THREAD", options.default_registers_per_thread, 1, 255);
  if (const char* resources = env.raw("MEMCARLO_KERNEL_RESOURCES")) {
    read_kernel_resources("MEMCARLO_KERNEL_RESOURCES", resources, options);
  }
  if (const char* capability = env.raw("MEMCARLO_COMPUTE_CAPABILITY")) {
    const std::vector<std::string_view> parts = split(capability, '.');
    if (parts.size() != 2) {
      bad_value("MEMCARLO_COMPUTE_CAPABILITY", capability, "MAJOR.MINOR, e.g. 8.0");
    }
    options.compute_major =
        static_cast<int>(parse_unsigned("MEMCARLO_COMPUTE_CAPABILITY", parts[0], 1, 99));
    options.compute_minor =
        static_cast<int>(parse_unsigned("MEMCARLO_COMPUTE_CAPABILITY", parts[1], 0, 9));
  }
  env.read("MEMCARLO_L2_BYTES", options.l2_bytes, 1, std::numeric_limits<int>::max());
  env.read("MEMCARLO_CLOCK_KHZ", options.clock_khz, 1, std::numeric_limits<int>::max());
  env.read("MEMCARLO_THREADS", options.worker_threads, 0, 4096);
  std::uint64_t stack_kib = options.fiber_stack_bytes / 1024;
  env.read("MEMCARLO_FIBER_STACK_KB", stack_kib, 16, 1u << 20);
  options.fiber_stack_bytes = stack_kib * 1024;
  env.read("MEMCARLO_MAX_BLOCK_EVENTS", options.max_block_events, 1024);
  if (const char* verbose = env.raw("MEMCARLO_VERBOSE")) {
    options.verbose = std::string_view(verbose) != "0";
  }
  if (const char* stop = env.raw("MEMCARLO_STOP_AFTER_TRACE")) {
    options.stop_after_trace = parse_unsigned("MEMCARLO_STOP_AFTER_TRACE", stop, 0, 1) == 1;
  }
  if (const char* hierarchy = env.raw("MEMCARLO_HIERARCHY")) {
    options.hierarchy = hierarchy;
  }
  if (const char* bounds = env.raw("MEMCARLO_BOUNDS_CHECK")) {
    options.bounds_check = parse_unsigned("MEMCARLO_BOUNDS_CHECK", bounds, 0, 1) == 1;
  }
  return options;
}

}  // namespace detail

RuntimeOptions options_from_environment() {
  return detail::options_from([](const char* name) -> const char* { return std::getenv(name); });
}

}  // namespace memcarlo::host
