#include "CCellHost.h"

#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

int bb_interrupt_flag = 0;

static void on_sigint(int signo) {
    (void)signo;
    // A lock-free atomic store is async-signal-safe.
    __atomic_store_n(&bb_interrupt_flag, 1, __ATOMIC_RELAXED);
}

void bb_install_interrupt_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
}

int bb_interrupt_pending(void) { return bb_interrupt_requested(); }

void bb_clear_interrupt(void) { __atomic_store_n(&bb_interrupt_flag, 0, __ATOMIC_RELAXED); }

long long bb_peak_resident_bytes(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
    return (long long)usage.ru_maxrss * 1024;
}

void bb_release_free_heap_memory(void) { malloc_trim(0); }
