/* CTorchShim: a C interface over libtorch 1.13 (TorchScript and PyTorch Lite).
 *
 * Every function catches all C++ exceptions. Functions that can fail return NULL or a
 * non-zero status and, when `error` is not NULL, store a message the caller frees with
 * bbt_free_string. Handles are opaque; each has one free function.
 */
#ifndef CTORCHSHIM_H
#define CTORCHSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A loaded TorchScript or PyTorch Lite module. */
typedef struct bbt_module bbt_module;
/** The tensors a forward call returned, copied to contiguous CPU memory. */
typedef struct bbt_outputs bbt_outputs;

/** Element types shared with Swift (values are this API's own, not libtorch's). */
typedef enum {
  BBT_FLOAT32 = 0,
  BBT_UINT8 = 1,
  BBT_INT8 = 2,
  BBT_INT32 = 3,
  BBT_INT64 = 4,
} bbt_element_type;

/** How to read the file. */
typedef enum {
  BBT_FORMAT_TORCHSCRIPT = 0, /* torch::jit::load */
  BBT_FORMAT_LITE = 1,        /* torch::jit::_load_for_mobile */
} bbt_format;

/** One input tensor, borrowed for the duration of a call. */
typedef struct {
  const void *data;
  bbt_element_type element_type;
  const int64_t *shape;
  int32_t rank;
} bbt_tensor_view;

/** Frees a message returned through an `error` parameter. */
void bbt_free_string(char *text);

/** Loads a module on the CPU. Returns NULL and sets `error` on failure. */
bbt_module *bbt_load(const char *path, bbt_format format, char **error);

/** Starts loading the file in a forked child whose address space may grow by at most
 * `extra_bytes`, so a damaged file can neither crash the calling process nor take the
 * machine's memory. The child exits 0 when the file loads; when loading throws, it writes
 * libtorch's message to a pipe and exits 1. Returns the child's pid (the caller waits for
 * it and reads the pipe's read end, returned in `message_fd`, then closes it), or -1. */
int bbt_check_start(const char *path, bbt_format format, unsigned long long extra_bytes, int *message_fd);

/** Does libtorch's one-time work before the first real model: builds a small network of
 * the course models' operator families in memory, loads it as TorchScript and as PyTorch
 * Lite and runs each once, on the calling thread only (OpenMP at 1 thread there, XNNPACK
 * without the process's thread pool; the process-wide thread count is not touched), and
 * frees it. Its warnings are dropped. Returns 0 on success, non-zero with `error` when
 * libtorch failed. */
int bbt_warm_up(char **error);

/** Frees a module (NULL is allowed). */
void bbt_module_free(bbt_module *module);

/** The number of arguments of `forward`, not counting `self`; -1 when unknown. */
int bbt_input_count(const bbt_module *module);

/** The name of argument `index` of `forward` (owned by the module), or NULL. */
const char *bbt_input_name(const bbt_module *module, int index);

/** The type of argument `index` as the schema writes it ("Tensor"), or NULL. */
const char *bbt_input_type(const bbt_module *module, int index);

/** The JSON text of the module's extra file "benchbook.json" (owned by the module);
 * empty when the file has none. Benchbook's course models record input and output names,
 * shapes and element types there. */
const char *bbt_metadata(const bbt_module *module);

/** Runs `forward` without gradients. Tensor outputs, and tensors inside a returned
 * tuple or list, are copied (quantised tensors are dequantised to float32). */
bbt_outputs *bbt_forward(bbt_module *module, const bbt_tensor_view *inputs, int count,
                         char **error);

/** Runs `forward` `iterations` times on the same inputs, discarding the results, and
 * writes each run's wall time in nanoseconds to `nanoseconds` (length `iterations`).
 * The runtime's own loop, the baseline for the Swift benchmark. Returns 0 on success. */
int bbt_time_forward(bbt_module *module, const bbt_tensor_view *inputs, int count,
                     int iterations, int64_t *nanoseconds, char **error);

/** One operator call recorded by bbt_profile_forward: an ATen or custom operator that
 * libtorch's dispatcher ran (RecordFunction, scope FUNCTION) on the calling thread. */
typedef struct {
  const char *name;      /* operator name, for example "aten::_convolution" (owned by the profile) */
  int32_t run;           /* which profiled run, from 0 */
  int32_t parent;        /* index of the enclosing operator call, or -1 for one the model's code made */
  int64_t start_ns;      /* from the start of its run */
  int64_t duration_ns;
} bbt_profile_event;

/** What bbt_profile_forward recorded. */
typedef struct bbt_profile bbt_profile;

/** Runs `forward` `runs` times, recording every operator call libtorch's dispatcher makes on
 * this thread (a global RecordFunction callback, registered for the call and removed after)
 * and each run's wall time. Returns NULL and sets `error` on failure. */
bbt_profile *bbt_profile_forward(bbt_module *module, const bbt_tensor_view *inputs, int count, int runs,
                                 char **error);
/** The number of runs recorded. */
int bbt_profile_run_count(const bbt_profile *profile);
/** The wall time of run `run` in nanoseconds (the forward call, as bbt_time_forward times it). */
int64_t bbt_profile_run_nanoseconds(const bbt_profile *profile, int run);
/** The number of operator calls recorded, over all runs. */
int bbt_profile_event_count(const bbt_profile *profile);
/** The recorded calls, in the order they started (owned by the profile). */
const bbt_profile_event *bbt_profile_events(const bbt_profile *profile);
/** Operator calls made on other threads while profiling (not in the events). */
int64_t bbt_profile_other_thread_calls(const bbt_profile *profile);
/** Frees a profile (NULL is allowed). */
void bbt_profile_free(bbt_profile *profile);

/** Frees outputs (NULL is allowed). */
void bbt_outputs_free(bbt_outputs *outputs);
/** The number of output tensors. */
int bbt_outputs_count(const bbt_outputs *outputs);
/** Element type of output `index`. */
bbt_element_type bbt_output_element_type(const bbt_outputs *outputs, int index);
/** Rank of output `index`. */
int bbt_output_rank(const bbt_outputs *outputs, int index);
/** Size of axis `axis` of output `index`. */
int64_t bbt_output_dimension(const bbt_outputs *outputs, int index, int axis);
/** The contiguous elements of output `index` (owned by `outputs`). */
const void *bbt_output_data(const bbt_outputs *outputs, int index);

/** Sets libtorch's intra-op thread count (process-wide): the pthreadpool that XNNPACK and
 * QNNPACK operators run on, and OpenMP for ATen operators. Each forward call then runs
 * OpenMP with 1 thread when the module's heavy operators are on the pthreadpool (see
 * bbt_uses_pthreadpool), so the two pools never spin against each other. Returns 0 on
 * success. */
int bbt_set_threads(int count, char **error);
/** The intra-op thread count last set (libtorch's default before any). */
int bbt_threads(void);
/** Gives a module its own thread count (0: none, it runs with the process-wide count). libtorch's
 * count is process-wide, so before each forward call a module with its own count sets it
 * when another module changed it. Returns 0 on success. */
int bbt_module_set_threads(bbt_module *module, int count, char **error);
/** The module's own thread count, or 0 when it has none. */
int bbt_module_threads(const bbt_module *module);
/** The operators the module's code calls (not the interpreter's own prim:: instructions),
 * sorted and comma separated (owned by the module). */
const char *bbt_operators(const bbt_module *module);
/** 1 when the module's forward runs on libtorch's pthreadpool (XNNPACK prepacked operators,
 * or quantised operators with the QNNPACK engine) and so gets OpenMP at 1 thread. */
int bbt_uses_pthreadpool(const bbt_module *module);

/** Quiet (non-zero, the default) keeps libtorch's warnings in a buffer (bbt_take_warnings)
 * and drops its glog lines below FATAL; loud (0) lets both reach stderr. */
void bbt_set_quiet(int enabled);
/** The warnings kept while quiet, one per line, and empties the buffer (caller frees). */
char *bbt_take_warnings(void);

/** Selects the quantised engine ("qnnpack", "onednn", "fbgemm", "x86"), process-wide.
 * Returns 0 on success, non-zero with `error` when this build lacks it. */
int bbt_set_quantized_engine(const char *name, char **error);
/** The current quantised engine's name (static string). */
const char *bbt_quantized_engine(void);
/** The supported quantised engine names, comma separated (caller frees). */
char *bbt_supported_quantized_engines(void);

#ifdef __cplusplus
}
#endif

#endif
