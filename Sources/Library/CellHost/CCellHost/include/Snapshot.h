#ifndef CCELL_HOST_SNAPSHOT_H
#define CCELL_HOST_SNAPSHOT_H

/// What `bb_take_snapshot` returns.
typedef enum {
    /// This process is the host; a frozen copy now waits (announced to the kernel).
    BB_SNAPSHOT_TAKEN = 0,
    /// This process is the copy, and the kernel just made it the host: descriptors 0 to
    /// BB_SEAM_DESCRIPTOR_COUNT - 1 are its new pipes. Serve commands as the host did when
    /// the copy was taken.
    BB_SNAPSHOT_PROMOTED = 1,
    /// No copy was made (fork failed, or there is no snapshot channel); the reason says which.
    BB_SNAPSHOT_FAILED = -1,
} bb_snapshot_result;

/// Forks a frozen copy of this process, the host's state after cell `after_cell` (0:
/// after no cell). Call between cells, on the serving thread, with no cell running.
///
/// The copy moves to its own process group, replaces descriptors 0 to 2 with /dev/null and
/// closes the seam's others (so it holds none of the kernel's pipes), and waits on a socket
/// whose other end is sent to the kernel on BB_SEAM_SNAPSHOT_DESCRIPTOR in a
/// BB_SEAM_SNAPSHOT_TAKEN message (CHostSeam.h). It runs no code but this wait: when the
/// kernel closes its end, the copy exits; when the kernel sends BB_SEAM_SNAPSHOT_PROMOTE
/// with BB_SEAM_DESCRIPTOR_COUNT descriptors, they become descriptors 0 to
/// BB_SEAM_DESCRIPTOR_COUNT - 1 and this function returns BB_SNAPSHOT_PROMOTED in the copy.
/// None of this depends on descriptors 0 to 2 being open: a cell may have closed them.
///
/// `reason` (at most `capacity` bytes, may be NULL) says why when no copy was made.
///
/// Each copy has a reaper thread in the host that waits for it, so a released copy is
/// reaped as soon as it exits.
#include <stddef.h>

bb_snapshot_result bb_take_snapshot(long after_cell, char *reason, size_t capacity);

#endif
