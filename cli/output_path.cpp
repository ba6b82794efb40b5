#include "output_path.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "commands.hpp"

namespace memcarlo::cli {

void check_writable(const std::string& path, const std::string& what) {
  if (path.empty() || path == "-") {
    return;
  }
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw UserError("cannot write the " + what + " to " + path + ": it is a directory", 1);
  }
  const bool existed = std::filesystem::exists(path, ignored);
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "a");  // "a": an existing file keeps its bytes
  if (file == nullptr) {
    throw UserError(write_failure(path, what), 1);
  }
  std::fclose(file);
  if (!existed) {
    std::filesystem::remove(path, ignored);
  }
}

std::string write_failure(const std::string& path, const std::string& what) {
  const int error = errno;
  return "cannot write the " + what + " to " + path +
         (error != 0 ? std::string(": ") + std::strerror(error) : std::string());
}

std::string page_beside(const std::string& report_path) {
  if (report_path.empty() || report_path == "-") {
    return "report.html";
  }
  std::filesystem::path page(report_path);
  page.replace_extension(".html");
  return page.string();
}

}  // namespace memcarlo::cli
