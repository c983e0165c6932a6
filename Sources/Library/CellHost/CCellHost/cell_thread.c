#define _GNU_SOURCE
#include "CellThread.h"
#include "CHostSeam.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
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

// ---- Crash reports -------------------------------------------------------------------

// The report goes to the host's own crash channel (BB_SEAM_CRASH_DESCRIPTOR), never to
// standard error: a cell may print anything there, or close it. Only async-signal-safe
// calls below (write, dladdr and backtrace, warmed up at install).

/// The Swift runtime's record of its last fatal message (an atomic `const char *`), or NULL
/// when this runtime has none (swift_getFatalErrorMessageBuffer is looked up at install).
static const char *volatile *fatal_message_slot;
/// The process whose crashes are reported: the host (a process a cell forks inherits the
/// handler and the channel, and must not report as the host).
static volatile pid_t reporting_process;

void bb_crash_reporter_adopt(void) { reporting_process = getpid(); }

static void write_bytes(const char *text, size_t length) {
    while (length > 0) {
        ssize_t written = write(BB_SEAM_CRASH_DESCRIPTOR, text, length);
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static void write_text(const char *text) { write_bytes(text, strlen(text)); }

static void write_number(uintptr_t value, unsigned base) {
    char digits[24];
    int position = (int)sizeof digits - 1;
    digits[position] = '\0';
    do {
        digits[--position] = "0123456789abcdef"[value % base];
        value /= base;
    } while (value != 0 && position > 2);
    if (base == 16) {
        digits[--position] = 'x';
        digits[--position] = '0';
    }
    write_text(digits + position);
}

/// The runtime's fatal message, when the signal is one a Swift trap or the runtime's abort
/// raises (a stale message must not be given to a segmentation fault).
static const char *fatal_message(int signal_number) {
    if (fatal_message_slot == NULL) return NULL;
    if (signal_number != SIGILL && signal_number != SIGTRAP && signal_number != SIGABRT) return NULL;
    const char *message = __atomic_load_n(fatal_message_slot, __ATOMIC_ACQUIRE);
    // The runtime joins a second message to the first with a NULL pointer where the first
    // should be: the last message is what follows that.
    static const char joined[] = "(null)";
    while (message != NULL && strncmp(message, joined, sizeof joined - 1) == 0) message += sizeof joined - 1;
    return message != NULL && message[0] != '\0' ? message : NULL;
}

/// The address of the instruction that faulted (a trap's `ud2`, `brk`), or 0 when the
/// signal was sent rather than caused (its context then holds no fault).
static uintptr_t fault_address(const siginfo_t *info, const void *context) {
    if (info == NULL || info->si_code == SI_USER || info->si_code == SI_TKILL || context == NULL) return 0;
    const ucontext_t *state = context;
#if defined(__x86_64__)
    return (uintptr_t)state->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)state->uc_mcontext.pc;
#else
    (void)state;
    return 0;
#endif
}

static void report_crash(int signal_number, siginfo_t *info, void *context) {
    uintptr_t faulted = fault_address(info, context);
    if (getpid() != reporting_process) {
        raise(signal_number);
        return;
    }
    write_text(BB_SEAM_CRASH_SIGNAL " ");
    write_number((uintptr_t)signal_number, 10);
    write_text("\n");
    const char *message = fatal_message(signal_number);
    if (message != NULL) {
        size_t length = strlen(message);
        write_text(BB_SEAM_CRASH_MESSAGE " ");
        write_number(length, 10);
        write_text("\n");
        write_bytes(message, length);
        write_text("\n");
    }
    void *frames[64];
    int count = backtrace(frames, 64);
    for (int index = 0; index < count; ++index) {
        Dl_info library;
        if (dladdr(frames[index], &library) == 0 || library.dli_fname == NULL) continue;
        // Return addresses point after the call; step back into it. The faulting
        // instruction's own address is kept exact: a trap's debug information (its line and
        // the "Swift runtime failure: ..." frame naming its cause) is at that address, and
        // one byte before it is the instruction before, often another check's.
        uintptr_t address = (uintptr_t)frames[index];
        if (index > 0 && address != faulted) address -= 1;
        write_text(BB_SEAM_CRASH_FRAME " ");
        write_number(address - (uintptr_t)library.dli_fbase, 16);
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
    const char *volatile *(*message_buffer)(void) =
        (const char *volatile *(*)(void))dlsym(RTLD_DEFAULT, "swift_getFatalErrorMessageBuffer");
    fatal_message_slot = message_buffer ? message_buffer() : NULL;
    bb_crash_reporter_adopt();
    // Programs a cell starts must not inherit the channel.
    int flags = fcntl(BB_SEAM_CRASH_DESCRIPTOR, F_GETFD);
    if (flags >= 0) fcntl(BB_SEAM_CRASH_DESCRIPTOR, F_SETFD, flags | FD_CLOEXEC);
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
