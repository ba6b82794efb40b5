// The SIGSEGV/SIGBUS handler of the host runtime. It runs on an alternate stack (a fiber that
// overflowed its stack has none left) and does only async-signal-safe work: it formats into a
// fixed buffer, reads the running CUDA thread's state and the launch's immutable allocation
// snapshot, and writes one line with write(2). Then it restores the default action and returns,
// so that the faulting instruction runs again and the process ends with the signal, as it would
// have without the handler (memcarlo run and shells then say "killed by signal 11").
#include "crash_handler.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "allocation_registry.hpp"
#include "block_runner.hpp"
#include "diagnostics.hpp"

namespace memcarlo::host::detail {
namespace {

struct sigaction previous_segv {};
struct sigaction previous_bus {};
std::uint64_t page_bytes = 4096;
DeviceWindow device_window_at_install;

/// A message built without allocating: what a signal handler may do.
class SignalText {
 public:
  SignalText& text(const char* part) {
    while (part != nullptr && *part != '\0' && used_ < sizeof buffer_ - 1) {
      buffer_[used_++] = *part++;
    }
    return *this;
  }
  SignalText& number(std::uint64_t value) {
    char digits[24];
    int count = 0;
    do {
      digits[count++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (count > 0 && used_ < sizeof buffer_ - 1) {
      buffer_[used_++] = digits[--count];
    }
    return *this;
  }
  SignalText& hex(std::uint64_t value) {
    text("0x");
    char digits[24];
    int count = 0;
    do {
      digits[count++] = "0123456789abcdef"[value % 16];
      value /= 16;
    } while (value != 0);
    while (count > 0 && used_ < sizeof buffer_ - 1) {
      buffer_[used_++] = digits[--count];
    }
    return *this;
  }
  SignalText& triple(const uint3& value) {
    return text("(").number(value.x).text(",").number(value.y).text(",").number(value.z).text(")");
  }
  void write_line() {
    buffer_[used_++] = '\n';
    const char* at = buffer_;
    std::size_t left = used_;
    while (left > 0) {
      const ssize_t written = ::write(STDERR_FILENO, at, left);
      if (written <= 0) {
        return;
      }
      at += written;
      left -= static_cast<std::size_t>(written);
    }
  }

 private:
  char buffer_[1536];
  std::size_t used_ = 0;
};

/// Says what `address` is, as far as the running CUDA thread and its launch tell.
void describe_fault_address(SignalText& message, const ThreadState& thread, std::uint64_t address) {
  const auto stack_bottom = reinterpret_cast<std::uint64_t>(thread.stack.bottom);
  if (address < 65536) {
    message.text("a null pointer was dereferenced (address ").hex(address).text(")");
    return;
  }
  if (stack_bottom != 0 && address < stack_bottom && address >= stack_bottom - page_bytes) {
    message.text("the CUDA thread overflowed its ")
        .number(thread.stack.size / 1024)
        .text(
            " KiB stack (deep recursion or large local arrays; MEMCARLO_FIBER_STACK_KB sets "
            "the size)");
    return;
  }
  const DeviceWindow& window = device_window_at_install;
  if (address - window.begin < window.size) {
    message.text("address ")
        .hex(address)
        .text(
            " is device address space outside every live "
            "allocation");
    const DeviceRanges* ranges = thread.launch->device_ranges.get();
    if (ranges != nullptr && !ranges->bases.empty()) {
      // The allocation whose end lies closest below, or else the first above.
      std::size_t nearest = 0;
      for (std::size_t i = 0; i < ranges->bases.size() && ranges->bases[i] <= address; ++i) {
        nearest = i;
      }
      message.text("; the nearest allocation is ");
      if (ranges->names[nearest].empty()) {
        message.text("an unnamed one");
      } else {
        message.text("'").text(ranges->names[nearest].c_str()).text("'");
      }
      const std::uint64_t base = ranges->bases[nearest];
      const std::uint64_t end = ranges->ends[nearest];
      message.text(" (").number(end - base).text(" bytes at ").hex(base).text(")");
      if (address >= end) {
        message.text(", which the address follows by ").number(address - end).text(" bytes");
      } else if (address < base) {
        message.text(", which the address precedes by ").number(base - address).text(" bytes");
      }
    }
    message.text(
        " (a use after cudaFree, or an index out of bounds where the access was not "
        "probed or bounds checks are off)");
    return;
  }
  message.text("address ")
      .hex(address)
      .text(
          " is not device memory (a host pointer or an "
          "uninitialized pointer used by the kernel?)");
}

void chain(int signal_number, siginfo_t* info, void* context) {
  const struct sigaction& previous = signal_number == SIGBUS ? previous_bus : previous_segv;
  if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction != nullptr) {
    previous.sa_sigaction(signal_number, info, context);
    return;
  }
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN &&
      previous.sa_handler != nullptr) {
    previous.sa_handler(signal_number);
    return;
  }
  // Default (or ignored, which a fault cannot be): return to the faulting instruction with the
  // default action in place, so that the process ends with the signal.
  ::signal(signal_number, SIG_DFL);
}

void on_fault(int signal_number, siginfo_t* info, void* context) {
  const ThreadState* thread = current_thread;
  if (thread == nullptr || thread->launch == nullptr) {
    chain(signal_number, info, context);
    return;
  }
  static std::atomic<bool> reported = false;
  if (!reported.exchange(true)) {
    SignalText message;
    message.text("memcarlo host runtime: kernel '")
        .text(thread->launch->request->kernel_name)
        .text("' crashed with ")
        .text(signal_number == SIGBUS ? "SIGBUS" : "SIGSEGV")
        .text(" in block ")
        .triple(thread->builtins.block_idx)
        .text(", thread ")
        .triple(thread->builtins.thread_idx)
        .text(": ");
    describe_fault_address(message, *thread, reinterpret_cast<std::uint64_t>(info->si_addr));
    message.write_line();
  }
  ::signal(signal_number, SIG_DFL);
  // A fault repeats when the handler returns and now ends the process; a signal sent with kill()
  // does not, so raise it again (it is delivered once the handler returns).
  if (info->si_code <= 0) {
    ::raise(signal_number);
  }
}

}  // namespace

void install_crash_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    page_bytes = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    device_window_at_install = allocations().device_window();
    struct sigaction action {};
    action.sa_sigaction = &on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGSEGV, &action, &previous_segv);
    ::sigaction(SIGBUS, &action, &previous_bus);
  });
  ensure_signal_stack();
}

void ensure_signal_stack() {
  thread_local bool done = false;
  if (done) {
    return;
  }
  done = true;
  stack_t current{};
  if (::sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE) == 0) {
    return;  // the thread has one (a sanitizer's, or the program's)
  }
  // Never freed: the OS thread may take a signal until it ends.
  constexpr std::size_t kBytes = 64 * 1024;
  void* memory =
      ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    warn(
        "cannot map an alternate signal stack; a CUDA thread that overflows its stack will not "
        "be named");
    return;
  }
  stack_t stack{};
  stack.ss_sp = memory;
  stack.ss_size = kBytes;
  stack.ss_flags = 0;
  ::sigaltstack(&stack, nullptr);
}

}  // namespace memcarlo::host::detail
