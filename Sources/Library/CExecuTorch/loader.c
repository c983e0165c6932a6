#define _GNU_SOURCE
#include "CExecuTorch.h"

#include <dlfcn.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every dlopen/dlsym of the ExecuTorch shim is in this file. The forwarders below keep the
// signatures of CExecuTorchShim.h, so the compiler checks each against the declaration.

#define BBE_FUNCTIONS(X)                                                                         \
    X(bbe_load) X(bbe_program_free) X(bbe_check_start) X(bbe_input_count) X(bbe_output_count)    \
    X(bbe_tensor_element_type) X(bbe_tensor_rank) X(bbe_tensor_dimension) X(bbe_metadata)        \
    X(bbe_method_names) X(bbe_operators) X(bbe_registered_backends) X(bbe_forward)               \
    X(bbe_time_forward) X(bbe_outputs_free) X(bbe_outputs_count) X(bbe_output_element_type)      \
    X(bbe_output_rank) X(bbe_output_dimension) X(bbe_output_data) X(bbe_set_threads)             \
    X(bbe_threads) X(bbe_pool_threads) X(bbe_method_loads) X(bbe_profile_forward)                \
    X(bbe_profile_run_count) X(bbe_profile_run_nanoseconds) X(bbe_profile_event_count)           \
    X(bbe_profile_events) X(bbe_profile_etdump_size) X(bbe_profile_etdump) X(bbe_profile_free)   \
    X(bbe_set_quiet) X(bbe_take_log)

#define DECLARE(name) static __typeof__(name) *impl_##name;
BBE_FUNCTIONS(DECLARE)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int opened;
static char failure[1024];
/// The quiet setting asked for before the library was opened (-1: none).
static int pending_quiet = -1;

static void open_library(void) {
    Dl_info self;
    if (dladdr((void *)&bbe_open, &self) == 0 || self.dli_fname == NULL) {
        snprintf(failure, sizeof failure, "libBenchbookExecuTorch.so: cannot find the directory of the notebook library");
        return;
    }
    char directory[4096], path[4200];
    snprintf(directory, sizeof directory, "%s", self.dli_fname);
    snprintf(path, sizeof path, "%s/libBenchbookExecuTorch.so", dirname(directory));
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s: %s", path, reason ? reason : "dlopen failed");
        return;
    }
#define RESOLVE(name)                                                                            \
    impl_##name = (__typeof__(name) *)dlsym(library, #name);                                     \
    if (impl_##name == NULL) {                                                                   \
        snprintf(failure, sizeof failure, "%s has no %s; rebuild with `make build`", path, #name); \
        return;                                                                                  \
    }
    BBE_FUNCTIONS(RESOLVE)
    opened = 1;
    if (pending_quiet >= 0) impl_bbe_set_quiet(pending_quiet);
}

static int ensure(void) {
    pthread_once(&once, open_library);
    return opened;
}

static void set_error(char **error) {
    if (error) *error = strdup(failure);
}

int bbe_open(char **error) {
    if (ensure()) return 0;
    set_error(error);
    return -1;
}

// The shim's strings are malloc'ed too, so this works before the library is open.
void bbe_free_string(char *text) { free(text); }

bbe_program *bbe_load(const char *path, int threads, bbe_load_status *status, char **error) {
    if (!ensure()) { if (status) *status = BBE_LOAD_FAILED; set_error(error); return NULL; }
    return impl_bbe_load(path, threads, status, error);
}
void bbe_program_free(bbe_program *program) { if (ensure()) impl_bbe_program_free(program); }
int bbe_check_start(const char *path, int threads, unsigned long long extra_bytes, int *message_fd) {
    return ensure() ? impl_bbe_check_start(path, threads, extra_bytes, message_fd) : -1;
}
int bbe_input_count(const bbe_program *p) { return ensure() ? impl_bbe_input_count(p) : 0; }
int bbe_output_count(const bbe_program *p) { return ensure() ? impl_bbe_output_count(p) : 0; }
bbe_element_type bbe_tensor_element_type(const bbe_program *p, int is_output, int index) {
    return ensure() ? impl_bbe_tensor_element_type(p, is_output, index) : BBE_UNSUPPORTED;
}
int bbe_tensor_rank(const bbe_program *p, int is_output, int index) {
    return ensure() ? impl_bbe_tensor_rank(p, is_output, index) : 0;
}
int64_t bbe_tensor_dimension(const bbe_program *p, int is_output, int index, int axis) {
    return ensure() ? impl_bbe_tensor_dimension(p, is_output, index, axis) : 0;
}
const char *bbe_metadata(const bbe_program *p) { return ensure() ? impl_bbe_metadata(p) : ""; }
const char *bbe_method_names(const bbe_program *p) { return ensure() ? impl_bbe_method_names(p) : ""; }
const char *bbe_operators(const bbe_program *p) { return ensure() ? impl_bbe_operators(p) : ""; }
char *bbe_registered_backends(void) { return ensure() ? impl_bbe_registered_backends() : strdup(""); }

bbe_outputs *bbe_forward(bbe_program *p, const bbe_tensor_view *inputs, int count, char **error) {
    if (!ensure()) { set_error(error); return NULL; }
    return impl_bbe_forward(p, inputs, count, error);
}
int bbe_time_forward(bbe_program *p, const bbe_tensor_view *inputs, int count, int iterations,
                     int64_t *nanoseconds, char **error) {
    if (!ensure()) { set_error(error); return -1; }
    return impl_bbe_time_forward(p, inputs, count, iterations, nanoseconds, error);
}
void bbe_outputs_free(bbe_outputs *outputs) { if (ensure()) impl_bbe_outputs_free(outputs); }
int bbe_outputs_count(const bbe_outputs *o) { return ensure() ? impl_bbe_outputs_count(o) : 0; }
bbe_element_type bbe_output_element_type(const bbe_outputs *o, int index) {
    return ensure() ? impl_bbe_output_element_type(o, index) : BBE_UNSUPPORTED;
}
int bbe_output_rank(const bbe_outputs *o, int index) { return ensure() ? impl_bbe_output_rank(o, index) : 0; }
int64_t bbe_output_dimension(const bbe_outputs *o, int index, int axis) {
    return ensure() ? impl_bbe_output_dimension(o, index, axis) : 0;
}
const void *bbe_output_data(const bbe_outputs *o, int index) { return ensure() ? impl_bbe_output_data(o, index) : NULL; }

int bbe_set_threads(bbe_program *p, int count, char **error) {
    if (!ensure()) { set_error(error); return -1; }
    return impl_bbe_set_threads(p, count, error);
}
int bbe_threads(const bbe_program *p) { return ensure() ? impl_bbe_threads(p) : 1; }
int bbe_pool_threads(void) { return ensure() ? impl_bbe_pool_threads() : 0; }
int bbe_method_loads(const bbe_program *p) { return ensure() ? impl_bbe_method_loads(p) : 0; }

bbe_profile *bbe_profile_forward(bbe_program *p, const bbe_tensor_view *inputs, int count, int warm_up, int runs,
                                 char **error) {
    if (!ensure()) { set_error(error); return NULL; }
    return impl_bbe_profile_forward(p, inputs, count, warm_up, runs, error);
}
int bbe_profile_run_count(const bbe_profile *p) { return ensure() ? impl_bbe_profile_run_count(p) : 0; }
int64_t bbe_profile_run_nanoseconds(const bbe_profile *p, int run) {
    return ensure() ? impl_bbe_profile_run_nanoseconds(p, run) : 0;
}
int bbe_profile_event_count(const bbe_profile *p) { return ensure() ? impl_bbe_profile_event_count(p) : 0; }
const bbe_profile_event *bbe_profile_events(const bbe_profile *p) { return ensure() ? impl_bbe_profile_events(p) : NULL; }
size_t bbe_profile_etdump_size(const bbe_profile *p) { return ensure() ? impl_bbe_profile_etdump_size(p) : 0; }
const void *bbe_profile_etdump(const bbe_profile *p) { return ensure() ? impl_bbe_profile_etdump(p) : NULL; }
void bbe_profile_free(bbe_profile *p) { if (ensure()) impl_bbe_profile_free(p); }

// The log switch must not load the runtime by itself: remembered until the library opens.
void bbe_set_quiet(int enabled) {
    if (opened) impl_bbe_set_quiet(enabled);
    else pending_quiet = enabled;
}
char *bbe_take_log(void) { return opened ? impl_bbe_take_log() : NULL; }
