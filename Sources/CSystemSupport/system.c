#define _GNU_SOURCE
#include "CSystemSupport.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int bb_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int bb_pidfd_send_signal(int pidfd, int signal_number) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal_number, NULL, 0);
}

int bb_set_limit(pid_t pid, int resource, unsigned long long limit) {
    struct rlimit value = {(rlim_t)limit, (rlim_t)limit};
    return prlimit(pid, (__rlimit_resource_t)resource, &value, NULL);
}

int bb_set_own_limit(int resource, unsigned long long limit) {
    struct rlimit value = {(rlim_t)limit, (rlim_t)limit};
    return setrlimit((__rlimit_resource_t)resource, &value);
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
