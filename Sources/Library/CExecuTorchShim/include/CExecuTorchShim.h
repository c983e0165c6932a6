/* CExecuTorchShim: a C interface over the ExecuTorch runtime of the PyPI wheel `executorch`
 * (libexecutorch.so with the XNNPACK backend, the optimized and quantized kernel libraries,
 * the thread pool and ETDump).
 *
 * Every function catches all C++ exceptions. Functions that can fail return NULL or a
 * non-zero status and, when `error` is not NULL, store a message the caller frees with
 * bbe_free_string. Handles are opaque; each has one free function. A program is used by one
 * thread at a time.
 */
#ifndef CEXECUTORCHSHIM_H
#define CEXECUTORCHSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A loaded ExecuTorch program with its `forward` method. */
typedef struct bbe_program bbe_program;
/** The tensors a forward call returned, copied out of the runtime's memory. */
typedef struct bbe_outputs bbe_outputs;
/** What bbe_profile_forward recorded. */
typedef struct bbe_profile bbe_profile;

/** Element types shared with Swift (the same codes as CTorchShim's bbt_element_type). */
typedef enum {
  BBE_FLOAT32 = 0,
  BBE_UINT8 = 1,
  BBE_INT8 = 2,
  BBE_INT32 = 3,
  BBE_INT64 = 4,
  BBE_UNSUPPORTED = -1, /* an input or output of another type (or not a tensor) */
} bbe_element_type;

/** Why bbe_load failed. */
typedef enum {
  BBE_LOAD_OK = 0,
  BBE_LOAD_UNREADABLE = 1,      /* the file cannot be opened or mapped */
  BBE_LOAD_CORRUPT = 2,         /* not an ExecuTorch program, truncated, or failing verification */
  BBE_LOAD_MISSING_BACKEND = 3, /* a delegate's backend is not registered in this process */
  BBE_LOAD_MISSING_KERNEL = 4,  /* an operator has no registered kernel in this process */
  BBE_LOAD_FAILED = 5,          /* anything else the runtime refused (message says what) */
} bbe_load_status;

/** One input tensor, borrowed for the duration of a call. */
typedef struct {
  const void *data;
  bbe_element_type element_type;
  const int64_t *shape;
  int32_t rank;
} bbe_tensor_view;

/** Frees a message returned through an `error` parameter, or a string a function says the
 * caller frees. */
void bbe_free_string(char *text);

/** Loads an ExecuTorch program: the file memory-mapped (MmapDataLoader, no mlock), the
 * program verified (InternalConsistency), its `forward` method's backends and operator kernels
 * looked up in the runtime's registries (a missing one is reported by name, before the method
 * is loaded), then `forward` loaded with the XNNPACK thread pool at `threads` threads (0: keep
 * the pool's current size). Returns NULL with `status` and `error` set on failure. */
bbe_program *bbe_load(const char *path, int threads, bbe_load_status *status, char **error);

/** Frees a program (NULL is allowed). */
void bbe_program_free(bbe_program *program);

/** Starts loading the file in a forked child whose address space may grow by at most
 * `extra_bytes`, so that a damaged file can neither end the calling process (the runtime
 * aborts on some inconsistencies) nor take the machine's memory. The child loads the file
 * as bbe_load does and runs `forward` once on zeros; it exits 0 when both work, otherwise
 * writes the reason to a pipe and exits with the bbe_load_status (or 6 for a failed run).
 * Returns the child's pid (the caller waits for it and reads the pipe's read end, returned
 * in `message_fd`, then closes it), or -1. */
int bbe_check_start(const char *path, int threads, unsigned long long extra_bytes, int *message_fd);

/** The number of inputs of `forward`. */
int bbe_input_count(const bbe_program *program);
/** The number of outputs of `forward`. */
int bbe_output_count(const bbe_program *program);
/** The element type of input (is_output 0) or output (1) `index`. */
bbe_element_type bbe_tensor_element_type(const bbe_program *program, int is_output, int index);
/** The rank of input or output `index` (0 when it is not a tensor). */
int bbe_tensor_rank(const bbe_program *program, int is_output, int index);
/** The size of axis `axis` of input or output `index`, as the program records it. */
int64_t bbe_tensor_dimension(const bbe_program *program, int is_output, int index, int axis);

/** The JSON text the program's constant method "benchbook_json" returns (owned by the
 * program); empty when it has no such method. Benchbook's course files record their inputs,
 * outputs, class names and preprocessing there. */
const char *bbe_metadata(const bbe_program *program);
/** The program's method names, comma separated, sorted (owned by the program). */
const char *bbe_method_names(const bbe_program *program);
/** What `forward` runs, comma separated, sorted (owned by the program): each delegate's
 * backend as "delegate:XnnpackBackend" and each operator as "aten::convolution.out". */
const char *bbe_operators(const bbe_program *program);
/** The backends registered in this process, comma separated (caller frees). */
char *bbe_registered_backends(void);

/** Runs `forward`. Returns NULL and sets `error` on failure. */
bbe_outputs *bbe_forward(bbe_program *program, const bbe_tensor_view *inputs, int count, char **error);
/** Runs `forward` `iterations` times on the same inputs, writing each run's wall time in
 * nanoseconds (length `iterations`): the runtime's own loop, without Benchbook in between.
 * Returns 0 on success. */
int bbe_time_forward(bbe_program *program, const bbe_tensor_view *inputs, int count, int iterations,
                     int64_t *nanoseconds, char **error);

/** Frees outputs (NULL is allowed). */
void bbe_outputs_free(bbe_outputs *outputs);
/** The number of output tensors. */
int bbe_outputs_count(const bbe_outputs *outputs);
/** The element type of output `index`. */
bbe_element_type bbe_output_element_type(const bbe_outputs *outputs, int index);
/** The rank of output `index`. */
int bbe_output_rank(const bbe_outputs *outputs, int index);
/** The size of axis `axis` of output `index`. */
int64_t bbe_output_dimension(const bbe_outputs *outputs, int index, int axis);
/** The contiguous elements of output `index` (owned by `outputs`). */
const void *bbe_output_data(const bbe_outputs *outputs, int index);

/** Gives the program a thread count for the XNNPACK thread pool and the optimized kernels'
 * parallel loops. The runtime has one pool per process and XNNPACK binds a method to the pool
 * it was loaded with, so a program whose count differs from the pool's resizes the pool before
 * its next run and loads its `forward` again; every other program loaded on the old pool loads
 * its method again before its own next run. Returns 0 on success. */
int bbe_set_threads(bbe_program *program, int count, char **error);
/** The program's thread count. */
int bbe_threads(const bbe_program *program);
/** The size of the process's thread pool now (what the last run used). */
int bbe_pool_threads(void);
/** How many times the program's `forward` was loaded (1 after bbe_load; each thread-pool change
 * that reached it adds one). */
int bbe_method_loads(const bbe_program *program);

/** One event recorded by bbe_profile_forward (the runtime's event tracer hooks, recorded by an
 * ETDumpGen). */
typedef struct {
  const char *kind;      /* "aten::convolution.out" (an operator the runtime ran), an XNNPACK
                            operator name ("Convolution (NHWC, F32) IGEMM"), "XnnpackBackend" for
                            a delegate call, "Method::execute", ... (owned by the profile) */
  int32_t run;           /* which profiled run, from 0 */
  int32_t instruction;   /* the instruction of `forward` it belongs to, -1 for the method itself */
  int32_t delegate;      /* for a delegate's own operator: its position in the delegate, else -1 */
  int32_t is_delegate_call; /* 1 for the delegate call that contains delegate operators */
  int64_t duration_ns;
} bbe_profile_event;

/** Runs `forward` `runs` times after `warm_up` runs on a second copy of the method loaded with
 * an event tracer (an ETDumpGen subclass, kept for later profiles), recording every event the
 * runtime and the XNNPACK delegate report and each run's wall time. Returns NULL and sets
 * `error` on failure. */
bbe_profile *bbe_profile_forward(bbe_program *program, const bbe_tensor_view *inputs, int count, int warm_up,
                                 int runs, char **error);
/** The number of runs recorded. */
int bbe_profile_run_count(const bbe_profile *profile);
/** The wall time of run `run`, in nanoseconds. */
int64_t bbe_profile_run_nanoseconds(const bbe_profile *profile, int run);
/** The number of events recorded, over all runs. */
int bbe_profile_event_count(const bbe_profile *profile);
/** The recorded events (owned by the profile). */
const bbe_profile_event *bbe_profile_events(const bbe_profile *profile);
/** The size in bytes of the ETDump the last profiled run produced (0 when there is none). */
size_t bbe_profile_etdump_size(const bbe_profile *profile);
/** The ETDump bytes of the last profiled run (owned by the profile): the file the ExecuTorch
 * Inspector reads. */
const void *bbe_profile_etdump(const bbe_profile *profile);
/** Frees a profile (NULL is allowed). */
void bbe_profile_free(bbe_profile *profile);

/** Quiet (non-zero, the default) keeps the runtime's log lines in a buffer (bbe_take_log)
 * instead of printing them to stderr; loud (0) prints them. */
void bbe_set_quiet(int enabled);
/** The log lines kept while quiet, one per line, and empties the buffer (caller frees). */
char *bbe_take_log(void);

#ifdef __cplusplus
}
#endif

#endif
