// What a crash in emulated device code says: a SIGSEGV or SIGBUS raised while a CUDA thread runs
// is reported with the kernel, block and thread and what the faulting address is (null, the fiber
// stack's guard page, device address space outside every allocation, or host memory), and the
// process then ends with the signal as before. Faults outside kernels go to the handler that was
// installed before (the default one: the process ends with the signal).
#pragma once

namespace memcarlo::host::detail {

/// Installs the SIGSEGV and SIGBUS handlers, once per process (at the first launch).
void install_crash_handler();

/// Gives the calling OS thread an alternate signal stack unless it has one: the handler must run
/// when a fiber overflows its own stack. Called once per OS thread that runs blocks.
void ensure_signal_stack();

}  // namespace memcarlo::host::detail
