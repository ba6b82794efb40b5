// Starting a command in a process group of its own and killing the whole group with SIGKILL after
// a delay, for the tests that check what a killed run leaves behind.
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

extern char** environ;

namespace memcarlo::test_support {

struct KillResult {
  bool started = false;
  bool killed = false;  // false: the command had already exited (status in exit_code)
  int exit_code = -1;
};

/// Runs `command` with /bin/sh -c (output to /dev/null) in a new process group; after `delay`
/// kills the group with SIGKILL unless it has exited by then.
inline KillResult run_and_kill_after(const std::string& command, std::chrono::milliseconds delay) {
  KillResult result;
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const std::string quiet = command + " >/dev/null 2>&1";
  const char* argv[] = {"/bin/sh", "-c", quiet.c_str(), nullptr};
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, "/bin/sh", nullptr, &attributes, const_cast<char* const*>(argv), environ);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    return result;
  }
  result.started = true;
  const auto deadline = std::chrono::steady_clock::now() + delay;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      ::kill(-pid, SIGKILL);  // anything it left running in its group
      return result;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(-pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  result.killed = true;
  return result;
}

}  // namespace memcarlo::test_support
