// Resolves the LiteRT C API from libLiteRt.so at run time and forwards calls to it.

#define _GNU_SOURCE
#include "CLiteRT.h"
#include "CSystemSupport.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*payload_destructor)(void *);

static struct {
  LiteRtStatus (*create_environment)(int, const void *, LiteRtEnvironment *);
  void (*destroy_environment)(LiteRtEnvironment);
  LiteRtStatus (*create_model_from_file)(LiteRtEnvironment, const char *, LiteRtModel *);
  void (*destroy_model)(LiteRtModel);
  LiteRtStatus (*get_num_model_signatures)(LiteRtModel, LiteRtParamIndex *);
  LiteRtStatus (*get_model_metadata)(LiteRtModel, const char *, const void **, size_t *);
  LiteRtStatus (*get_model_signature)(LiteRtModel, LiteRtParamIndex, LiteRtSignature *);
  LiteRtStatus (*get_signature_key)(LiteRtSignature, const char **);
  LiteRtStatus (*get_num_signature_inputs)(LiteRtSignature, LiteRtParamIndex *);
  LiteRtStatus (*get_num_signature_outputs)(LiteRtSignature, LiteRtParamIndex *);
  LiteRtStatus (*get_signature_input_name)(LiteRtSignature, LiteRtParamIndex, const char **);
  LiteRtStatus (*get_signature_output_name)(LiteRtSignature, LiteRtParamIndex, const char **);
  LiteRtStatus (*get_signature_input_tensor)(LiteRtSignature, LiteRtParamIndex, LiteRtTensor *);
  LiteRtStatus (*get_signature_output_tensor)(LiteRtSignature, LiteRtParamIndex, LiteRtTensor *);
  LiteRtStatus (*get_ranked_tensor_type)(LiteRtTensor, LiteRtRankedTensorType *);
  LiteRtStatus (*get_quantization_type_id)(LiteRtTensor, LiteRtQuantizationTypeId *);
  LiteRtStatus (*get_per_tensor_quantization)(LiteRtTensor, LiteRtQuantizationPerTensor *);
  LiteRtStatus (*create_options)(LiteRtOptions *);
  void (*destroy_options)(LiteRtOptions);
  LiteRtStatus (*set_options_hardware_accelerators)(LiteRtOptions, LiteRtHwAcceleratorSet);
  LiteRtStatus (*create_opaque_options)(const char *, void *, payload_destructor,
                                        LiteRtOpaqueOptions *);
  void (*destroy_opaque_options)(LiteRtOpaqueOptions);
  LiteRtStatus (*add_opaque_options)(LiteRtOptions, LiteRtOpaqueOptions);
  LiteRtStatus (*create_compiled_model)(LiteRtEnvironment, LiteRtModel, LiteRtOptions,
                                        LiteRtCompiledModel *);
  void (*destroy_compiled_model)(LiteRtCompiledModel);
  LiteRtStatus (*resize_input_tensor)(LiteRtCompiledModel, LiteRtParamIndex, LiteRtParamIndex,
                                      const int *, size_t);
  LiteRtStatus (*run_compiled_model)(LiteRtCompiledModel, LiteRtParamIndex, size_t,
                                     LiteRtTensorBuffer *, size_t, LiteRtTensorBuffer *);
  LiteRtStatus (*create_tensor_buffer_from_host_memory)(const LiteRtRankedTensorType *, void *,
                                                        size_t, void (*)(void *),
                                                        LiteRtTensorBuffer *);
  void (*destroy_tensor_buffer)(LiteRtTensorBuffer);
  LiteRtStatus (*lock_tensor_buffer)(LiteRtTensorBuffer, void **, LiteRtTensorBufferLockMode);
  LiteRtStatus (*unlock_tensor_buffer)(LiteRtTensorBuffer);
  LiteRtStatus (*compiled_model_get_profiler)(LiteRtCompiledModel, LiteRtProfiler *);
  LiteRtStatus (*start_profiler)(LiteRtProfiler);
  LiteRtStatus (*stop_profiler)(LiteRtProfiler);
  LiteRtStatus (*reset_profiler)(LiteRtProfiler);
  LiteRtStatus (*get_num_profiler_events)(LiteRtProfiler, int *);
  LiteRtStatus (*get_profiler_events)(LiteRtProfiler, int, LiteRtProfiledEventData *);
} api;

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static bool opened = false;

#define RESOLVE(field, symbol)                                                      \
  do {                                                                              \
    *(void **)(&api.field) = dlsym(library, symbol);                                \
    if (!api.field) {                                                               \
      snprintf(message, message_size, "%s does not export %s (expected LiteRT 2.x)", \
               path, symbol);                                                       \
      dlclose(library);                                                             \
      return 1;                                                                     \
    }                                                                               \
  } while (0)

static int open_locked(const char *path, char *message, size_t message_size) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    snprintf(message, message_size, "%s", reason ? reason : "dlopen failed");
    return 1;
  }
  RESOLVE(create_environment, "LiteRtCreateEnvironment");
  RESOLVE(destroy_environment, "LiteRtDestroyEnvironment");
  RESOLVE(create_model_from_file, "LiteRtCreateModelFromFile");
  RESOLVE(destroy_model, "LiteRtDestroyModel");
  RESOLVE(get_num_model_signatures, "LiteRtGetNumModelSignatures");
  RESOLVE(get_model_metadata, "LiteRtGetModelMetadata");
  RESOLVE(get_model_signature, "LiteRtGetModelSignature");
  RESOLVE(get_signature_key, "LiteRtGetSignatureKey");
  RESOLVE(get_num_signature_inputs, "LiteRtGetNumSignatureInputs");
  RESOLVE(get_num_signature_outputs, "LiteRtGetNumSignatureOutputs");
  RESOLVE(get_signature_input_name, "LiteRtGetSignatureInputName");
  RESOLVE(get_signature_output_name, "LiteRtGetSignatureOutputName");
  RESOLVE(get_signature_input_tensor, "LiteRtGetSignatureInputTensorByIndex");
  RESOLVE(get_signature_output_tensor, "LiteRtGetSignatureOutputTensorByIndex");
  RESOLVE(get_ranked_tensor_type, "LiteRtGetRankedTensorType");
  RESOLVE(get_quantization_type_id, "LiteRtGetQuantizationTypeId");
  RESOLVE(get_per_tensor_quantization, "LiteRtGetPerTensorQuantization");
  RESOLVE(create_options, "LiteRtCreateOptions");
  RESOLVE(destroy_options, "LiteRtDestroyOptions");
  RESOLVE(set_options_hardware_accelerators, "LiteRtSetOptionsHardwareAccelerators");
  RESOLVE(create_opaque_options, "LiteRtCreateOpaqueOptions");
  RESOLVE(destroy_opaque_options, "LiteRtDestroyOpaqueOptions");
  RESOLVE(add_opaque_options, "LiteRtAddOpaqueOptions");
  RESOLVE(create_compiled_model, "LiteRtCreateCompiledModel");
  RESOLVE(destroy_compiled_model, "LiteRtDestroyCompiledModel");
  RESOLVE(resize_input_tensor, "LiteRtCompiledModelResizeInputTensor");
  RESOLVE(run_compiled_model, "LiteRtRunCompiledModel");
  RESOLVE(create_tensor_buffer_from_host_memory, "LiteRtCreateTensorBufferFromHostMemory");
  RESOLVE(destroy_tensor_buffer, "LiteRtDestroyTensorBuffer");
  RESOLVE(lock_tensor_buffer, "LiteRtLockTensorBuffer");
  RESOLVE(unlock_tensor_buffer, "LiteRtUnlockTensorBuffer");
  RESOLVE(compiled_model_get_profiler, "LiteRtCompiledModelGetProfiler");
  RESOLVE(start_profiler, "LiteRtStartProfiler");
  RESOLVE(stop_profiler, "LiteRtStopProfiler");
  RESOLVE(reset_profiler, "LiteRtResetProfiler");
  RESOLVE(get_num_profiler_events, "LiteRtGetNumProfilerEvents");
  RESOLVE(get_profiler_events, "LiteRtGetProfilerEvents");
  return 0;
}

int bbl_open(const char *path, char *message, size_t message_size) {
  pthread_mutex_lock(&open_lock);
  int status = 0;
  if (!opened) {
    status = open_locked(path, message, message_size);
    opened = status == 0;
  }
  pthread_mutex_unlock(&open_lock);
  return status;
}

bool bbl_is_open(void) { return opened; }

void bbl_layout_set_rank(LiteRtLayout *layout, unsigned int rank) {
  layout->rank = rank;
  layout->has_strides = false;
}

unsigned int bbl_layout_rank(const LiteRtLayout *layout) { return layout->rank; }

LiteRtStatus bbl_create_environment(LiteRtEnvironment *environment) {
  return api.create_environment(0, NULL, environment);
}
void bbl_destroy_environment(LiteRtEnvironment environment) {
  api.destroy_environment(environment);
}
LiteRtStatus bbl_create_model_from_file(LiteRtEnvironment environment, const char *path,
                                        LiteRtModel *model) {
  return api.create_model_from_file(environment, path, model);
}
void bbl_destroy_model(LiteRtModel model) { api.destroy_model(model); }
LiteRtStatus bbl_get_num_model_signatures(LiteRtModel model, LiteRtParamIndex *count) {
  return api.get_num_model_signatures(model, count);
}
LiteRtStatus bbl_get_model_metadata(LiteRtModel model, const char *key, const void **data,
                                    size_t *size) {
  return api.get_model_metadata(model, key, data, size);
}
LiteRtStatus bbl_get_model_signature(LiteRtModel model, LiteRtParamIndex index,
                                     LiteRtSignature *signature) {
  return api.get_model_signature(model, index, signature);
}
LiteRtStatus bbl_get_signature_key(LiteRtSignature signature, const char **key) {
  return api.get_signature_key(signature, key);
}
LiteRtStatus bbl_get_num_signature_inputs(LiteRtSignature signature, LiteRtParamIndex *count) {
  return api.get_num_signature_inputs(signature, count);
}
LiteRtStatus bbl_get_num_signature_outputs(LiteRtSignature signature, LiteRtParamIndex *count) {
  return api.get_num_signature_outputs(signature, count);
}
LiteRtStatus bbl_get_signature_input_name(LiteRtSignature signature, LiteRtParamIndex index,
                                          const char **name) {
  return api.get_signature_input_name(signature, index, name);
}
LiteRtStatus bbl_get_signature_output_name(LiteRtSignature signature, LiteRtParamIndex index,
                                           const char **name) {
  return api.get_signature_output_name(signature, index, name);
}
LiteRtStatus bbl_get_signature_input_tensor(LiteRtSignature signature, LiteRtParamIndex index,
                                            LiteRtTensor *tensor) {
  return api.get_signature_input_tensor(signature, index, tensor);
}
LiteRtStatus bbl_get_signature_output_tensor(LiteRtSignature signature, LiteRtParamIndex index,
                                             LiteRtTensor *tensor) {
  return api.get_signature_output_tensor(signature, index, tensor);
}
LiteRtStatus bbl_get_ranked_tensor_type(LiteRtTensor tensor, LiteRtRankedTensorType *type) {
  return api.get_ranked_tensor_type(tensor, type);
}
LiteRtStatus bbl_get_quantization_type_id(LiteRtTensor tensor, LiteRtQuantizationTypeId *id) {
  return api.get_quantization_type_id(tensor, id);
}
LiteRtStatus bbl_get_per_tensor_quantization(LiteRtTensor tensor,
                                             LiteRtQuantizationPerTensor *quantization) {
  return api.get_per_tensor_quantization(tensor, quantization);
}
LiteRtStatus bbl_create_options(LiteRtOptions *options) { return api.create_options(options); }
void bbl_destroy_options(LiteRtOptions options) { api.destroy_options(options); }
LiteRtStatus bbl_set_options_hardware_accelerators(LiteRtOptions options,
                                                   LiteRtHwAcceleratorSet accelerators) {
  return api.set_options_hardware_accelerators(options, accelerators);
}

static LiteRtStatus add_opaque_toml(LiteRtOptions options, const char *identifier,
                                    const char *toml) {
  char *payload = strdup(toml);
  if (!payload) return 2; /* kLiteRtStatusErrorMemoryAllocationFailure */
  LiteRtOpaqueOptions opaque = NULL;
  LiteRtStatus status = api.create_opaque_options(identifier, payload, free, &opaque);
  if (status != 0) {
    free(payload);
    return status;
  }
  status = api.add_opaque_options(options, opaque);
  if (status != 0) api.destroy_opaque_options(opaque);
  return status;
}

LiteRtStatus bbl_add_cpu_options(LiteRtOptions options, const char *identifier,
                                 const char *toml) {
  return add_opaque_toml(options, identifier, toml);
}

LiteRtStatus bbl_add_runtime_options(LiteRtOptions options, const char *toml) {
  return add_opaque_toml(options, "runtime_options_string", toml);
}

LiteRtStatus bbl_compiled_model_get_profiler(LiteRtCompiledModel compiled, LiteRtProfiler *profiler) {
  return api.compiled_model_get_profiler(compiled, profiler);
}
LiteRtStatus bbl_start_profiler(LiteRtProfiler profiler) { return api.start_profiler(profiler); }
LiteRtStatus bbl_stop_profiler(LiteRtProfiler profiler) { return api.stop_profiler(profiler); }
LiteRtStatus bbl_reset_profiler(LiteRtProfiler profiler) { return api.reset_profiler(profiler); }
LiteRtStatus bbl_get_num_profiler_events(LiteRtProfiler profiler, int *count) {
  return api.get_num_profiler_events(profiler, count);
}
LiteRtStatus bbl_get_profiler_events(LiteRtProfiler profiler, int count, LiteRtProfiledEventData *events) {
  return api.get_profiler_events(profiler, count, events);
}

LiteRtStatus bbl_create_compiled_model(LiteRtEnvironment environment, LiteRtModel model,
                                       LiteRtOptions options, LiteRtCompiledModel *compiled) {
  return api.create_compiled_model(environment, model, options, compiled);
}
void bbl_destroy_compiled_model(LiteRtCompiledModel compiled) {
  api.destroy_compiled_model(compiled);
}
LiteRtStatus bbl_resize_input_tensor(LiteRtCompiledModel compiled, LiteRtParamIndex signature,
                                     LiteRtParamIndex input, const int *dimensions,
                                     size_t rank) {
  return api.resize_input_tensor(compiled, signature, input, dimensions, rank);
}
LiteRtStatus bbl_run_compiled_model(LiteRtCompiledModel compiled, LiteRtParamIndex signature,
                                    size_t input_count, LiteRtTensorBuffer *inputs,
                                    size_t output_count, LiteRtTensorBuffer *outputs) {
  return api.run_compiled_model(compiled, signature, input_count, inputs, output_count, outputs);
}
LiteRtStatus bbl_create_tensor_buffer_from_host_memory(const LiteRtRankedTensorType *type,
                                                       void *memory, size_t size,
                                                       LiteRtTensorBuffer *buffer) {
  return api.create_tensor_buffer_from_host_memory(type, memory, size, NULL, buffer);
}
void bbl_destroy_tensor_buffer(LiteRtTensorBuffer buffer) { api.destroy_tensor_buffer(buffer); }
LiteRtStatus bbl_lock_tensor_buffer(LiteRtTensorBuffer buffer, void **address,
                                    LiteRtTensorBufferLockMode mode) {
  return api.lock_tensor_buffer(buffer, address, mode);
}
LiteRtStatus bbl_unlock_tensor_buffer(LiteRtTensorBuffer buffer) {
  return api.unlock_tensor_buffer(buffer);
}

int bbl_capture_stderr_begin(void) {
  fflush(stderr);
  int memory = memfd_create("benchbook-runtime-log", MFD_CLOEXEC);
  if (memory < 0) return -1;
  int saved = dup(2);
  if (saved < 0 || dup2(memory, 2) < 0) {
    if (saved >= 0) close(saved);
    close(memory);
    return -1;
  }
  close(memory);  // fd 2 keeps the memory file open
  return saved;
}

char *bbl_capture_stderr_end(int saved) {
  fflush(stderr);
  int memory = dup(2);
  dup2(saved, 2);
  close(saved);
  if (memory < 0) return NULL;
  off_t size = lseek(memory, 0, SEEK_END);
  char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
  if (text) {
    ssize_t got = pread(memory, text, (size_t)size, 0);
    text[got > 0 ? got : 0] = 0;
  }
  close(memory);
  return text;
}

// Runs in the forked child: every step of Model's load and first run, on zeros. Returns 0,
// or the name of the step that failed in `step` with LiteRT's status.
static int probe_child(const char *path, const char *identifier, const char **step) {
  LiteRtEnvironment environment = NULL;
  LiteRtModel model = NULL;
  LiteRtOptions options = NULL;
  LiteRtCompiledModel compiled = NULL;
  LiteRtSignature signature = NULL;
  if (api.create_environment(0, NULL, &environment) != 0) { *step = "creating a LiteRT environment"; return 1; }
  if (api.create_model_from_file(environment, path, &model) != 0) { *step = "reading the model"; return 1; }
  if (api.create_options(&options) != 0) { *step = "setting CPU options"; return 1; }
  if (api.set_options_hardware_accelerators(options, 1) != 0) { *step = "setting CPU options"; return 1; }
  if (bbl_add_cpu_options(options, identifier, "num_threads = 1\n") != 0) { *step = "setting CPU options"; return 1; }
  if (api.create_compiled_model(environment, model, options, &compiled) != 0) { *step = "compiling it for the CPU"; return 1; }
  if (api.get_model_signature(model, 0, &signature) != 0) { *step = "reading its signature"; return 1; }
  LiteRtParamIndex inputs = 0, outputs = 0;
  if (api.get_num_signature_inputs(signature, &inputs) != 0) { *step = "reading its signature"; return 1; }
  if (api.get_num_signature_outputs(signature, &outputs) != 0) { *step = "reading its signature"; return 1; }
  if (inputs + outputs > 64) { *step = "preparing its input and output tensors"; return 1; }
  LiteRtTensorBuffer buffers[64];
  for (LiteRtParamIndex i = 0; i < inputs + outputs; ++i) {
    LiteRtTensor tensor = NULL;
    LiteRtStatus status = i < inputs ? api.get_signature_input_tensor(signature, i, &tensor)
                                     : api.get_signature_output_tensor(signature, i - inputs, &tensor);
    if (status != 0) { *step = "preparing its input and output tensors"; return 1; }
    LiteRtRankedTensorType type;
    memset(&type, 0, sizeof type);
    if (api.get_ranked_tensor_type(tensor, &type) != 0) { *step = "preparing its input and output tensors"; return 1; }
    size_t count = 1;
    for (unsigned int axis = 0; axis < type.layout.rank && axis < BBL_MAX_RANK; ++axis) {
      if (type.layout.dimensions[axis] < 0) type.layout.dimensions[axis] = 1;
      count *= (size_t)type.layout.dimensions[axis];
    }
    if (count > ((size_t)1 << 30)) { *step = "preparing its input and output tensors"; return 1; }
    size_t size = (count * 8 + 63) / 64 * 64;
    void *memory = aligned_alloc(64, size ? size : 64);
    if (!memory) { *step = "preparing its input and output tensors"; return 1; }
    memset(memory, 0, size ? size : 64);
    if (api.create_tensor_buffer_from_host_memory(&type, memory, size, NULL, &buffers[i]) != 0) { *step = "preparing its input and output tensors"; return 1; }
  }
  if (api.run_compiled_model(compiled, 0, inputs, buffers, outputs, buffers + inputs) != 0) { *step = "running it once on zeros"; return 1; }
  return 0;
}

int bbl_check_start(const char *path, const char *cpu_options_identifier, unsigned long long extra_bytes,
                    int *message_fd) {
  if (!opened) return -1;
  pid_t child = bb_fork_check(extra_bytes, message_fd);
  if (child != 0) return child;
  const char *step = "";
  if (probe_child(path, cpu_options_identifier, &step) == 0) _exit(0);
  char message[256];
  snprintf(message, sizeof message, "LiteRT reported an error %s", step);
  bb_write_message(*message_fd, message);
  _exit(1);
}
