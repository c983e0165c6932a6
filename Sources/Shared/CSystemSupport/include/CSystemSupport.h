#ifndef CSYSTEM_SUPPORT_H
#define CSYSTEM_SUPPORT_H

// Linux calls that Swift's Glibc module does not show (they need _GNU_SOURCE or are
// system calls without a libc wrapper in its view), and the wait-status macros as
// functions. SystemSupport wraps it for Swift; the C shims of the model runtimes fork
// their file checks with bb_fork_check.

#include <spawn.h>
#include <sys/types.h>

#include "listening_sockets.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A descriptor that becomes readable when process `pid` exits (pidfd_open(2)), or -1.
int bb_pidfd_open(pid_t pid);

/// Calls `on_exit(context)` once, on a thread of its own, when process `parent` (this
/// process's parent) exits, or at once on that thread when it is not this process's parent
/// any more. The project's one parent-death watch: the thread waits in poll(2) on a pidfd of
/// the parent, which becomes readable when the parent exits, so it costs nothing while the
/// parent lives and notices its exit at once. The pidfd is checked to be the parent's after
/// it is opened (the parent still is `getppid()`), so a reused pid is never waited for. Should
/// poll fail other than by EINTR, the thread stops watching without calling `on_exit`.
/// (PR_SET_PDEATHSIG is not used: it fires when the parent *thread* that started this process
/// exits, which a thread pool may do at any time.) The pidfd is numbered `lowest_descriptor`
/// or above, so it never takes a number the process expects to be given or free (a cell host
/// checks its channels 3 to 6 after the watch starts). Returns 0, or -1 with errno set (EINVAL
/// for `parent` 0 or 1: nothing to watch).
int bb_watch_parent_exit(pid_t parent, int lowest_descriptor, void (*on_exit)(void *context), void *context);

/// Sends `signal_number` to the process behind `pidfd` (pidfd_send_signal(2)): never
/// reaches another process that reused the number. Returns 0, or -1 with errno set.
int bb_pidfd_send_signal(int pidfd, int signal_number);

/// Sets the soft and hard limit of `resource` (RLIMIT_AS, RLIMIT_CPU, ...) of process
/// `pid` (prlimit(2)). Returns 0, or -1 with errno set.
int bb_set_limit(pid_t pid, int resource, unsigned long long limit);

/// pipe2(fds, O_CLOEXEC): both ends close on exec. Returns 0, or -1 with errno set.
int bb_pipe_cloexec(int fds[2]);

/// Writes a message in full to `fd` (for a check child's verdict), ignoring errors.
void bb_write_message(int fd, const char *message);

/// Adds "close every descriptor from `lowest` up" to spawn file actions
/// (posix_spawn_file_actions_addclosefrom_np). Returns 0 or an error number.
int bb_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int lowest);

/// Forks a child to try something risky (loading a file that may be damaged) with a pipe
/// for its verdict. In the child (return value 0): its address space is capped at what it
/// has mapped now plus `extra_bytes`, so a runaway allocation fails instead of taking the
/// machine's memory; its standard output and error go to /dev/null; `*message_fd` is the
/// pipe's write end, for a message before it `_exit`s. In the parent (return value: the
/// child's pid): `*message_fd` is the read end, to read after the child exits and close.
/// Returns -1 when the fork fails.
int bb_fork_check(unsigned long long extra_bytes, int *message_fd);

/// socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC): messages keep their boundaries.
/// Returns 0, or -1 with errno set.
int bb_seqpacket_pair(int fds[2]);

/// Sends one message of `length` bytes with `count` descriptors attached (SCM_RIGHTS, at
/// most 16). Returns the bytes sent, or -1 with errno set (EINVAL for more than 16).
long bb_send_with_fds(int socket, const void *bytes, unsigned long length, const int *fds, int count);

/// Receives one message into `bytes` (at most `capacity`) and up to `max_fds` attached
/// descriptors into `fds` (close-on-exec, at most 16), their number in `*fd_count`. Returns
/// the bytes received (0 when the peer closed, or for an empty message without
/// descriptors), or -1 with errno set: EMSGSIZE for a message longer than `capacity` or
/// with more than `max_fds` descriptors (none of it is delivered; its descriptors are closed).
long bb_receive_with_fds(int socket, void *bytes, unsigned long capacity, int *fds, int max_fds, int *fd_count);

/// Makes this process the reaper of orphaned descendants (PR_SET_CHILD_SUBREAPER).
/// Returns 0, or -1 with errno set.
int bb_become_child_subreaper(void);


/// The resource numbers, for Swift.
int bb_limit_address_space(void);
int bb_limit_cpu_seconds(void);

/// Decoding a wait status (the W* macros).
int bb_wait_exited(int status);
int bb_wait_exit_code(int status);
int bb_wait_signaled(int status);
int bb_wait_signal(int status);
int bb_wait_core_dumped(int status);

#ifdef __cplusplus
}
#endif

#endif
