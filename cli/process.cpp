// posix_spawn-based child processes with an extended environment.
#include "process.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>

extern char** environ;

namespace memcarlo::cli {

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& environment,
                          const ProcessIo& io) {
  ProcessResult result;
  if (argv.empty()) {
    result.error = "no program to run";
    return result;
  }
  std::map<std::string, std::string> variables;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto equals = entry.find('=');
    if (equals != std::string::npos) {
      variables[entry.substr(0, equals)] = entry.substr(equals + 1);
    }
  }
  for (const auto& [key, value] : environment) {
    variables[key] = value;
  }
  std::vector<std::string> env_strings;
  for (const auto& [key, value] : variables) {
    env_strings.push_back(key + "=" + value);
  }
  std::vector<char*> env_pointers;
  for (auto& s : env_strings) {
    env_pointers.push_back(s.data());
  }
  env_pointers.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> arg_pointers;
  for (auto& s : args) {
    arg_pointers.push_back(s.data());
  }
  arg_pointers.push_back(nullptr);

  // The working directory and the output file are the child's own (file actions), so that
  // nothing of ours changes while it runs.
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  const bool redirected = !io.output.empty() || !io.working_directory.empty();
  if (!io.output.empty()) {
    ::posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    ::posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, io.output.c_str(),
                                       O_WRONLY | O_CREAT | O_APPEND, 0644);
    ::posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  }
  if (!io.working_directory.empty()) {
    ::posix_spawn_file_actions_addchdir_np(&actions, io.working_directory.c_str());
  }
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0].c_str(), redirected ? &actions : nullptr,
                                     nullptr, arg_pointers.data(), env_pointers.data());
  ::posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    result.error = "cannot run " + args[0] + ": " + std::strerror(spawned);
    return result;
  }
  result.started = true;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.error = std::string("waitpid failed: ") + std::strerror(errno);
      return result;
    }
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

std::string quote_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& arg : argv) {
    if (!out.empty()) {
      out += ' ';
    }
    const bool plain =
        !arg.empty() && arg.find_first_of(" \t\"'\\$`!*?;&|<>()") == std::string::npos;
    if (plain) {
      out += arg;
    } else {
      out += '\'';
      for (char c : arg) {
        if (c == '\'') {
          out += "'\\''";
        } else {
          out += c;
        }
      }
      out += '\'';
    }
  }
  return out;
}

std::string executable_directory() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string(".") : self.parent_path().string();
}

}  // namespace memcarlo::cli
