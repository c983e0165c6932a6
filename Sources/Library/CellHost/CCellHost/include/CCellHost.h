#ifndef CCELL_HOST_H
#define CCELL_HOST_H

/// Installs a SIGINT handler that only records that an interrupt was asked for.
/// Safe to call more than once. The kernel sends SIGINT to the cell host on
/// interrupt_request; library loops poll `bb_interrupt_pending`.
void bb_install_interrupt_handler(void);

/// Non-zero when SIGINT arrived since the last `bb_clear_interrupt`.
int bb_interrupt_pending(void);

/// The flag the SIGINT handler sets; read it with `bb_interrupt_requested`.
extern int bb_interrupt_flag;

/// `bb_interrupt_pending` as one relaxed atomic load that the compiler inlines, for the
/// check at the top of every loop body in cell code: a call per iteration would stop the
/// optimiser from keeping loop state in registers, and the load is never moved out of
/// the loop (as a plain load could be).
static inline int bb_interrupt_requested(void) {
    return __atomic_load_n(&bb_interrupt_flag, __ATOMIC_RELAXED) != 0;
}

/// Forgets a pending interrupt (called when a cell starts).
void bb_clear_interrupt(void);

/// Peak resident set size of this process in bytes (getrusage ru_maxrss).
long long bb_peak_resident_bytes(void);

/// Hands the heap's free memory back to the system (glibc's malloc_trim(0)), so that the
/// resident size counts only memory in use.
void bb_release_free_heap_memory(void);

#include "CellThread.h"
#include "Snapshot.h"

#endif
