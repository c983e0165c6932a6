#define _GNU_SOURCE
#include "CSystemSupport.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int bb_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

/// What a parent watch's thread waits for and calls.
struct parent_watch {
    pid_t parent;
    int pidfd;
    void (*on_exit)(void *context);
    void *context;
};

static void *watch_parent(void *argument) {
    struct parent_watch watch = *(struct parent_watch *)argument;
    free(argument);
    if (watch.pidfd >= 0) {
        // Opened before this check: while the parent is still this process's parent, the
        // descriptor is the parent's (its pid cannot have been reused).
        if (getppid() == watch.parent) {
            struct pollfd entry = {.fd = watch.pidfd, .events = POLLIN};
            int ready;
            while ((ready = poll(&entry, 1, -1)) < 0 && errno == EINTR) {}
            if (ready < 0) {
                close(watch.pidfd);
                return NULL;
            }
        }
        close(watch.pidfd);
    }
    watch.on_exit(watch.context);
    return NULL;
}

int bb_watch_parent_exit(pid_t parent, int lowest_descriptor, void (*on_exit)(void *context), void *context) {
    if (parent <= 1) {
        errno = EINVAL;
        return -1;
    }
    // pidfd_open sets close-on-exec. ESRCH: the parent is gone already.
    int pidfd = bb_pidfd_open(parent);
    if (pidfd < 0 && errno != ESRCH) return -1;
    if (pidfd >= 0 && pidfd < lowest_descriptor) {
        int moved = fcntl(pidfd, F_DUPFD_CLOEXEC, lowest_descriptor);
        int saved = errno;
        close(pidfd);
        if (moved < 0) {
            errno = saved;
            return -1;
        }
        pidfd = moved;
    }
    struct parent_watch *watch = malloc(sizeof *watch);
    if (watch == NULL) {
        if (pidfd >= 0) close(pidfd);
        errno = ENOMEM;
        return -1;
    }
    *watch = (struct parent_watch){.parent = parent, .pidfd = pidfd, .on_exit = on_exit, .context = context};
    pthread_t thread;
    int error = pthread_create(&thread, NULL, watch_parent, watch);
    if (error != 0) {
        free(watch);
        if (pidfd >= 0) close(pidfd);
        errno = error;
        return -1;
    }
    pthread_detach(thread);
    return 0;
}

int bb_pidfd_send_signal(int pidfd, int signal_number) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal_number, NULL, 0);
}

int bb_set_limit(pid_t pid, int resource, unsigned long long limit) {
    struct rlimit value = {(rlim_t)limit, (rlim_t)limit};
    return prlimit(pid, (__rlimit_resource_t)resource, &value, NULL);
}

int bb_limit_address_space(void) { return RLIMIT_AS; }
int bb_limit_cpu_seconds(void) { return RLIMIT_CPU; }

int bb_wait_exited(int status) { return WIFEXITED(status); }
int bb_wait_exit_code(int status) { return WEXITSTATUS(status); }
int bb_wait_signaled(int status) { return WIFSIGNALED(status); }
int bb_wait_signal(int status) { return WTERMSIG(status); }
int bb_wait_core_dumped(int status) { return WCOREDUMP(status); }

int bb_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int bb_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

static int prepare_check_child(unsigned long long extra_bytes) {
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
        close(null);
    }
    // The first number in /proc/self/statm is the mapped size in pages.
    char text[64];
    int fd = open("/proc/self/statm", O_RDONLY);
    if (fd < 0) return -1;
    ssize_t count = read(fd, text, sizeof text - 1);
    close(fd);
    if (count <= 0) return -1;
    unsigned long long pages = 0;
    for (ssize_t i = 0; i < count && text[i] >= '0' && text[i] <= '9'; ++i) pages = pages * 10 + (unsigned)(text[i] - '0');
    unsigned long long mapped = pages * (unsigned long long)sysconf(_SC_PAGESIZE);
    struct rlimit value = {(rlim_t)(mapped + extra_bytes), (rlim_t)(mapped + extra_bytes)};
    return setrlimit(RLIMIT_AS, &value);
}

int bb_fork_check(unsigned long long extra_bytes, int *message_fd) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        close(ends[0]);
        close(ends[1]);
        return -1;
    }
    if (child == 0) {
        close(ends[0]);
        prepare_check_child(extra_bytes);
        *message_fd = ends[1];
        return 0;
    }
    close(ends[1]);
    *message_fd = ends[0];
    return child;
}

void bb_write_message(int fd, const char *message) {
    size_t length = strlen(message), written = 0;
    while (written < length) {
        ssize_t count = write(fd, message + written, length - written);
        if (count <= 0) return;
        written += (size_t)count;
    }
}

int bb_seqpacket_pair(int fds[2]) { return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds); }

long bb_send_with_fds(int socket, const void *bytes, unsigned long length, const int *fds, int count) {
    struct iovec part = {(void *)bytes, length};
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    char control[CMSG_SPACE(sizeof(int) * 16)];
    if (count > 16) {
        errno = EINVAL;
        return -1;
    }
    if (count > 0) {
        memset(control, 0, sizeof control);
        message.msg_control = control;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * (size_t)count);
    }
    ssize_t sent;
    do { sent = sendmsg(socket, &message, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    return (long)sent;
}

long bb_receive_with_fds(int socket, void *bytes, unsigned long capacity, int *fds, int max_fds, int *fd_count) {
    struct iovec part = {bytes, capacity};
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    char control[CMSG_SPACE(sizeof(int) * 16)];
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    ssize_t received;
    do { received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC); } while (received < 0 && errno == EINTR);
    *fd_count = 0;
    if (received < 0) return -1;
    bool cut = (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        int count = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int *received_fds = (int *)CMSG_DATA(header);
        for (int index = 0; index < count; ++index) {
            if (!cut && *fd_count < max_fds) fds[(*fd_count)++] = received_fds[index];
            else close(received_fds[index]);
        }
        if (count > max_fds) cut = true;
    }
    if (cut) {
        for (int index = 0; index < *fd_count; ++index) close(fds[index]);
        *fd_count = 0;
        // A message longer than the buffer, or more descriptors than it holds: none of it
        // is delivered rather than a part.
        errno = EMSGSIZE;
        return -1;
    }
    return (long)received;
}

int bb_become_child_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

