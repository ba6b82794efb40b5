// The loads tables that instrumented translation units register before main(), concatenated
// into one trace-wide table: (translation unit, local static id) -> trace-wide id.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::host::detail {

inline constexpr std::uint32_t kUnknownLoad = 0xffffffffu;

/// An immutable view for probes: resolves (tu, local id) without locking.
class LoadsIndex {
 public:
  struct Unit {
    unsigned tu = 0;
    std::vector<std::uint32_t> global_ids;  // by local id; kUnknownLoad for ids not in the table
  };

  /// The unit registered as `tu`, or null.
  [[nodiscard]] const Unit* unit(unsigned tu) const;
  /// The trace-wide id, or kUnknownLoad for an unregistered unit or an id outside its table.
  [[nodiscard]] std::uint32_t global_id(unsigned tu, unsigned local_id) const {
    const Unit* u = unit(tu);
    return u != nullptr && local_id < u->global_ids.size() ? u->global_ids[local_id] : kUnknownLoad;
  }
  [[nodiscard]] const std::vector<tracebuf::AccessKind>& kinds() const { return kinds_; }
  /// Distinct for every index the process ever makes (caches compare it, not the address).
  [[nodiscard]] std::uint64_t generation() const { return generation_; }

 private:
  friend class LoadsRegistry;
  std::uint64_t generation_ = 0;
  std::vector<Unit> units_;  // sorted by tu
  std::vector<tracebuf::AccessKind> kinds_;
};

class LoadsRegistry {
 public:
  /// Keeps the JSON text; parsing waits for index() because registration runs during static
  /// initialization, when the JSON parser's own statics may not be constructed yet.
  void add(unsigned tu, const char* json);
  /// Parses what was added since the last call and returns the current index (shared, so that
  /// probes of a running launch keep theirs).
  std::shared_ptr<const LoadsIndex> index();
  /// The concatenated table with trace-wide ids (dependences remapped too).
  std::vector<tracebuf::LoadInfo> table();
  /// The units that registered a loads table.
  std::vector<unsigned> units();

 private:
  void parse_pending();

  std::mutex mutex_;
  std::vector<std::pair<unsigned, std::string>> pending_;
  std::vector<tracebuf::LoadInfo> loads_;
  std::shared_ptr<LoadsIndex> index_;
  std::uint64_t generation_ = 0;
};

/// The process-wide registry (constructed on first use, never destroyed).
LoadsRegistry& loads_registry();

/// The kernels' parameter names that instrumented translation units register before main()
/// (MEMCARLO_REGISTER_KERNEL_PARAMETERS, JSON `[{"kernel": name, "parameters": [name, ...]}]`),
/// so that a traced launch can record its integer and pointer arguments by name (the
/// `kernel_arguments` annotation, docs/footprints.md). Both runtimes use it.
class KernelParameterRegistry {
 public:
  /// Keeps the JSON text (parsed on first lookup, as for the loads tables).
  void add(const char* json);
  /// The parameter names of the kernel a launch names (`axpy<float, 4>` and `ns::axpy` find
  /// `axpy`); nullopt when no unit registered it, or two registered different lists for it.
  std::optional<std::vector<std::string>> names(std::string_view launch_name);
  /// The base names of every kernel with parameters that a unit registered (the instrumenter
  /// registers no kernel without parameters).
  std::vector<std::string> kernels();

 private:
  void parse_pending();  // with mutex_ held

  std::mutex mutex_;
  std::vector<std::string> pending_;
  std::map<std::string, std::optional<std::vector<std::string>>, std::less<>> by_kernel_;
};

KernelParameterRegistry& kernel_parameters();

/// The names that instrumented translation units' launches give the runtime
/// (MEMCARLO_REGISTER_LAUNCHES, JSON `{"launches": [name, ...], "complete": bool}`): every kernel
/// a program can launch, template instances by the name they are launched under (`k<16>`), so
/// that MEMCARLO_STOP_AFTER_TRACE knows which launches to await.
class LaunchNameRegistry {
 public:
  void add(unsigned tu, const char* json);
  /// The names of every launch the program can make, when every unit with a loads table
  /// registered its launches and each of them named every kernel it launches; otherwise nullopt
  /// (a unit instrumented before registrations existed, a launch through a kernel pointer).
  std::optional<std::set<std::string>> all(LoadsRegistry& loads);

 private:
  void parse_pending();  // with mutex_ held

  std::mutex mutex_;
  std::vector<std::pair<unsigned, std::string>> pending_;
  std::set<unsigned> units_;
  std::set<std::string> names_;
  bool complete_ = true;
};

LaunchNameRegistry& launch_names();

/// A kernel's name without template arguments and qualifiers (`ns::axpy<float, 4>` -> `axpy`).
std::string kernel_base_name(std::string_view name);

/// The `kernel_arguments` annotation record of trace launch `launch` (one JSON object): the
/// arguments marked `recorded` (integers and pointers) under their parameter names; nullopt when
/// the names are unknown or their count differs from the arguments'.
std::optional<std::string> kernel_arguments_record(std::uint32_t launch,
                                                   std::string_view kernel_name,
                                                   std::span<const long long> values,
                                                   std::span<const bool> recorded);

}  // namespace memcarlo::host::detail
