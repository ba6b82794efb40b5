// Device symbols: __constant__ and __device__ variables are ordinary globals on the host, so
// cudaMemcpyToSymbol(variable, ...) copies into the variable itself. The CUDA 2-4 form that names
// the variable with a string, cudaMemcpyToSymbol("coefficients", ...), finds it in the program's
// ELF symbol table (docs/host-runtime.md, "Symbols named by strings").
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <cstddef>
#include <cstring>

#include "memcarlo/host/detail/call_site.h"
#include "memcarlo/host/detail/runtime_api.h"

template <class Element>
cudaError_t cudaMemcpyToSymbol(const Element& symbol, const void* source, std::size_t count,
                               std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  if (offset > sizeof(Element) || count > sizeof(Element) - offset) {
    return cudaErrorInvalidValue;
  }
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault) {
    return cudaErrorInvalidMemcpyDirection;
  }
  std::memmove(reinterpret_cast<char*>(const_cast<Element*>(&symbol)) + offset, source, count);
  return cudaSuccess;
}
template <class Element>
cudaError_t cudaMemcpyToSymbolAsync(const Element& symbol, const void* source, std::size_t count,
                                    std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                    cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, source, count, offset, kind);
}
template <class Element>
cudaError_t cudaMemcpyFromSymbol(void* destination, const Element& symbol, std::size_t count,
                                 std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  if (offset > sizeof(Element) || count > sizeof(Element) - offset) {
    return cudaErrorInvalidValue;
  }
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault) {
    return cudaErrorInvalidMemcpyDirection;
  }
  std::memmove(destination, reinterpret_cast<const char*>(&symbol) + offset, count);
  return cudaSuccess;
}
template <class Element>
cudaError_t cudaMemcpyFromSymbolAsync(void* destination, const Element& symbol, std::size_t count,
                                      std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                      cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(destination, symbol, count, offset, kind);
}
namespace memcarlo::host::detail {
void register_symbol(const void* base, std::size_t size);
}  // namespace memcarlo::host::detail

template <class Element>
cudaError_t cudaGetSymbolAddress(void** address, const Element& symbol) {
  ::memcarlo::host::detail::register_symbol(&symbol, sizeof(Element));
  *address = const_cast<Element*>(&symbol);
  return cudaSuccess;
}
template <class Element>
cudaError_t cudaGetSymbolSize(std::size_t* size, const Element&) {
  *size = sizeof(Element);
  return cudaSuccess;
}

// ---- symbols named by strings
// ---------------------------------------------------------------------
//
// As in CUDA 4's cuda_runtime.h, a non-template overload takes `const char*`: overload resolution
// prefers it to the templates above for a string literal or a `const char*` (the conversions tie
// and a non-template wins), while a variable of any other type, `char` arrays included, still
// binds to the templates. A `const char` array that is itself a variable is told from a name at
// run time. The variable is looked up in the program's symbol table; a name that names none ends
// the program with a message that gives the call, the name and the caller's line.

cudaError_t cudaMemcpyToSymbol(const char* symbol, const void* source, std::size_t count,
                               std::size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                               ::memcarlo::host::CallSite where = {});
cudaError_t cudaMemcpyToSymbolAsync(const char* symbol, const void* source, std::size_t count,
                                    std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                    cudaStream_t stream = nullptr,
                                    ::memcarlo::host::CallSite where = {});
cudaError_t cudaMemcpyFromSymbol(void* destination, const char* symbol, std::size_t count,
                                 std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                 ::memcarlo::host::CallSite where = {});
cudaError_t cudaMemcpyFromSymbolAsync(void* destination, const char* symbol, std::size_t count,
                                      std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                      cudaStream_t stream = nullptr,
                                      ::memcarlo::host::CallSite where = {});
cudaError_t cudaGetSymbolAddress(void** address, const char* symbol,
                                 ::memcarlo::host::CallSite where = {});
cudaError_t cudaGetSymbolSize(std::size_t* size, const char* symbol,
                              ::memcarlo::host::CallSite where = {});

// ---- symbols given by address (the C API: cudaMemcpyToSymbol((const void*)&variable, ...)) ------
//
// A `const void*` argument is the variable's address; its extent comes from the symbol table too.
// Without this overload the template above would copy into the temporary pointer.

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* source, std::size_t count,
                               std::size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                               ::memcarlo::host::CallSite where = {});
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* source, std::size_t count,
                                    std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                    cudaStream_t stream = nullptr,
                                    ::memcarlo::host::CallSite where = {});
cudaError_t cudaMemcpyFromSymbol(void* destination, const void* symbol, std::size_t count,
                                 std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                 ::memcarlo::host::CallSite where = {});
cudaError_t cudaMemcpyFromSymbolAsync(void* destination, const void* symbol, std::size_t count,
                                      std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                      cudaStream_t stream = nullptr,
                                      ::memcarlo::host::CallSite where = {});
cudaError_t cudaGetSymbolAddress(void** address, const void* symbol,
                                 ::memcarlo::host::CallSite where = {});
cudaError_t cudaGetSymbolSize(std::size_t* size, const void* symbol,
                              ::memcarlo::host::CallSite where = {});
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
