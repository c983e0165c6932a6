#define _GNU_SOURCE
#include "CSourceKit.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every call into SourceKit is in this file. The library is opened with dlopen from the
// toolchain the kernel uses, so nothing here is fixed at build time. The declarations
// below are the parts of SourceKit's C interface (sourcekitd.h) this file uses: opaque
// handles, and a variant that is three 64-bit words passed by value.

typedef void *sk_object;
typedef void *sk_response;
typedef void *sk_uid;
typedef struct { uint64_t data[3]; } sk_variant;

#define SK_FUNCTIONS(X)                                                                          \
    X(sourcekitd_initialize, void, (void))                                                       \
    X(sourcekitd_uid_get_from_cstr, sk_uid, (const char *))                                      \
    X(sourcekitd_uid_get_string_ptr, const char *, (sk_uid))                                     \
    X(sourcekitd_request_dictionary_create, sk_object, (const sk_uid *, const sk_object *, size_t)) \
    X(sourcekitd_request_dictionary_set_uid, void, (sk_object, sk_uid, sk_uid))                  \
    X(sourcekitd_request_dictionary_set_string, void, (sk_object, sk_uid, const char *))         \
    X(sourcekitd_request_dictionary_set_value, void, (sk_object, sk_uid, sk_object))             \
    X(sourcekitd_request_array_create, sk_object, (const sk_object *, size_t))                   \
    X(sourcekitd_request_array_set_string, void, (sk_object, size_t, const char *))              \
    X(sourcekitd_request_release, void, (sk_object))                                             \
    X(sourcekitd_send_request_sync, sk_response, (sk_object))                                    \
    X(sourcekitd_response_is_error, bool, (sk_response))                                        \
    X(sourcekitd_response_error_get_description, const char *, (sk_response))                    \
    X(sourcekitd_response_dispose, void, (sk_response))                                          \
    X(sourcekitd_response_get_value, sk_variant, (sk_response))                                  \
    X(sourcekitd_variant_dictionary_get_value, sk_variant, (sk_variant, sk_uid))                 \
    X(sourcekitd_variant_dictionary_get_int64, int64_t, (sk_variant, sk_uid))                    \
    X(sourcekitd_variant_dictionary_get_string, const char *, (sk_variant, sk_uid))              \
    X(sourcekitd_variant_dictionary_get_uid, sk_uid, (sk_variant, sk_uid))                       \
    X(sourcekitd_variant_array_get_count, size_t, (sk_variant))                                  \
    X(sourcekitd_variant_array_get_value, sk_variant, (sk_variant, size_t))

#define DECLARE(name, result, parameters) static result(*name##_) parameters;
SK_FUNCTIONS(DECLARE)

static struct {
    sk_uid request, name, arguments, compile, diagnostics, value;
    sk_uid line, column, file, severity, description, error_severity, warning_severity;
} keys;

int bbsk_open(const char *library_path, char *failure, size_t capacity) {
    void *library = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure, capacity, "%s", reason ? reason : "dlopen failed");
        return -1;
    }
#define RESOLVE(name, result, parameters)                                                       \
    name##_ = (result(*) parameters)dlsym(library, #name);                                      \
    if (name##_ == NULL) {                                                                      \
        snprintf(failure, capacity, "%s has no %s", library_path, #name);                       \
        return -1;                                                                              \
    }
    SK_FUNCTIONS(RESOLVE)
    sourcekitd_initialize_();
    keys.request = sourcekitd_uid_get_from_cstr_("key.request");
    keys.name = sourcekitd_uid_get_from_cstr_("key.name");
    keys.arguments = sourcekitd_uid_get_from_cstr_("key.compilerargs");
    keys.compile = sourcekitd_uid_get_from_cstr_("source.request.compile");
    keys.diagnostics = sourcekitd_uid_get_from_cstr_("key.diagnostics");
    keys.value = sourcekitd_uid_get_from_cstr_("key.value");
    keys.line = sourcekitd_uid_get_from_cstr_("key.line");
    keys.column = sourcekitd_uid_get_from_cstr_("key.column");
    keys.file = sourcekitd_uid_get_from_cstr_("key.filepath");
    keys.severity = sourcekitd_uid_get_from_cstr_("key.severity");
    keys.description = sourcekitd_uid_get_from_cstr_("key.description");
    keys.error_severity = sourcekitd_uid_get_from_cstr_("source.diagnostic.severity.error");
    keys.warning_severity = sourcekitd_uid_get_from_cstr_("source.diagnostic.severity.warning");
    return 0;
}

/// Appends `file:line:column: severity: message` (or `severity: message` without a file).
static void append_diagnostic(FILE *stream, sk_variant diagnostic) {
    const char *file = sourcekitd_variant_dictionary_get_string_(diagnostic, keys.file);
    const char *message = sourcekitd_variant_dictionary_get_string_(diagnostic, keys.description);
    sk_uid severity = sourcekitd_variant_dictionary_get_uid_(diagnostic, keys.severity);
    const char *kind = severity == keys.error_severity ? "error" : severity == keys.warning_severity ? "warning" : "note";
    if (file != NULL && file[0] != '\0') {
        fprintf(stream, "%s:%lld:%lld: ", file, (long long)sourcekitd_variant_dictionary_get_int64_(diagnostic, keys.line),
                (long long)sourcekitd_variant_dictionary_get_int64_(diagnostic, keys.column));
    }
    fprintf(stream, "%s: %s\n", kind, message ? message : "");
}

int bbsk_compile(const char *const *arguments, int count, char **output) {
    size_t size = 0;
    FILE *stream = open_memstream(output, &size);
    if (stream == NULL) return -1;
    sk_object list = sourcekitd_request_array_create_(NULL, 0);
    for (int index = 0; index < count; ++index) {
        sourcekitd_request_array_set_string_(list, (size_t)-1, arguments[index]);
    }
    sk_object request = sourcekitd_request_dictionary_create_(NULL, NULL, 0);
    sourcekitd_request_dictionary_set_uid_(request, keys.request, keys.compile);
    // One name for every compile: SourceKit keeps no state between them that a later cell
    // could see (each has its own module name and files).
    sourcekitd_request_dictionary_set_string_(request, keys.name, "benchbook-cell");
    sourcekitd_request_dictionary_set_value_(request, keys.arguments, list);
    sk_response response = sourcekitd_send_request_sync_(request);
    sourcekitd_request_release_(request);
    int result;
    if (sourcekitd_response_is_error_(response)) {
        const char *reason = sourcekitd_response_error_get_description_(response);
        fprintf(stream, "SourceKit could not compile: %s\n", reason ? reason : "no reason given");
        result = -1;
    } else {
        sk_variant value = sourcekitd_response_get_value_(response);
        sk_variant diagnostics = sourcekitd_variant_dictionary_get_value_(value, keys.diagnostics);
        size_t found = sourcekitd_variant_array_get_count_(diagnostics);
        for (size_t index = 0; index < found; ++index) {
            append_diagnostic(stream, sourcekitd_variant_array_get_value_(diagnostics, index));
        }
        // key.value is the compiler's exit code.
        result = sourcekitd_variant_dictionary_get_int64_(value, keys.value) == 0 ? 0 : 1;
    }
    sourcekitd_response_dispose_(response);
    fclose(stream);
    return result;
}
