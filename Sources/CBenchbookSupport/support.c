#include "CBenchbookSupport.h"

#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

static volatile sig_atomic_t interrupt_pending = 0;

static void on_sigint(int signo) {
    (void)signo;
    interrupt_pending = 1;
}

void bb_install_interrupt_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
}

int bb_interrupt_pending(void) { return interrupt_pending != 0; }

void bb_clear_interrupt(void) { interrupt_pending = 0; }

long long bb_peak_resident_bytes(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
    return (long long)usage.ru_maxrss * 1024;
}

void bb_release_free_heap_memory(void) { malloc_trim(0); }
