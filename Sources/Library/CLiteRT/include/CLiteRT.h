/* CLiteRT: the part of the LiteRT C API (libLiteRt.so from the PyPI wheel ai-edge-litert
 * 2.3.0) that Benchbook uses, declared here because the wheel ships no headers.
 *
 * Types and signatures were checked against the LiteRT 2.x C headers (litert_common.h,
 * litert_layout.h, litert_model_types.h, litert_model.h, litert_options.h,
 * litert_opaque_options.h, litert_compiled_model.h, litert_tensor_buffer.h,
 * litert_environment.h) and against the symbols the library exports. The library is
 * opened at run time with dlopen (bbl_open); each bbl_ function forwards to the symbol
 * of the same LiteRt name.
 */
#ifndef CLITERT_H
#define CLITERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t LiteRtStatus;          /* 0 is kLiteRtStatusOk */
typedef size_t LiteRtParamIndex;
typedef int32_t LiteRtHwAcceleratorSet; /* kLiteRtHwAcceleratorCpu = 1 */
typedef int32_t LiteRtElementType;     /* TfLiteType values: float32 1, int32 2, uint8 3, int64 4, int8 9 */
typedef int32_t LiteRtTensorBufferLockMode; /* read 0, write 1 */
typedef int32_t LiteRtQuantizationTypeId;   /* none 0, per tensor 1, per channel 2 */

typedef struct LiteRtEnvironmentT *LiteRtEnvironment;
typedef struct LiteRtModelT *LiteRtModel;
typedef struct LiteRtSignatureT *LiteRtSignature;
typedef struct LiteRtTensorT *LiteRtTensor;
typedef struct LiteRtOptionsT *LiteRtOptions;
typedef struct LiteRtOpaqueOptionsT *LiteRtOpaqueOptions;
typedef struct LiteRtCompiledModelT *LiteRtCompiledModel;
typedef struct LiteRtTensorBufferT *LiteRtTensorBuffer;
typedef struct LiteRtProfilerT *LiteRtProfiler;

#define BBL_MAX_RANK 8

/* LiteRtLayout: 68 bytes with GCC/Clang (rank:7 and has_strides:1 share one int). */
typedef struct {
  unsigned int rank : 7;
  bool has_strides : 1;
  int32_t dimensions[BBL_MAX_RANK];
  uint32_t strides[BBL_MAX_RANK];
} LiteRtLayout;

/* LiteRtRankedTensorType: 72 bytes, ABI stable upstream. */
typedef struct {
  LiteRtElementType element_type;
  LiteRtLayout layout;
} LiteRtRankedTensorType;

typedef struct {
  float scale;
  int64_t zero_point;
} LiteRtQuantizationPerTensor;

/** Opens libLiteRt.so at `path` and resolves every symbol below. Returns 0 on success;
 * otherwise writes the reason (dlerror text or the missing symbol) to `message`. Safe to
 * call again: after a success it does nothing. */
int bbl_open(const char *path, char *message, size_t message_size);

/** True once bbl_open succeeded. */
bool bbl_is_open(void);

/** Sets a layout's rank (the bit-field cannot be written from Swift). */
void bbl_layout_set_rank(LiteRtLayout *layout, unsigned int rank);
/** A layout's rank. */
unsigned int bbl_layout_rank(const LiteRtLayout *layout);

LiteRtStatus bbl_create_environment(LiteRtEnvironment *environment);
void bbl_destroy_environment(LiteRtEnvironment environment);

LiteRtStatus bbl_create_model_from_file(LiteRtEnvironment environment, const char *path,
                                        LiteRtModel *model);
void bbl_destroy_model(LiteRtModel model);
LiteRtStatus bbl_get_num_model_signatures(LiteRtModel model, LiteRtParamIndex *count);
/** The model's metadata buffer named `key` (owned by the model), or a non-zero status when
 * it has none. */
LiteRtStatus bbl_get_model_metadata(LiteRtModel model, const char *key, const void **data,
                                    size_t *size);
LiteRtStatus bbl_get_model_signature(LiteRtModel model, LiteRtParamIndex index,
                                     LiteRtSignature *signature);
LiteRtStatus bbl_get_signature_key(LiteRtSignature signature, const char **key);
LiteRtStatus bbl_get_num_signature_inputs(LiteRtSignature signature, LiteRtParamIndex *count);
LiteRtStatus bbl_get_num_signature_outputs(LiteRtSignature signature, LiteRtParamIndex *count);
LiteRtStatus bbl_get_signature_input_name(LiteRtSignature signature, LiteRtParamIndex index,
                                          const char **name);
LiteRtStatus bbl_get_signature_output_name(LiteRtSignature signature, LiteRtParamIndex index,
                                           const char **name);
LiteRtStatus bbl_get_signature_input_tensor(LiteRtSignature signature, LiteRtParamIndex index,
                                            LiteRtTensor *tensor);
LiteRtStatus bbl_get_signature_output_tensor(LiteRtSignature signature, LiteRtParamIndex index,
                                             LiteRtTensor *tensor);
LiteRtStatus bbl_get_ranked_tensor_type(LiteRtTensor tensor, LiteRtRankedTensorType *type);
LiteRtStatus bbl_get_quantization_type_id(LiteRtTensor tensor, LiteRtQuantizationTypeId *id);
LiteRtStatus bbl_get_per_tensor_quantization(LiteRtTensor tensor,
                                             LiteRtQuantizationPerTensor *quantization);

LiteRtStatus bbl_create_options(LiteRtOptions *options);
void bbl_destroy_options(LiteRtOptions options);
LiteRtStatus bbl_set_options_hardware_accelerators(LiteRtOptions options,
                                                   LiteRtHwAcceleratorSet accelerators);
/** Adds CPU options given as TOML text (for example "num_threads = 2") under the CPU
 * accelerator's payload identifier. The text is copied. */
LiteRtStatus bbl_add_cpu_options(LiteRtOptions options, const char *identifier,
                                 const char *toml);

LiteRtStatus bbl_create_compiled_model(LiteRtEnvironment environment, LiteRtModel model,
                                       LiteRtOptions options, LiteRtCompiledModel *compiled);
void bbl_destroy_compiled_model(LiteRtCompiledModel compiled);
LiteRtStatus bbl_resize_input_tensor(LiteRtCompiledModel compiled, LiteRtParamIndex signature,
                                     LiteRtParamIndex input, const int *dimensions,
                                     size_t rank);
LiteRtStatus bbl_run_compiled_model(LiteRtCompiledModel compiled, LiteRtParamIndex signature,
                                    size_t input_count, LiteRtTensorBuffer *inputs,
                                    size_t output_count, LiteRtTensorBuffer *outputs);

/* Profiling (litert_profiler.h, litert_profiler_event.h of the same LiteRT version). A
 * compiled model has a profiler only when it was compiled with runtime options whose TOML
 * payload (identifier "runtime_options_string") says `enable_profiling = true`. */

/** LiteRtProfilerEventType: what an event times. */
typedef enum {
  BBL_EVENT_DEFAULT = 1,                               /* runtime steps ("Invoke", buffer sync) */
  BBL_EVENT_OPERATOR_INVOKE = 1 << 1,                  /* a node of the graph; metadata1 = node index */
  BBL_EVENT_DELEGATE_OPERATOR_INVOKE = 1 << 2,         /* an operator inside a delegate (XNNPACK) */
  BBL_EVENT_DELEGATE_PROFILED_OPERATOR_INVOKE = 1 << 3,
  BBL_EVENT_GENERAL_RUNTIME_INSTRUMENTATION = 1 << 4,
} bbl_profiler_event_type;

/** LiteRtMemoryUsage (C mirror of tflite::profiling::memory::MemoryUsage). */
typedef struct {
  size_t total_allocated_bytes;
  size_t in_use_allocated_bytes;
  size_t private_footprint_bytes;
} LiteRtMemoryUsage;

/** ProfiledEventData: one timed event. The tag is owned by the profiler. */
typedef struct {
  const char *tag;
  int32_t event_type; /* bbl_profiler_event_type */
  uint64_t start_timestamp_us;
  uint64_t elapsed_time_us;
  LiteRtMemoryUsage begin_mem_usage;
  LiteRtMemoryUsage end_mem_usage;
  uint64_t event_metadata1;
  uint64_t event_metadata2;
  int32_t event_source; /* ProfiledEventSource: LiteRT 0, TFLite interpreter 1, delegate 2 */
} LiteRtProfiledEventData;

/** Adds LiteRT runtime options given as TOML text (for example "enable_profiling = true")
 * under the runtime options' payload identifier. The text is copied. */
LiteRtStatus bbl_add_runtime_options(LiteRtOptions options, const char *toml);
/** The compiled model's profiler (owned by the compiled model), or a non-zero status when it
 * was compiled without profiling. */
LiteRtStatus bbl_compiled_model_get_profiler(LiteRtCompiledModel compiled, LiteRtProfiler *profiler);
LiteRtStatus bbl_start_profiler(LiteRtProfiler profiler);
LiteRtStatus bbl_stop_profiler(LiteRtProfiler profiler);
LiteRtStatus bbl_reset_profiler(LiteRtProfiler profiler);
LiteRtStatus bbl_get_num_profiler_events(LiteRtProfiler profiler, int *count);
/** Copies the events into `events` (room for `count`, at least the number of events). */
LiteRtStatus bbl_get_profiler_events(LiteRtProfiler profiler, int count, LiteRtProfiledEventData *events);

/** Wraps caller-owned, 64-byte-aligned host memory (no deallocator: the caller frees it
 * after destroying the buffer). */
LiteRtStatus bbl_create_tensor_buffer_from_host_memory(const LiteRtRankedTensorType *type,
                                                       void *memory, size_t size,
                                                       LiteRtTensorBuffer *buffer);
void bbl_destroy_tensor_buffer(LiteRtTensorBuffer buffer);
LiteRtStatus bbl_lock_tensor_buffer(LiteRtTensorBuffer buffer, void **address,
                                    LiteRtTensorBufferLockMode mode);
LiteRtStatus bbl_unlock_tensor_buffer(LiteRtTensorBuffer buffer);

/** Starts keeping what the process writes to standard error (file descriptor 2) in a
 * memory file: LiteRT prints its log lines there. Returns the saved descriptor to pass to
 * bbl_capture_stderr_end, or -1 when capturing could not start (nothing changed). */
int bbl_capture_stderr_begin(void);
/** Restores standard error and returns what was written meanwhile (caller frees; NULL when
 * nothing could be read). */
char *bbl_capture_stderr_end(int saved);

/** Starts loading, compiling (CPU, 1 thread) and running the model once on zeros in a
 * forked child whose address space may grow by at most `extra_bytes`, so a damaged file can
 * neither crash the calling process nor take the machine's memory. The child exits 0 when
 * every step worked; when LiteRT reports an error it writes which step failed, with the
 * status, to a pipe and exits 1. Returns the child's pid (the caller waits for it with a
 * deadline, since LiteRT can loop for a very long time on some damaged files, reads the
 * pipe's read end returned in `message_fd`, and closes it), or -1. */
int bbl_check_start(const char *path, const char *cpu_options_identifier, unsigned long long extra_bytes,
                    int *message_fd);

#ifdef __cplusplus
}
#endif

#endif
