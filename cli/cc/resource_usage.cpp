// Registers and static shared memory per kernel from `nvcc --resource-usage` (ptxas) output, in
// the format the host runtime reads from MEMCARLO_KERNEL_RESOURCES.
#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>

#include "cc_driver.hpp"

namespace memcarlo::cli::cc {

std::string parse_resource_usage(const std::string& ptxas_output) {
  // ptxas info    : Function properties for _Z4spmvPKfPf
  // ptxas info    : Used 18 registers, 2048 bytes smem, 376 bytes cmem[0]
  // std::regex is avoided on purpose: GCC 12 reports false maybe-uninitialized warnings inside
  // <regex> under -fsanitize, which -Werror turns into a failed build.
  std::map<std::string, std::pair<unsigned, unsigned>> kernels;
  std::string current;
  std::istringstream lines(ptxas_output);
  std::string line;
  const auto number_before = [](const std::string& text, std::size_t end, unsigned& value) {
    std::size_t begin = end;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(text[begin - 1])) != 0) {
      --begin;
    }
    if (begin == end) {
      return false;
    }
    value = static_cast<unsigned>(std::stoul(text.substr(begin, end - begin)));
    return true;
  };
  while (std::getline(lines, line)) {
    static constexpr std::string_view kFunction = "Function properties for ";
    if (const auto at = line.find(kFunction); at != std::string::npos) {
      const auto begin = at + kFunction.size();
      const auto end = line.find_first_of(" \t\r", begin);
      current = line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
      continue;
    }
    const auto used = line.find("Used ");
    const auto reg = line.find(" registers", used == std::string::npos ? 0 : used);
    unsigned registers = 0;
    if (current.empty() || used == std::string::npos || reg == std::string::npos ||
        !number_before(line, reg, registers)) {
      continue;
    }
    {
      unsigned shared = 0;
      if (const auto smem = line.find(" bytes smem", reg); smem != std::string::npos) {
        number_before(line, smem, shared);
      }
      int status = 0;
      std::unique_ptr<char, decltype(&std::free)> demangled(
          abi::__cxa_demangle(current.c_str(), nullptr, nullptr, &status), &std::free);
      std::string name = status == 0 && demangled ? demangled.get() : current;
      // "void kernel<float>(float*, int)" -> "kernel<float>"
      const auto paren = name.find('(');
      if (paren != std::string::npos) {
        name = name.substr(0, paren);
      }
      int depth = 0;
      std::size_t start = 0;
      for (std::size_t i = 0; i < name.size(); ++i) {
        depth += name[i] == '<' ? 1 : name[i] == '>' ? -1 : 0;
        if (name[i] == ' ' && depth == 0) {
          start = i + 1;
        }
      }
      name = name.substr(start);
      auto& entry = kernels[name];
      entry.first = std::max(entry.first, registers);
      entry.second = std::max(entry.second, shared);
      current.clear();
    }
  }
  std::string out;
  for (const auto& [name, resources] : kernels) {
    if (name.find_first_of(":,") != std::string::npos) {
      continue;  // the runtime's list format cannot carry these; the default applies
    }
    out += (out.empty() ? "" : ",") + name + ":" + std::to_string(resources.first) + ":" +
           std::to_string(resources.second);
  }
  return out;
}

}  // namespace memcarlo::cli::cc
