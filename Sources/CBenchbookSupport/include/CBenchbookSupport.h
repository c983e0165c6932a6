#ifndef CBENCHBOOK_SUPPORT_H
#define CBENCHBOOK_SUPPORT_H

/// Installs a SIGINT handler that only records that an interrupt was asked for.
/// Safe to call more than once. The kernel sends SIGINT to the cell host on
/// interrupt_request; library loops poll `bb_interrupt_pending`.
void bb_install_interrupt_handler(void);

/// Non-zero when SIGINT arrived since the last `bb_clear_interrupt`.
int bb_interrupt_pending(void);

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
