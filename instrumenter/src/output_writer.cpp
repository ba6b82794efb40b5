// Output planning (prelude, #line, embedded table, mirroring, patches) and atomic writes.
#include "output_writer.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include "unified_diff.hpp"

namespace memcarlo::instrumenter {

unsigned translation_unit_hash(const std::string& absolute_path) {
  std::uint32_t hash = 2166136261u;
  for (unsigned char c : absolute_path) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

std::string cpp_string_literal(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out + "\"";
}

namespace {

std::string prelude(const std::string& main_file, bool line_directives, bool kernel_thunks) {
  char hash[16];
  std::snprintf(hash, sizeof hash, "%08x", translation_unit_hash(main_file));
  std::string text = "// Instrumented by memcarlo-instrument; probes record global-memory accesses.\n"
                     "#include \"memcarlo/probe_api.h\"\n"
                     "static constexpr unsigned memcarlo_tu = 0x" + std::string(hash) + "u;\n";
  if (kernel_thunks) {
    // A launch whose kernel template is deduced differently in each instantiation or macro
    // expansion: memcarlo_kernel_signature(args...)::thunk(generic lambda) is a plain function of
    // the arguments' types that calls the kernel as the launch did (the host backend runs it).
    text += "#include <type_traits>\n"
            "template <class... Arguments> struct memcarlo_kernel_arguments {\n"
            "  template <class Call> static constexpr auto thunk(Call call) {\n"
            "    return static_cast<void (*)(Arguments...)>(call);\n"
            "  }\n"
            "};\n"
            "template <class... Arguments>\n"
            "memcarlo_kernel_arguments<::std::decay_t<Arguments>...> memcarlo_kernel_signature(\n"
            "    Arguments&&...);\n";
  }
  if (line_directives) text += "#line 1 " + cpp_string_literal(main_file) + "\n";
  return text;
}

std::string epilogue(const std::string& loads_json, const std::string& kernel_parameters_json,
                     const std::string& launches_json) {
  std::string text = "#if !defined(__CUDA_ARCH__)\n"
                     "static const char memcarlo_loads_table_json[] =\n";
  std::istringstream lines(loads_json);
  std::string line;
  while (std::getline(lines, line)) text += "    " + cpp_string_literal(line + "\n") + "\n";
  text += "    ;\nMEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)\n";
  if (!kernel_parameters_json.empty()) {
    // The kernels' parameter names: traced launches record their arguments by name.
    text += "static const char memcarlo_kernel_parameters_json[] =\n";
    std::istringstream entries(kernel_parameters_json);
    while (std::getline(entries, line)) text += "    " + cpp_string_literal(line + "\n") + "\n";
    text += "    ;\nMEMCARLO_REGISTER_KERNEL_PARAMETERS(memcarlo_kernel_parameters_json)\n";
  }
  if (!launches_json.empty()) {
    // The names this unit's launches give the host runtime, which stops a program after the
    // traced launches once each of them had its own (MEMCARLO_STOP_AFTER_TRACE).
    text +=
        "#if defined(MEMCARLO_BACKEND_HOST)\nstatic const char memcarlo_launches_json[] =\n    " +
        cpp_string_literal(launches_json) +
        ";\nMEMCARLO_REGISTER_LAUNCHES(memcarlo_tu, memcarlo_launches_json)\n#endif\n";
  }
  return text + "#endif\n";
}

std::string common_directory(const std::vector<std::string>& files) {
  std::string common = std::string(llvm::sys::path::parent_path(files.front()));
  for (const std::string& file : files) {
    while (!common.empty() &&
           !(file.compare(0, common.size(), common) == 0 &&
             (file.size() == common.size() || file[common.size()] == '/'))) {
      common = std::string(llvm::sys::path::parent_path(common));
    }
  }
  return common;
}

std::string display_path(const std::string& absolute) {
  llvm::SmallString<256> cwd;
  if (!llvm::sys::fs::current_path(cwd)) {
    const std::string prefix = std::string(cwd.str()) + "/";
    if (absolute.compare(0, prefix.size(), prefix) == 0) return absolute.substr(prefix.size());
  }
  return absolute;
}

std::string absolute(const std::string& path) {
  llvm::SmallString<256> result(path);
  llvm::sys::fs::make_absolute(result);
  llvm::sys::path::remove_dots(result, true);
  return std::string(result.str());
}
}  // namespace

std::map<std::string, std::string> plan_outputs(const OutputRequest& request,
                                                std::vector<std::string>& errors) {
  const InstrumentOptions& options = request.options;
  std::vector<std::string> files = {request.main_file};
  for (const auto& [file, text] : request.rewritten) {
    if (file != request.main_file) files.push_back(file);
  }
  auto final_text = [&](const std::string& file, bool line_directives) {
    const auto rewritten = request.rewritten.find(file);
    const std::string& body = rewritten != request.rewritten.end()
                                  ? rewritten->second
                                  : request.originals.at(file);
    if (file != request.main_file) {
      return line_directives ? "#line 1 " + cpp_string_literal(file) + "\n" + body : body;
    }
    std::string text = prelude(file, line_directives, request.kernel_thunks) + body;
    if (!text.empty() && text.back() != '\n') text += "\n";
    return text +
           epilogue(request.loads_json, request.kernel_parameters_json, request.launches_json);
  };

  std::map<std::string, std::string> outputs;
  if (options.patch) {
    std::string patch;
    for (const std::string& file : files) {
      patch += unified_diff(display_path(file), request.originals.at(file), final_text(file, false));
    }
    outputs[options.output.empty() ? "-" : options.output] = patch;
    return outputs;
  }
  if (options.output_dir.empty()) {
    for (size_t i = 1; i < files.size(); ++i) {
      errors.push_back(files[i] + ": error: this file holds device code of the translation unit " +
                       "and must be rewritten too; use --output-dir DIR to write every rewritten "
                       "file (mirrored so that includes still resolve)");
    }
    if (!errors.empty()) return {};
    if (options.output.empty()) {
      errors.push_back("error: no output: give -o FILE, --output-dir DIR or --patch");
      return {};
    }
    outputs[options.output] = final_text(request.main_file, options.line_directives);
  } else {
    const std::string root = common_directory(files);
    for (const std::string& file : files) {
      llvm::SmallString<256> target(options.output_dir);
      llvm::sys::path::append(target, llvm::StringRef(file).drop_front(root.size()));
      outputs[std::string(target.str())] = final_text(file, options.line_directives);
    }
    if (!options.output.empty()) {
      const std::string mirrored =
          std::string(options.output_dir) + request.main_file.substr(root.size());
      llvm::SmallString<256> normal(mirrored);
      llvm::sys::path::remove_dots(normal, true);
      outputs.erase(std::string(normal.str()));
      outputs[options.output] = final_text(request.main_file, options.line_directives);
    }
  }
  for (const auto& [path, content] : outputs) {
    if (request.originals.count(absolute(path)) != 0) {
      errors.push_back(path + ": error: refusing to overwrite an input file");
    }
  }
  if (!errors.empty()) return {};
  return outputs;
}

bool write_outputs(const std::map<std::string, std::string>& outputs,
                   std::vector<std::string>& errors) {
  std::vector<std::pair<std::string, std::string>> staged;  // temporary -> final
  const std::string suffix = ".memcarlo-tmp." + std::to_string(llvm::sys::Process::getProcessId());
  for (const auto& [path, content] : outputs) {
    if (path == "-") {
      std::cout << content;
      continue;
    }
    const llvm::StringRef parent = llvm::sys::path::parent_path(path);
    if (!parent.empty()) {
      if (std::error_code error = llvm::sys::fs::create_directories(parent)) {
        errors.push_back(path + ": error: cannot create directory: " + error.message());
        break;
      }
    }
    const std::string temporary = path + suffix;
    std::ofstream out(temporary, std::ios::binary);
    out << content;
    out.close();
    if (!out) {
      errors.push_back(path + ": error: cannot write");
      std::remove(temporary.c_str());
      break;
    }
    staged.emplace_back(temporary, path);
  }
  if (!errors.empty()) {
    for (const auto& [temporary, path] : staged) std::remove(temporary.c_str());
    return false;
  }
  for (const auto& [temporary, path] : staged) {
    if (std::error_code error = llvm::sys::fs::rename(temporary, path)) {
      errors.push_back(path + ": error: cannot write: " + error.message());
      std::remove(temporary.c_str());
    }
  }
  return errors.empty();
}

}  // namespace memcarlo::instrumenter
