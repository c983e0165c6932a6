#ifndef CCELL_HOST_CELL_THREAD_H
#define CCELL_HOST_CELL_THREAD_H

#include <stddef.h>
#include <stdint.h>

/// A cell's entry point.
typedef int32_t (*bb_cell_entry)(void);

/// Runs `entry` on a new thread with a `stack_bytes` stack and an alternate signal stack,
/// and waits for it. Each cell gets a fresh thread, so thread-local runtime state (the
/// OpenMP thread pool that libtorch's master thread owns) starts clean in every cell and
/// in a forked copy of the host. Returns the entry's result, or -1 when the thread cannot
/// be created (then the entry did not run).
int32_t bb_run_on_cell_thread(bb_cell_entry entry, size_t stack_bytes);

/// Installs handlers for the signals a crashing cell raises (SIGILL and SIGTRAP from a
/// Swift trap, SIGSEGV and SIGBUS, SIGFPE, SIGABRT). Each writes a crash report to the
/// host's crash channel (BB_SEAM_CRASH_DESCRIPTOR, CHostSeam.h): the signal, the Swift
/// runtime's fatal message when there is one, and the crashing thread's frames, one line
/// each; then it lets the signal end the process as it would have. Whatever thread
/// crashes (a cell's, or one a cell left running) reports the same way.
/// Call once, before any cell runs.
void bb_install_crash_reporter(void);

/// Makes this process the one whose crashes are reported (a snapshot copy just promoted to
/// host calls it; a process a cell forks never reports as the host).
void bb_crash_reporter_adopt(void);


#endif
