// The C interface over the ExecuTorch runtime declared in include/CExecuTorchShim.h: loading
// (with the checks that name what a program needs and this process lacks), describing, running,
// the thread pool and the forked file check.
//
// The XNNPACK backend and the kernel libraries register themselves with the runtime from static
// initialisers when their shared libraries are loaded; this library is linked against them with
// --no-as-needed, so opening it loads them (bbe_registered_backends says what registered).

#include "internal.hpp"
#include "CSystemSupport.h"

#include <executorch/extension/data_loader/mmap_data_loader.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/kernel/operator_registry.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include <unistd.h>

using executorch::extension::MmapDataLoader;
using executorch::extension::TensorPtr;
using executorch::extension::module::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::Program;
using executorch::aten::ScalarType;

namespace bbe {
namespace {

bbe_element_type element_type(ScalarType type) {
  switch (type) {
    case ScalarType::Float: return BBE_FLOAT32;
    case ScalarType::Byte: return BBE_UINT8;
    case ScalarType::Char: return BBE_INT8;
    case ScalarType::Int: return BBE_INT32;
    case ScalarType::Long: return BBE_INT64;
    default: return BBE_UNSUPPORTED;
  }
}

ScalarType scalar_type(bbe_element_type type) {
  switch (type) {
    case BBE_FLOAT32: return ScalarType::Float;
    case BBE_UINT8: return ScalarType::Byte;
    case BBE_INT8: return ScalarType::Char;
    case BBE_INT32: return ScalarType::Int;
    case BBE_INT64: return ScalarType::Long;
    default: break;
  }
  throw std::invalid_argument("unknown element type code " + std::to_string(int(type)));
}

size_t element_size(bbe_element_type type) {
  switch (type) {
    case BBE_FLOAT32: case BBE_INT32: return 4;
    case BBE_INT64: return 8;
    default: return 1;
  }
}

std::string joined(const std::vector<std::string> &names, const char *separator = ", ") {
  std::string text;
  for (const auto &name : names) text += (text.empty() ? "" : separator) + name;
  return text;
}

/// The runtime's words for a failure: its error-level log lines, else the code's name.
std::string runtime_words(Error error) {
  std::string lines = take_errors();
  return lines.empty() ? "the ExecuTorch runtime returned " + describe(error) : lines + " (" + describe(error) + ")";
}

std::vector<std::string> registered_backends() {
  std::vector<std::string> names;
  for (size_t i = 0, n = executorch::runtime::get_num_registered_backends(); i < n; ++i) {
    auto name = executorch::runtime::get_backend_name(i);
    if (name.ok() && name.get() != nullptr) names.push_back(name.get());
  }
  return names;
}

std::set<std::string> registered_kernels() {
  std::set<std::string> names;
  for (const auto &kernel : executorch::runtime::get_registered_kernels()) names.insert(kernel.name_);
  return names;
}

/// What `forward` needs that the process lacks, as a load failure; empty when nothing.
std::string missing_parts(const ProgramPlan &plan, bbe_load_status &status) {
  std::vector<std::string> backends;
  for (const auto &id : std::set<std::string>(plan.backends.begin(), plan.backends.end())) {
    if (executorch::runtime::get_backend_class(id.c_str()) == nullptr) backends.push_back(id);
  }
  if (!backends.empty()) {
    status = BBE_LOAD_MISSING_BACKEND;
    auto present = registered_backends();
    return "it delegates work to the ExecuTorch backend " + joined(backends) +
           ", which is not linked into this runtime (its backends: " + (present.empty() ? "none" : joined(present)) +
           "); export it with the XNNPACK partitioner, or without delegation";
  }
  auto kernels = registered_kernels();
  std::vector<std::string> operators;
  for (const auto &name : std::set<std::string>(plan.operators.begin(), plan.operators.end())) {
    if (!kernels.count(name)) operators.push_back(name);
  }
  if (!operators.empty()) {
    status = BBE_LOAD_MISSING_KERNEL;
    return "it calls operator" + std::string(operators.size() > 1 ? "s " : " ") + joined(operators) +
           ", for which this runtime has no kernel (it links ExecuTorch's optimized, portable and quantized kernel "
           "libraries, " + std::to_string(kernels.size()) + " operators)";
  }
  return "";
}

TensorSpec spec(executorch::runtime::Result<executorch::runtime::TensorInfo> info) {
  TensorSpec tensor;
  if (!info.ok()) return tensor;
  tensor.type = element_type(info->scalar_type());
  for (auto size : info->sizes()) tensor.shape.push_back(size);
  return tensor;
}

void describe_method(bbe_program &program) {
  auto meta = program.module->method_meta("forward");
  if (!meta.ok()) throw std::runtime_error("its method 'forward' cannot be described: " + runtime_words(meta.error()));
  for (size_t i = 0; i < meta->num_inputs(); ++i) program.inputs.push_back(spec(meta->input_tensor_meta(i)));
  for (size_t i = 0; i < meta->num_outputs(); ++i) program.outputs.push_back(spec(meta->output_tensor_meta(i)));
}

std::string read_metadata(bbe_program &program) {
  const auto &methods = program.plan.methods;
  if (std::find(methods.begin(), methods.end(), "benchbook_json") == methods.end()) return "";
  auto result = program.module->execute("benchbook_json");
  program.module->unload_method("benchbook_json");
  if (!result.ok() || result->empty() || !(*result)[0].isString()) return "";
  auto text = (*result)[0].toString();
  return std::string(text.data(), text.size());
}

std::unique_ptr<bbe_program> load(const std::string &path, int threads, bbe_load_status &status) {
  auto program = std::make_unique<bbe_program>();
  program->path = path;
  take_errors();
  bool corrupt = false;
  std::string problem = read_plan(path, "forward", program->plan, corrupt);
  if (!problem.empty()) {
    status = corrupt ? BBE_LOAD_CORRUPT : BBE_LOAD_UNREADABLE;
    throw std::runtime_error(problem);
  }
  problem = missing_parts(program->plan, status);
  if (!problem.empty()) throw std::runtime_error(problem);
  status = BBE_LOAD_UNREADABLE;
  auto loader = MmapDataLoader::from(path.c_str(), MmapDataLoader::MlockConfig::NoMlock);
  if (!loader.ok()) throw std::runtime_error("it cannot be memory-mapped: " + runtime_words(loader.error()));
  program->module = std::make_unique<Module>(std::make_unique<MmapDataLoader>(std::move(loader.get())));
  status = BBE_LOAD_CORRUPT;
  Error error = program->module->load(Program::Verification::InternalConsistency);
  if (error != Error::Ok) throw std::runtime_error("the runtime rejected the program: " + runtime_words(error));
  status = BBE_LOAD_FAILED;
  PoolUse pool(threads);
  program->threads = pool_size();
  error = program->module->load_method("forward");
  if (error != Error::Ok) throw std::runtime_error("its method 'forward' could not be loaded: " + runtime_words(error));
  program->pool_generation = pool_generation();
  program->method_loads = 1;
  describe_method(*program);
  program->metadata = read_metadata(*program);
  auto methods = program->plan.methods;
  std::sort(methods.begin(), methods.end());
  program->method_names = joined(methods, ",");
  std::set<std::string> operators(program->plan.operators.begin(), program->plan.operators.end());
  for (const auto &backend : program->plan.backends) operators.insert("delegate:" + backend);
  program->operators = joined(std::vector<std::string>(operators.begin(), operators.end()), ",");
  status = BBE_LOAD_OK;
  return program;
}

// MARK: Thread pool
//
// ExecuTorch has one thread pool per process (libexecutorch_threadpool.so): XNNPACK runs its
// operators on it and the optimized kernels their parallel loops. XNNPACK binds each delegate
// to the pthreadpool that existed when the method was loaded, and resizing the pool replaces
// that pthreadpool, so a method loaded before a resize is loaded again before its next run.

std::shared_mutex pool_mutex;  // shared: a load or run uses the pool; exclusive: it is resized
std::atomic<uint64_t> generation{1};

}  // namespace

PoolUse::PoolUse(int count) {
  while (true) {
    if (count > 0 && pool_size() != count) {
      std::unique_lock<std::shared_mutex> resizing(pool_mutex);
      auto *pool = executorch::extension::threadpool::get_threadpool();
      if (pool == nullptr) throw std::runtime_error("the ExecuTorch thread pool could not be created");
      if (pool->get_thread_count() != size_t(count)) {
        if (!pool->_unsafe_reset_threadpool(uint32_t(count))) {
          throw std::runtime_error("the ExecuTorch thread pool could not be resized to " + std::to_string(count));
        }
        generation.fetch_add(1);
      }
    }
    lock_ = std::shared_lock<std::shared_mutex>(pool_mutex);
    if (count < 1 || pool_size() == count) return;
    lock_.unlock();  // another thread resized it between the two locks: again
  }
}

int pool_size() {
  auto *pool = executorch::extension::threadpool::get_threadpool();
  return pool ? int(pool->get_thread_count()) : 1;
}

uint64_t pool_generation() { return generation.load(); }

void reload_if_pool_changed(Module &module, uint64_t &loaded_on, int &loads, const std::string &path) {
  if (loaded_on == pool_generation() && module.is_method_loaded("forward")) return;
  module.unload_method("forward");
  take_errors();
  Error error = module.load_method("forward");
  if (error != Error::Ok) {
    throw std::runtime_error("loading 'forward' of " + path + " again for the new thread pool failed: " +
                             runtime_words(error));
  }
  loaded_on = pool_generation();
  loads += 1;
}

std::vector<EValue> make_inputs(const bbe_program *program, const bbe_tensor_view *inputs, int count,
                                std::vector<TensorPtr> &keep) {
  if (count != int(program->inputs.size())) {
    throw std::invalid_argument("'forward' takes " + std::to_string(program->inputs.size()) + " input(s), not " +
                                std::to_string(count));
  }
  std::vector<EValue> values;
  for (int i = 0; i < count; ++i) {
    const bbe_tensor_view &view = inputs[i];
    std::vector<executorch::aten::SizesType> sizes(view.shape, view.shape + view.rank);
    // from_blob borrows the caller's memory, which the caller keeps alive during the call.
    keep.push_back(executorch::extension::from_blob(const_cast<void *>(view.data), sizes, scalar_type(view.element_type)));
    values.emplace_back(*keep.back());
  }
  return values;
}

std::vector<EValue> execute(Module &module, const std::vector<EValue> &inputs) {
  take_errors();
  auto result = module.execute("forward", inputs);
  if (!result.ok()) throw std::runtime_error("the runtime failed: " + runtime_words(result.error()));
  return std::move(result.get());
}

}  // namespace bbe

using namespace bbe;

extern "C" {

bbe_program *bbe_load(const char *path, int threads, bbe_load_status *status, char **error) {
  bbe_load_status local = BBE_LOAD_FAILED;
  bbe_program *program = guarded(error, static_cast<bbe_program *>(nullptr),
                                 [&] { return load(path, threads, local).release(); });
  if (status) *status = program ? BBE_LOAD_OK : local;
  return program;
}

void bbe_program_free(bbe_program *program) {
  try {
    delete program;
  } catch (...) {
  }
}

int bbe_check_start(const char *path, int threads, unsigned long long extra_bytes, int *message_fd) {
  pid_t child = bb_fork_check(extra_bytes, message_fd);
  if (child != 0) return child;
  // The child: the runtime's thread pool leaks the parent's (whose workers do not exist here)
  // and makes a new one on first use after a fork.
  std::string message;
  int code = 0;
  try {
    bbe_load_status status = BBE_LOAD_FAILED;
    std::unique_ptr<bbe_program> program;
    try {
      program = load(path, threads, status);
    } catch (const std::bad_alloc &) {
      throw std::runtime_error("loading it needed more memory than the check allows (a damaged size field)");
    } catch (...) {
      code = int(status);
      throw;
    }
    std::vector<std::vector<uint8_t>> zeros;
    std::vector<std::vector<int64_t>> shapes;
    std::vector<bbe_tensor_view> views;
    for (const auto &input : program->inputs) {
      if (input.type == BBE_UNSUPPORTED) { code = 6; throw std::runtime_error("an input of 'forward' is not a tensor of a supported type"); }
      size_t count = 1;
      for (auto size : input.shape) count *= size_t(std::max<int64_t>(size, 1));
      zeros.emplace_back(count * element_size(input.type), 0);
      shapes.push_back(input.shape);
    }
    for (size_t i = 0; i < zeros.size(); ++i) {
      views.push_back({zeros[i].data(), program->inputs[i].type, shapes[i].data(), int32_t(shapes[i].size())});
    }
    std::vector<TensorPtr> keep;
    code = 6;
    PoolUse pool(program->threads);
    execute(*program->module, make_inputs(program.get(), views.data(), int(views.size()), keep));
    code = 0;
  } catch (const std::exception &failure) {
    message = failure.what();
    if (code == 0) code = 5;
  }
  if (code == 0) _exit(0);
  bb_write_message(*message_fd, message.substr(0, 4000).c_str());
  _exit(code);
}

int bbe_input_count(const bbe_program *program) { return int(program->inputs.size()); }
int bbe_output_count(const bbe_program *program) { return int(program->outputs.size()); }

static const TensorSpec *tensor_spec(const bbe_program *program, int is_output, int index) {
  const auto &list = is_output ? program->outputs : program->inputs;
  return index >= 0 && size_t(index) < list.size() ? &list[index] : nullptr;
}

bbe_element_type bbe_tensor_element_type(const bbe_program *program, int is_output, int index) {
  auto tensor = tensor_spec(program, is_output, index);
  return tensor ? tensor->type : BBE_UNSUPPORTED;
}

int bbe_tensor_rank(const bbe_program *program, int is_output, int index) {
  auto tensor = tensor_spec(program, is_output, index);
  return tensor ? int(tensor->shape.size()) : 0;
}

int64_t bbe_tensor_dimension(const bbe_program *program, int is_output, int index, int axis) {
  auto tensor = tensor_spec(program, is_output, index);
  return tensor && axis >= 0 && size_t(axis) < tensor->shape.size() ? tensor->shape[axis] : 0;
}

const char *bbe_metadata(const bbe_program *program) { return program->metadata.c_str(); }
const char *bbe_method_names(const bbe_program *program) { return program->method_names.c_str(); }
const char *bbe_operators(const bbe_program *program) { return program->operators.c_str(); }

char *bbe_registered_backends(void) {
  return copy_string(joined(registered_backends(), ","));
}

static bbe_outputs *copy_outputs(const std::vector<EValue> &values) {
  auto outputs = std::make_unique<bbe_outputs>();
  for (const auto &value : values) {
    if (!value.isTensor()) throw std::runtime_error("'forward' returned a value that is not a tensor");
    const auto &tensor = value.toTensor();
    OwnedTensor owned;
    owned.type = element_type(tensor.scalar_type());
    if (owned.type == BBE_UNSUPPORTED) {
      throw std::runtime_error("'forward' returned a tensor of a type Benchbook tensors cannot hold "
                               "(float32, uint8, int8, int32, int64 are supported)");
    }
    for (auto size : tensor.sizes()) owned.shape.push_back(size);
    auto dim_order = tensor.dim_order();
    for (size_t axis = 0; axis < dim_order.size(); ++axis) {
      if (dim_order[axis] != axis) throw std::runtime_error("'forward' returned a tensor that is not contiguous");
    }
    const auto *data = static_cast<const uint8_t *>(tensor.const_data_ptr());
    owned.bytes.assign(data, data + tensor.nbytes());
    outputs->tensors.push_back(std::move(owned));
  }
  return outputs.release();
}

bbe_outputs *bbe_forward(bbe_program *program, const bbe_tensor_view *inputs, int count, char **error) {
  return guarded(error, static_cast<bbe_outputs *>(nullptr), [&] {
    PoolUse pool(program->threads);
    reload_if_pool_changed(*program->module, program->pool_generation, program->method_loads, program->path);
    std::vector<TensorPtr> keep;
    return copy_outputs(execute(*program->module, make_inputs(program, inputs, count, keep)));
  });
}

int bbe_time_forward(bbe_program *program, const bbe_tensor_view *inputs, int count, int iterations,
                     int64_t *nanoseconds, char **error) {
  return guarded(error, 1, [&] {
    PoolUse pool(program->threads);
    reload_if_pool_changed(*program->module, program->pool_generation, program->method_loads, program->path);
    std::vector<TensorPtr> keep;
    auto values = make_inputs(program, inputs, count, keep);
    for (int i = 0; i < iterations; ++i) {
      auto start = std::chrono::steady_clock::now();
      execute(*program->module, values);
      auto end = std::chrono::steady_clock::now();
      nanoseconds[i] = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    }
    return 0;
  });
}

void bbe_outputs_free(bbe_outputs *outputs) { delete outputs; }
int bbe_outputs_count(const bbe_outputs *outputs) { return int(outputs->tensors.size()); }
bbe_element_type bbe_output_element_type(const bbe_outputs *outputs, int index) { return outputs->tensors[index].type; }
int bbe_output_rank(const bbe_outputs *outputs, int index) { return int(outputs->tensors[index].shape.size()); }
int64_t bbe_output_dimension(const bbe_outputs *outputs, int index, int axis) {
  return outputs->tensors[index].shape[axis];
}
const void *bbe_output_data(const bbe_outputs *outputs, int index) { return outputs->tensors[index].bytes.data(); }

int bbe_set_threads(bbe_program *program, int count, char **error) {
  return guarded(error, 1, [&] {
    if (count < 1) throw std::invalid_argument("the thread count must be 1 or more, not " + std::to_string(count));
    program->threads = count;
    return 0;
  });
}

int bbe_threads(const bbe_program *program) { return program->threads; }
int bbe_pool_threads(void) { return pool_size(); }
int bbe_method_loads(const bbe_program *program) { return program->method_loads; }

}  // extern "C"
