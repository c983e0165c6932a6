#define _GNU_SOURCE
#include "Snapshot.h"
#include "CellThread.h"
#include "CHostSeam.h"
#include "CSystemSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

// Every syscall of host snapshots lives here. The copy's side runs only async-signal-safe
// calls until it is promoted: other threads of the host may have held locks at fork time.

enum { MAX_COPIES = 64 };
/// Copies of this process that have not been reaped yet.
static atomic_int live_copies;

/// A copy's reaper: a thread of the host that waits for that one copy to exit, so a
/// released copy does not stay a zombie until the next snapshot (it did, for the kernel's
/// whole life between cells). It waits for that pid only: the children a cell starts are
/// left to the cell.
static void *reap_copy(void *argument) {
    pid_t copy = (pid_t)(intptr_t)argument;
    int status;
    while (waitpid(copy, &status, 0) < 0 && errno == EINTR) {}
    atomic_fetch_sub(&live_copies, 1);
    return NULL;
}

/// Starts the reaper of `copy`; 0 on success.
static int start_reaper(pid_t copy) {
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return -1;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    pthread_t thread;
    int started = pthread_create(&thread, &attributes, reap_copy, (void *)(intptr_t)copy);
    pthread_attr_destroy(&attributes);
    return started;
}

/// Announces a copy to the kernel, its socket attached; 0 on success.
static int send_announcement(pid_t copy, long after_cell, int kernel_end) {
    bb_seam_snapshot_message message = {BB_SEAM_SNAPSHOT_TAKEN, (int32_t)copy, (int64_t)after_cell};
    return bb_send_with_fds(BB_SEAM_SNAPSHOT_DESCRIPTOR, &message, sizeof message, &kernel_end, 1) < 0 ? -1 : 0;
}

/// Moves `fd` to a number above the seam's descriptors (closing the old number), so that
/// putting descriptors 0 to BB_SEAM_DESCRIPTOR_COUNT - 1 in place cannot close it. A cell
/// may have closed standard descriptors: then the host's own new descriptors (this copy's
/// socket, /dev/null) are given those low numbers. Returns the new number, or -1.
static int move_above_seam(int fd) {
    if (fd >= BB_SEAM_DESCRIPTOR_COUNT) return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, BB_SEAM_DESCRIPTOR_COUNT);
    close(fd);
    return moved;
}

/// A promoted copy's end when its kernel is gone: SIGKILL, as a copy ended when it was
/// still watched through PR_SET_PDEATHSIG.
static void end_with_kernel(void *context) {
    (void)context;
    kill(getpid(), SIGKILL);
}

/// The copy's life: wait for the kernel's word. Returns only when promoted.
static void wait_as_copy(int socket) {
    setpgid(0, 0);
    socket = move_above_seam(socket);
    if (socket < 0) _exit(3);
    int null = move_above_seam(open("/dev/null", O_RDWR | O_CLOEXEC));
    for (int fd = 0; fd < BB_SEAM_DESCRIPTOR_COUNT; ++fd) {
        if (fd <= 2 && null >= 0) dup2(null, fd); else close(fd);
    }
    if (null >= 0) close(null);
    while (1) {
        bb_seam_snapshot_message message;
        int fds[BB_SEAM_DESCRIPTOR_COUNT];
        int count = 0;
        long received = bb_receive_with_fds(socket, &message, sizeof message, fds, BB_SEAM_DESCRIPTOR_COUNT, &count);
        if (received <= 0) _exit(0);  // Released (or the kernel is gone).
        if (received != sizeof message || message.kind != BB_SEAM_SNAPSHOT_PROMOTE || count != BB_SEAM_DESCRIPTOR_COUNT) {
            _exit(3);  // Not a message a kernel sends.
        }
        // The received descriptors took the lowest free numbers, some of them among the
        // targets: move them all out of the way first, then into place.
        for (int index = 0; index < BB_SEAM_DESCRIPTOR_COUNT; ++index) {
            fds[index] = move_above_seam(fds[index]);
            if (fds[index] < 0) _exit(3);
        }
        for (int fd = 0; fd < BB_SEAM_DESCRIPTOR_COUNT; ++fd) {
            if (dup2(fds[fd], fd) < 0) _exit(3);
            close(fds[fd]);
        }
        close(socket);
        // The kernel adopted this copy when its host died; end with the kernel, as the
        // host does (its watch thread did not survive the fork), through the same watch.
        // Parent 1 (EINVAL): the kernel is gone already.
        if (bb_watch_parent_exit(getppid(), BB_SEAM_DESCRIPTOR_COUNT, end_with_kernel, NULL) != 0 && errno == EINVAL) _exit(0);
        for (int fd = BB_SEAM_COMMAND_DESCRIPTOR; fd < BB_SEAM_DESCRIPTOR_COUNT; ++fd) fcntl(fd, F_SETFD, FD_CLOEXEC);
        bb_crash_reporter_adopt();
        return;
    }
}

/// Writes why no snapshot was taken into `reason` (at most `capacity` bytes).
static bb_snapshot_result failed(char *reason, size_t capacity, const char *what, int code) {
    if (reason != NULL && capacity > 0) {
        if (code != 0) snprintf(reason, capacity, "%s: %s", what, strerror(code));
        else snprintf(reason, capacity, "%s", what);
    }
    return BB_SNAPSHOT_FAILED;
}

bb_snapshot_result bb_take_snapshot(long after_cell, char *reason, size_t capacity) {
    if (reason != NULL && capacity > 0) reason[0] = '\0';
    if (fcntl(BB_SEAM_SNAPSHOT_DESCRIPTOR, F_GETFD) < 0) {
        return failed(reason, capacity, "the host's snapshot channel (descriptor 5) was closed", 0);
    }
    if (atomic_load(&live_copies) >= MAX_COPIES) {
        return failed(reason, capacity, "64 earlier snapshots have not exited yet", 0);
    }
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
        return failed(reason, capacity, "socketpair failed", errno);
    }
    fflush(NULL);
    pid_t copy = fork();
    if (copy < 0) {
        int code = errno;
        close(ends[0]);
        close(ends[1]);
        return failed(reason, capacity, "fork failed", code);
    }
    if (copy == 0) {
        close(ends[0]);
        // The host's reapers did not survive the fork; their copies are not this one's children.
        atomic_store(&live_copies, 0);
        wait_as_copy(ends[1]);
        return BB_SNAPSHOT_PROMOTED;
    }
    close(ends[1]);
    atomic_fetch_add(&live_copies, 1);
    int reaper = start_reaper(copy);
    if (reaper != 0) {
        // Without its reaper the copy would stay a zombie: end it now (it gets end-of-file).
        close(ends[0]);
        int status;
        while (waitpid(copy, &status, 0) < 0 && errno == EINTR) {}
        atomic_fetch_sub(&live_copies, 1);
        return failed(reason, capacity, "its reaper thread could not be started", reaper);
    }
    int announced = send_announcement(copy, after_cell, ends[0]);
    int code = errno;
    close(ends[0]);
    if (announced != 0) {
        // The kernel cannot hear of it: the copy gets end-of-file and exits.
        return failed(reason, capacity, "it could not be announced to the kernel", code);
    }
    return BB_SNAPSHOT_TAKEN;
}
