// Runs the access walker over every instrumented device function of a translation unit.
#include "device_analysis.hpp"

#include <set>
#include <utility>

#include "access_walker.hpp"
#include "ast_helpers.hpp"
#include "clang/AST/Attr.h"
#include "device_code.hpp"
#include "dynamic_shared.hpp"

namespace memcarlo::instrumenter {

DeviceFacts analyze_device_code(clang::ASTContext& context, Backend backend,
                                const std::string& toolkit) {
  DeviceFacts facts;
  const DeviceCode device(context, toolkit);
  std::int64_t next_sequence = 0;
  WalkContext walk{context,      device,        toolkit,           backend,
                   facts.sites,  next_sequence, facts.errors,      facts.other_skips,
                   facts.declaration_edits};
  for (const clang::FunctionDecl* function : device.functions()) {
    const std::size_t first = facts.sites.size();
    AccessWalker(walk, *function).run();
    const std::set<std::string> kernels = device.kernels_reaching(function);
    for (std::size_t i = first; i < facts.sites.size(); ++i) facts.sites[i].kernels = kernels;
  }
  std::set<std::pair<std::string, std::vector<std::string>>> kernels;
  for (const clang::FunctionDecl* function : device.functions()) {
    if (!function->hasAttr<clang::CUDAGlobalAttr>() || function->param_empty()) continue;
    std::vector<std::string> names;
    for (const clang::ParmVarDecl* parameter : function->parameters()) {
      names.push_back(parameter->getName().str());
    }
    kernels.emplace(function_name(function), std::move(names));
  }
  for (const auto& [kernel, names] : kernels) {
    std::string entry = "{\"kernel\": \"" + kernel + "\", \"parameters\": [";
    for (std::size_t i = 0; i < names.size(); ++i) {
      entry += (i == 0 ? "\"" : ", \"") + names[i] + "\"";
    }
    facts.kernel_parameters_json +=
        (facts.kernel_parameters_json.empty() ? "[" : ",\n ") + entry + "]}";
  }
  if (!facts.kernel_parameters_json.empty()) facts.kernel_parameters_json += "]";
  if (backend == Backend::kHost) {
    rewrite_file_scope_dynamic_shared(context, device, toolkit, facts.declaration_edits,
                                      facts.errors);
  }
  for (AccessSite& site : facts.sites) {
    site.expr = nullptr;  // the AST does not outlive the parse
    site.root_decl = nullptr;
  }
  return facts;
}

}  // namespace memcarlo::instrumenter
