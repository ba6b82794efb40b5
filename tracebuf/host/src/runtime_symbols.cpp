// The symbol calls that name a __device__ or __constant__ variable by a string (CUDA 2-4:
// cudaMemcpyToSymbol("coefficients", ...)) or give its address (the C API): both find the variable
// in the program's symbol tables. The templates that take the variable itself are in symbols.h.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file
// are CUDA's.
#include <cstdio>
#include <cstring>
#include <string>

#include "api_errors.hpp"
#include "memcarlo/host/detail/reports.h"
#include "memcarlo/host/detail/symbols.h"
#include "symbol_table.hpp"

namespace memcarlo::host::detail {
namespace {

/// The variable a `const char*` symbol argument means: normally the variable it names; but when
/// it points at the start of a variable whose characters name no variable, that variable itself
/// (a `__constant__ const char table[]` passed as the symbol). Ends the program when there is none.
VariableSymbol variable_named(const char* symbol, const char* call, CallSite where) {
  if (symbol == nullptr) {
    invalid_use((std::string(call) + "(NULL, ...): the symbol is a null pointer").c_str(), where);
  }
  if (const std::optional<VariableSymbol> at = find_variable_at(symbol)) {
    const std::size_t length = strnlen(symbol, at->size);
    if (length == at->size ||
        find_variable_by_name(std::string_view(symbol, length)).candidates == 0) {
      return *at;
    }
  }
  const NameLookup lookup = find_variable_by_name(symbol);
  if (lookup.variable) {
    return *lookup.variable;
  }
  const std::string quoted = std::string(call) + "(\"" + symbol + "\", ...): ";
  if (lookup.candidates > 1) {
    invalid_use((quoted + std::to_string(lookup.candidates) + " variables are named " + symbol +
                 " (static variables of different source files); pass the variable itself "
                 "instead of its name")
                    .c_str(),
                where);
  }
  invalid_use((quoted + "the program has no __device__ or __constant__ variable named " + symbol +
               " (the host backend finds a variable named by a string in the executable's symbol "
               "table, which a stripped executable lacks)")
                  .c_str(),
              where);
}

/// The variable starting at `symbol` (the C API's `const void*` symbol argument).
VariableSymbol variable_at(const void* symbol, const char* call, CallSite where) {
  if (const std::optional<VariableSymbol> at = find_variable_at(symbol)) {
    return *at;
  }
  char text[160];
  std::snprintf(text, sizeof text,
                "%s(%p, ...): the symbol is not the address of a __device__ or __constant__ "
                "variable of the program",
                call, symbol);
  invalid_use(text, where);
}

cudaError_t copy_to(const VariableSymbol& variable, const void* source, std::size_t count,
                    std::size_t offset, cudaMemcpyKind kind) {
  if (offset > variable.size || count > variable.size - offset) {
    return api_result(cudaErrorInvalidValue);
  }
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault) {
    return api_result(cudaErrorInvalidMemcpyDirection);
  }
  std::memmove(static_cast<char*>(variable.address) + offset, source, count);
  return cudaSuccess;
}

cudaError_t copy_from(void* destination, const VariableSymbol& variable, std::size_t count,
                      std::size_t offset, cudaMemcpyKind kind) {
  if (offset > variable.size || count > variable.size - offset) {
    return api_result(cudaErrorInvalidValue);
  }
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault) {
    return api_result(cudaErrorInvalidMemcpyDirection);
  }
  std::memmove(destination, static_cast<const char*>(variable.address) + offset, count);
  return cudaSuccess;
}

cudaError_t address_of(void** address, const VariableSymbol& variable) {
  if (address == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  register_symbol(variable.address, variable.size);
  *address = variable.address;
  return cudaSuccess;
}

cudaError_t size_of(std::size_t* size, const VariableSymbol& variable) {
  if (size == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *size = variable.size;
  return cudaSuccess;
}

}  // namespace
}  // namespace memcarlo::host::detail

using memcarlo::host::CallSite;
using memcarlo::host::detail::variable_at;
using memcarlo::host::detail::variable_named;

cudaError_t cudaMemcpyToSymbol(const char* symbol, const void* source, std::size_t count,
                               std::size_t offset, cudaMemcpyKind kind, CallSite where) {
  return memcarlo::host::detail::copy_to(variable_named(symbol, "cudaMemcpyToSymbol", where),
                                         source, count, offset, kind);
}
cudaError_t cudaMemcpyToSymbolAsync(const char* symbol, const void* source, std::size_t count,
                                    std::size_t offset, cudaMemcpyKind kind, cudaStream_t,
                                    CallSite where) {
  return memcarlo::host::detail::copy_to(variable_named(symbol, "cudaMemcpyToSymbolAsync", where),
                                         source, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbol(void* destination, const char* symbol, std::size_t count,
                                 std::size_t offset, cudaMemcpyKind kind, CallSite where) {
  return memcarlo::host::detail::copy_from(
      destination, variable_named(symbol, "cudaMemcpyFromSymbol", where), count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbolAsync(void* destination, const char* symbol, std::size_t count,
                                      std::size_t offset, cudaMemcpyKind kind, cudaStream_t,
                                      CallSite where) {
  return memcarlo::host::detail::copy_from(
      destination, variable_named(symbol, "cudaMemcpyFromSymbolAsync", where), count, offset, kind);
}
cudaError_t cudaGetSymbolAddress(void** address, const char* symbol, CallSite where) {
  return memcarlo::host::detail::address_of(address,
                                            variable_named(symbol, "cudaGetSymbolAddress", where));
}
cudaError_t cudaGetSymbolSize(std::size_t* size, const char* symbol, CallSite where) {
  return memcarlo::host::detail::size_of(size, variable_named(symbol, "cudaGetSymbolSize", where));
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* source, std::size_t count,
                               std::size_t offset, cudaMemcpyKind kind, CallSite where) {
  return memcarlo::host::detail::copy_to(variable_at(symbol, "cudaMemcpyToSymbol", where), source,
                                         count, offset, kind);
}
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* source, std::size_t count,
                                    std::size_t offset, cudaMemcpyKind kind, cudaStream_t,
                                    CallSite where) {
  return memcarlo::host::detail::copy_to(variable_at(symbol, "cudaMemcpyToSymbolAsync", where),
                                         source, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbol(void* destination, const void* symbol, std::size_t count,
                                 std::size_t offset, cudaMemcpyKind kind, CallSite where) {
  return memcarlo::host::detail::copy_from(
      destination, variable_at(symbol, "cudaMemcpyFromSymbol", where), count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbolAsync(void* destination, const void* symbol, std::size_t count,
                                      std::size_t offset, cudaMemcpyKind kind, cudaStream_t,
                                      CallSite where) {
  return memcarlo::host::detail::copy_from(
      destination, variable_at(symbol, "cudaMemcpyFromSymbolAsync", where), count, offset, kind);
}
cudaError_t cudaGetSymbolAddress(void** address, const void* symbol, CallSite where) {
  return memcarlo::host::detail::address_of(address,
                                            variable_at(symbol, "cudaGetSymbolAddress", where));
}
cudaError_t cudaGetSymbolSize(std::size_t* size, const void* symbol, CallSite where) {
  return memcarlo::host::detail::size_of(size, variable_at(symbol, "cudaGetSymbolSize", where));
}
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
