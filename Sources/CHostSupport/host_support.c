#include "CHostSupport.h"

#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

static void *watch_parent(void *argument) {
    pid_t parent = (pid_t)(intptr_t)argument;
    for (;;) {
        if (getppid() != parent) _exit(0);
        usleep(250 * 1000);
    }
    return NULL;
}

int bb_host_exit_with_parent(void) {
    pthread_t thread;
    pid_t parent = getppid();
    if (parent == 1) return -1;
    if (pthread_create(&thread, NULL, watch_parent, (void *)(intptr_t)parent) != 0) return -1;
    return pthread_detach(thread);
}

int bb_retain_freed_memory(int mmap_threshold, int trim_threshold) {
    // mallopt returns 1 on success.
    if (mallopt(M_MMAP_THRESHOLD, mmap_threshold) != 1) return -1;
    return mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1 ? 0 : -1;
}

int bb_release_freed_memory(void) {
    return malloc_trim(0);
}
