#define _GNU_SOURCE
#include "CTorch.h"

#include <dlfcn.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every dlopen/dlsym of the libtorch shim is in this file. The forwarders below keep the
// signatures of CTorchShim.h, so the compiler checks each against the declaration.

#define BBT_FUNCTIONS(X)                                                                        \
    X(bbt_free_string) X(bbt_load) X(bbt_check_start) X(bbt_module_free) X(bbt_input_count)     \
    X(bbt_input_name) X(bbt_input_type) X(bbt_metadata) X(bbt_forward) X(bbt_time_forward)      \
    X(bbt_outputs_free) X(bbt_outputs_count) X(bbt_output_element_type) X(bbt_output_rank)      \
    X(bbt_output_dimension) X(bbt_output_data) X(bbt_set_threads) X(bbt_threads)                \
    X(bbt_operators) X(bbt_uses_pthreadpool) X(bbt_set_quiet) X(bbt_take_warnings)              \
    X(bbt_set_quantized_engine) X(bbt_quantized_engine) X(bbt_supported_quantized_engines)       \
    X(bbt_module_set_threads) X(bbt_module_threads) X(bbt_profile_forward) X(bbt_profile_run_count) \
    X(bbt_profile_run_nanoseconds) X(bbt_profile_event_count) X(bbt_profile_events)            \
    X(bbt_profile_other_thread_calls) X(bbt_profile_free) X(bbt_warm_up)

#define DECLARE(name) static __typeof__(name) *impl_##name;
BBT_FUNCTIONS(DECLARE)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int opened;
static char failure[1024];
/// The quiet setting asked for before the library was opened (-1: none).
static int pending_quiet = -1;

static void open_library(void) {
    Dl_info self;
    char path[4096];
    if (dladdr((void *)&bbt_open, &self) == 0 || self.dli_fname == NULL) {
        snprintf(failure, sizeof failure, "libBenchbookTorch.so: cannot find the directory of the notebook library");
        return;
    }
    char directory[4096];
    snprintf(directory, sizeof directory, "%s", self.dli_fname);
    snprintf(path, sizeof path, "%s/libBenchbookTorch.so", dirname(directory));
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s: %s", path, reason ? reason : "dlopen failed");
        return;
    }
#define RESOLVE(name)                                                                           \
    impl_##name = (__typeof__(name) *)dlsym(library, #name);                                    \
    if (impl_##name == NULL) {                                                                  \
        snprintf(failure, sizeof failure, "%s has no %s; rebuild with `make build`", path, #name); \
        return;                                                                                 \
    }
    BBT_FUNCTIONS(RESOLVE)
    opened = 1;
    if (pending_quiet >= 0) impl_bbt_set_quiet(pending_quiet);
}

static int ensure(void) {
    pthread_once(&once, open_library);
    return opened;
}

static void set_error(char **error) {
    if (error) *error = strdup(failure);
}

int bbt_open(char **error) {
    if (ensure()) return 0;
    set_error(error);
    return -1;
}

// free() is what the shim's strings are made with too (strdup), so this works before the
// library is open (bbt_open's own message).
void bbt_free_string(char *text) { free(text); }

bbt_module *bbt_load(const char *path, bbt_format format, char **error) {
    if (!ensure()) { set_error(error); return NULL; }
    return impl_bbt_load(path, format, error);
}

int bbt_check_start(const char *path, bbt_format format, unsigned long long extra_bytes, int *message_fd) {
    return ensure() ? impl_bbt_check_start(path, format, extra_bytes, message_fd) : -1;
}

int bbt_warm_up(char **error) {
    if (!ensure()) { set_error(error); return -1; }
    return impl_bbt_warm_up(error);
}

void bbt_module_free(bbt_module *module) { if (ensure()) impl_bbt_module_free(module); }
int bbt_input_count(const bbt_module *module) { return ensure() ? impl_bbt_input_count(module) : 0; }
const char *bbt_input_name(const bbt_module *module, int index) { return ensure() ? impl_bbt_input_name(module, index) : NULL; }
const char *bbt_input_type(const bbt_module *module, int index) { return ensure() ? impl_bbt_input_type(module, index) : NULL; }
const char *bbt_metadata(const bbt_module *module) { return ensure() ? impl_bbt_metadata(module) : ""; }

bbt_outputs *bbt_forward(bbt_module *module, const bbt_tensor_view *inputs, int count, char **error) {
    if (!ensure()) { set_error(error); return NULL; }
    return impl_bbt_forward(module, inputs, count, error);
}

int bbt_time_forward(bbt_module *module, const bbt_tensor_view *inputs, int count,
                     int iterations, int64_t *nanoseconds, char **error) {
    if (!ensure()) { set_error(error); return -1; }
    return impl_bbt_time_forward(module, inputs, count, iterations, nanoseconds, error);
}

void bbt_outputs_free(bbt_outputs *outputs) { if (ensure()) impl_bbt_outputs_free(outputs); }
int bbt_outputs_count(const bbt_outputs *outputs) { return ensure() ? impl_bbt_outputs_count(outputs) : 0; }
bbt_element_type bbt_output_element_type(const bbt_outputs *outputs, int index) {
    return ensure() ? impl_bbt_output_element_type(outputs, index) : (bbt_element_type)0;
}
int bbt_output_rank(const bbt_outputs *outputs, int index) { return ensure() ? impl_bbt_output_rank(outputs, index) : 0; }
int64_t bbt_output_dimension(const bbt_outputs *outputs, int index, int axis) {
    return ensure() ? impl_bbt_output_dimension(outputs, index, axis) : 0;
}
const void *bbt_output_data(const bbt_outputs *outputs, int index) { return ensure() ? impl_bbt_output_data(outputs, index) : NULL; }

int bbt_set_threads(int count, char **error) {
    if (!ensure()) { set_error(error); return -1; }
    return impl_bbt_set_threads(count, error);
}

int bbt_threads(void) { return ensure() ? impl_bbt_threads() : 1; }
const char *bbt_operators(const bbt_module *module) { return ensure() ? impl_bbt_operators(module) : ""; }
int bbt_uses_pthreadpool(const bbt_module *module) { return ensure() ? impl_bbt_uses_pthreadpool(module) : 0; }

// The log switch must not load libtorch by itself: remembered until the library opens.
void bbt_set_quiet(int enabled) {
    if (opened) impl_bbt_set_quiet(enabled);
    else pending_quiet = enabled;
}

char *bbt_take_warnings(void) { return opened ? impl_bbt_take_warnings() : NULL; }

int bbt_set_quantized_engine(const char *name, char **error) {
    if (!ensure()) { set_error(error); return -1; }
    return impl_bbt_set_quantized_engine(name, error);
}

int bbt_module_set_threads(bbt_module *module, int count, char **error) {
    if (!ensure()) { set_error(error); return -1; }
    return impl_bbt_module_set_threads(module, count, error);
}
int bbt_module_threads(const bbt_module *module) { return ensure() ? impl_bbt_module_threads(module) : 0; }

bbt_profile *bbt_profile_forward(bbt_module *module, const bbt_tensor_view *inputs, int count, int runs,
                                 char **error) {
    if (!ensure()) { set_error(error); return NULL; }
    return impl_bbt_profile_forward(module, inputs, count, runs, error);
}
int bbt_profile_run_count(const bbt_profile *profile) { return ensure() ? impl_bbt_profile_run_count(profile) : 0; }
int64_t bbt_profile_run_nanoseconds(const bbt_profile *profile, int run) {
    return ensure() ? impl_bbt_profile_run_nanoseconds(profile, run) : 0;
}
int bbt_profile_event_count(const bbt_profile *profile) { return ensure() ? impl_bbt_profile_event_count(profile) : 0; }
const bbt_profile_event *bbt_profile_events(const bbt_profile *profile) { return ensure() ? impl_bbt_profile_events(profile) : NULL; }
int64_t bbt_profile_other_thread_calls(const bbt_profile *profile) {
    return ensure() ? impl_bbt_profile_other_thread_calls(profile) : 0;
}
void bbt_profile_free(bbt_profile *profile) { if (ensure()) impl_bbt_profile_free(profile); }

const char *bbt_quantized_engine(void) { return ensure() ? impl_bbt_quantized_engine() : ""; }
char *bbt_supported_quantized_engines(void) { return ensure() ? impl_bbt_supported_quantized_engines() : strdup(""); }
