// The program's variables by name and by address, from the ELF symbol tables of the executable and
// the shared objects it loaded: what cudaMemcpyToSymbol("name", ...) (CUDA 2-4) and
// cudaMemcpyToSymbol((const void*)&variable, ...) need to find a __device__ or __constant__
// variable, which on the host backend is an ordinary global.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace memcarlo::host::detail {

struct VariableSymbol {
  void* address = nullptr;
  std::size_t size = 0;
};

/// What looking up a name found.
struct NameLookup {
  std::optional<VariableSymbol> variable;
  std::size_t candidates = 0;  // variables of that name (more than one: local to several units)
};

/// The variable (an ELF object symbol) named `name`: by its symbol name, else by its demangled
/// name (`ns::table`). The executable's table is read on first use, the shared objects' only when
/// the executable has no such variable. Thread-safe.
NameLookup find_variable_by_name(std::string_view name);

/// The variable that starts at `address`, if the symbol tables know one.
std::optional<VariableSymbol> find_variable_at(const void* address);

}  // namespace memcarlo::host::detail
