#define _GNU_SOURCE
#include "CellThread.h"
#include "CHostSeam.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// ---- Running a cell on its own thread ------------------------------------------------

struct cell_run {
    bb_cell_entry entry;
    int32_t result;
};

static void *cell_thread_main(void *argument) {
    struct cell_run *run = argument;
    // A signal handler for a stack overflow needs a stack of its own.
    stack_t alternate;
    alternate.ss_size = 256 * 1024;
    alternate.ss_sp = malloc(alternate.ss_size);
    alternate.ss_flags = 0;
    if (alternate.ss_sp) sigaltstack(&alternate, NULL);
    run->result = run->entry();
    if (alternate.ss_sp) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
        free(alternate.ss_sp);
    }
    return NULL;
}

int32_t bb_run_on_cell_thread(bb_cell_entry entry, size_t stack_bytes) {
    struct cell_run run = {entry, -1};
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, stack_bytes);
    pthread_t thread;
    int created = pthread_create(&thread, &attributes, cell_thread_main, &run);
    pthread_attr_destroy(&attributes);
    if (created != 0) return -1;
    pthread_join(thread, NULL);
    return run.result;
}

// ---- Crash frames --------------------------------------------------------------------

static void write_text(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(2, text, length);
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static void write_hex(uintptr_t value) {
    char digits[2 + 2 * sizeof value + 1];
    int position = (int)sizeof digits - 1;
    digits[position] = '\0';
    do {
        digits[--position] = "0123456789abcdef"[value & 0xF];
        value >>= 4;
    } while (value != 0 && position > 2);
    digits[--position] = 'x';
    digits[--position] = '0';
    write_text(digits + position);
}

static void report_crash(int signal_number, siginfo_t *info, void *context) {
    (void)info;
    (void)context;
    void *frames[64];
    int count = backtrace(frames, 64);
    for (int index = 0; index < count; ++index) {
        Dl_info library;
        if (dladdr(frames[index], &library) == 0 || library.dli_fname == NULL) continue;
        // Return addresses point after the call; step back into it (not for the
        // faulting frame itself, the first).
        uintptr_t address = (uintptr_t)frames[index] - (index > 0 ? 1 : 0);
        write_text(BB_SEAM_CRASH_FRAME_MARKER " ");
        write_hex(address - (uintptr_t)library.dli_fbase);
        write_text(" ");
        write_text(library.dli_fname);
        write_text("\n");
    }
    // SA_RESETHAND restored the default action. A signal sent rather than caused by a
    // fault (raise, kill) would not come back by itself: send it again; it is delivered
    // when the handler returns, and the process ends with the signal it would have.
    raise(signal_number);
}

void bb_install_crash_reporter(void) {
    // The first backtrace() loads the unwinder; do it now, not in a signal handler.
    void *warm[2];
    backtrace(warm, 2);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = report_crash;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
    for (size_t index = 0; index < sizeof signals / sizeof signals[0]; ++index) {
        sigaction(signals[index], &action, NULL);
    }
}
