// memcarlo-instrument: command-line front end of memcarlo::instrumenter_core.
#include <iostream>
#include <string>
#include <vector>

#include "memcarlo/instrumenter/include_flags.hpp"
#include "memcarlo/instrumenter/instrument.hpp"

namespace {
constexpr const char* kUsage =
    "usage: memcarlo-instrument FILE.cu (-o OUT.cu | --output-dir DIR | --patch [-o FILE.patch])\n"
    "                           [--loads LOADS.json] [--backend host|cuda] [--verbose]\n"
    "                           [--parse-order toolkit,builtin] [--cuda-path DIR] [-p BUILD_DIR]\n"
    "                           [--no-line-directives] [-- COMPILE_FLAGS...]\n"
    "       memcarlo-instrument --print-include-flags [--backend host|cuda]\n"
    "\n"
    "Inserts a probe before every global-memory access of the CUDA device code in FILE.cu (and\n"
    "in the user headers it includes), rewrites kernel launches for the chosen backend and\n"
    "writes the loads table. COMPILE_FLAGS may be nvcc or clang flags (-I, -D, -arch, -std).\n";

int usage_error(const std::string& message) {
  std::cerr << "memcarlo-instrument: error: " << message << "\n" << kUsage;
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  using memcarlo::instrumenter::Backend;
  using memcarlo::instrumenter::ParseSetup;
  memcarlo::instrumenter::InstrumentOptions options;
  bool print_flags = false;
  std::vector<std::string> arguments(argv + 1, argv + argc);
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= arguments.size()) return false;
      out = arguments[++i];
      return true;
    };
    std::string text;
    if (argument == "--") {
      options.compile_flags.assign(arguments.begin() + static_cast<long>(i) + 1, arguments.end());
      break;
    } else if (argument == "-h" || argument == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (argument == "-o") {
      if (!value(options.output)) return usage_error("-o needs a file");
    } else if (argument == "--output-dir") {
      if (!value(options.output_dir)) return usage_error("--output-dir needs a directory");
    } else if (argument == "--loads") {
      if (!value(options.loads_path)) return usage_error("--loads needs a file");
    } else if (argument == "--backend") {
      if (!value(text) || (text != "host" && text != "cuda")) {
        return usage_error("--backend takes host or cuda");
      }
      options.backend = text == "host" ? Backend::kHost : Backend::kCuda;
    } else if (argument == "--parse-order") {
      if (!value(text)) return usage_error("--parse-order needs a list");
      options.setup_order.clear();
      size_t start = 0;
      while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma - start);
        if (item == "toolkit") {
          options.setup_order.push_back(ParseSetup::kToolkit);
        } else if (item == "builtin") {
          options.setup_order.push_back(ParseSetup::kBuiltin);
        } else {
          return usage_error("--parse-order takes toolkit and/or builtin, got '" + item + "'");
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else if (argument == "--cuda-path") {
      if (!value(options.cuda_path)) return usage_error("--cuda-path needs a directory");
    } else if (argument == "-p") {
      if (!value(options.compilation_database_dir)) return usage_error("-p needs a directory");
    } else if (argument == "--patch") {
      options.patch = true;
    } else if (argument == "--no-line-directives") {
      options.line_directives = false;
    } else if (argument == "--verbose" || argument == "-v") {
      options.verbose = true;
    } else if (argument == "--print-include-flags") {
      print_flags = true;
    } else if (!argument.empty() && argument[0] == '-') {
      return usage_error("unknown option " + argument);
    } else if (options.input.empty()) {
      options.input = argument;
    } else {
      return usage_error("more than one input file (" + options.input + ", " + argument + ")");
    }
  }
  if (print_flags) {
    std::cout << memcarlo::instrumenter::include_flags(
                     options.backend, memcarlo::instrumenter::executable_path(argv[0]))
              << "\n";
    return 0;
  }
  if (options.input.empty()) return usage_error("no input file");
  if (options.output.empty() && options.output_dir.empty() && !options.patch) {
    return usage_error("give -o FILE, --output-dir DIR or --patch");
  }
  return memcarlo::instrumenter::run_instrument(options, std::cerr);
}
