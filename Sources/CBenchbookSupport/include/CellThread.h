#ifndef CBENCHBOOK_CELL_THREAD_H
#define CBENCHBOOK_CELL_THREAD_H

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
/// Swift trap, SIGSEGV and SIGBUS, SIGFPE, SIGABRT). Each writes the crashing thread's
/// frames to standard error, one line per frame,
///     `<marker> <offset in hex> <library path>`
/// (BB_SEAM_CRASH_FRAME_MARKER, CHostSeam.h), and then lets the signal end the process as it would have.
/// Call once, before any cell runs.
void bb_install_crash_reporter(void);


#endif
