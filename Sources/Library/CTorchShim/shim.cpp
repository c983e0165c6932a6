// The C interface over libtorch declared in include/CTorchShim.h. Every entry point
// catches every exception and turns it into a status and a message.

#include "CTorchShim.h"
#include "CSystemSupport.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <ATen/core/ivalue.h>
#include <c10/core/QEngine.h>
#include <torch/csrc/jit/mobile/import.h>
#include <torch/csrc/jit/mobile/module.h>
#include <torch/csrc/jit/serialization/import.h>
#include <torch/script.h>

#include <glog/logging.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <cstdlib>
#include <mutex>
#include <set>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <vector>

#include <fcntl.h>
#include <new>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

extern "C" void omp_set_num_threads(int count);  // libgomp, which libtorch runs ATen ops on

struct bbt_module {
  bbt_format format;
  std::optional<torch::jit::Module> script;
  std::optional<torch::jit::mobile::Module> lite;
  bool schema_known = false;
  std::vector<std::string> input_names;
  std::vector<std::string> input_types;
  std::string metadata;
  // Operators that run on libtorch's pthreadpool rather than OpenMP: XNNPACK's prepacked
  // convolutions and linears (inserted by optimize_for_mobile), and quantised operators
  // while the quantised engine is QNNPACK.
  bool prepacked_ops = false;
  bool quantized_ops = false;
  std::atomic<int> threads{0};  // the module's own intra-op count (0: the process-wide one)
  std::string operators;  // sorted, comma separated
};

struct bbt_outputs {
  std::vector<at::Tensor> tensors;
};

struct bbt_profile {
  std::vector<int64_t> run_nanoseconds;
  std::vector<bbt_profile_event> events;
  std::deque<std::string> names;
  int64_t other_thread_calls = 0;
};

namespace {

char *copy_string(const std::string &text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (copy) std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

void set_error(char **error, const std::string &text) {
  if (error) *error = copy_string(text);
}

// c10::Error messages carry a C++ backtrace after the first line; keep what a user reads.
std::string readable(const std::exception &e) {
  if (auto c10_error = dynamic_cast<const c10::Error *>(&e)) {
    return c10_error->what_without_backtrace();
  }
  return e.what();
}

template <typename Body, typename Fallback>
auto guarded(char **error, Fallback fallback, Body body) -> decltype(body()) {
  try {
    return body();
  } catch (const std::exception &e) {
    set_error(error, readable(e));
  } catch (...) {
    set_error(error, "libtorch threw an exception that is not a std::exception");
  }
  return fallback;
}

at::ScalarType scalar_type(bbt_element_type type) {
  switch (type) {
    case BBT_FLOAT32: return at::kFloat;
    case BBT_UINT8: return at::kByte;
    case BBT_INT8: return at::kChar;
    case BBT_INT32: return at::kInt;
    case BBT_INT64: return at::kLong;
  }
  throw std::invalid_argument("unknown element type code " + std::to_string(type));
}

std::vector<c10::IValue> make_inputs(const bbt_tensor_view *inputs, int count) {
  std::vector<c10::IValue> values;
  values.reserve(count);
  for (int i = 0; i < count; ++i) {
    const bbt_tensor_view &view = inputs[i];
    std::vector<int64_t> shape(view.shape, view.shape + view.rank);
    // from_blob borrows the caller's memory; the caller keeps it alive during the call.
    auto options = at::TensorOptions().dtype(scalar_type(view.element_type));
    values.emplace_back(torch::from_blob(const_cast<void *>(view.data), shape, options));
  }
  return values;
}

c10::IValue run(bbt_module *module, std::vector<c10::IValue> inputs) {
  c10::InferenceMode guard;
  if (module->format == BBT_FORMAT_LITE) return module->lite->forward(std::move(inputs));
  return module->script->forward(std::move(inputs));
}

at::Tensor owned_output(const at::Tensor &tensor) {
  at::Tensor result = tensor;
  if (result.is_quantized()) result = result.dequantize();
  switch (result.scalar_type()) {
    case at::kFloat: case at::kByte: case at::kChar: case at::kInt: case at::kLong: break;
    case at::kBool: result = result.to(at::kByte); break;
    default: result = result.to(at::kFloat); break;
  }
  return result.contiguous().clone();
}

void collect(const c10::IValue &value, std::vector<at::Tensor> &into) {
  if (value.isTensor()) {
    into.push_back(owned_output(value.toTensor()));
  } else if (value.isTuple()) {
    for (const auto &element : value.toTupleRef().elements()) collect(element, into);
  } else if (value.isList()) {
    for (const auto &element : value.toListRef()) collect(element, into);
  } else if (value.isTensorList()) {
    for (const auto &tensor : value.toTensorVector()) into.push_back(owned_output(tensor));
  } else {
    throw std::runtime_error("forward returned " + value.tagKind() +
                             ", which is not a tensor or a tuple/list of tensors");
  }
}

void read_schema(bbt_module *module, const c10::FunctionSchema &schema) {
  for (const auto &argument : schema.arguments()) {
    if (argument.name() == "self") continue;
    module->input_names.push_back(argument.name());
    module->input_types.push_back(argument.type()->annotation_str());
  }
  module->schema_known = true;
}

// MARK: Threads
//
// libtorch 1.13 has two intra-op thread pools: OpenMP (libgomp) for ATen operators, and a
// pthreadpool for XNNPACK and QNNPACK operators; at::set_num_threads sizes both. After each
// parallel region libgomp's workers spin for a while before they sleep, and so do the
// pthreadpool's. With two pools of N threads on N cores, a model that alternates between
// them (an optimize_for_mobile model: XNNPACK convolutions with ATen adds and pooling in
// between) has the idle pool's spinning workers take the cores the busy pool needs: many times
// slower at 2 threads than at 1 on a 2-core machine (results/model-benchmark.md, "PyTorch
// Lite at 2 threads: before and after the library's thread rule"). So a forward call runs OpenMP with
// 1 thread when the module's heavy operators are on the pthreadpool, and with the requested
// count otherwise. The OpenMP count is a per-thread setting in libgomp, so it is set on the
// calling thread before every call (cheap), which also covers calls from other threads.

std::atomic<int> requested_threads{0};

int threads_requested() {
  int count = requested_threads.load();
  return count > 0 ? count : at::get_num_threads();
}

bool uses_pthreadpool(const bbt_module *module) {
  return module->prepacked_ops ||
         (module->quantized_ops && at::globalContext().qEngine() == c10::QEngine::QNNPACK);
}

void apply_threads(const bbt_module *module) {
  at::internal::lazy_init_num_threads();  // libtorch's own per-thread set-up runs first
  int own = module->threads.load();
  if (own > 0 && (requested_threads.load() != own || at::get_num_threads() != own)) {
    at::set_num_threads(own);  // another module changed the process-wide count
    requested_threads.store(own);
  }
  omp_set_num_threads(uses_pthreadpool(module) ? 1 : threads_requested());
}

void classify_ops(bbt_module *module, const std::set<std::string> &names) {
  for (const auto &name : names) {
    if (name.rfind("prim::", 0) == 0) continue;  // the interpreter's own instructions
    if (!module->operators.empty()) module->operators += ",";
    module->operators += name;
    if (name.rfind("prepacked::", 0) == 0) module->prepacked_ops = true;
    if (name.rfind("quantized::", 0) == 0) module->quantized_ops = true;
  }
}

void collect_ops(const torch::jit::Block *block, std::set<std::string> &names) {
  for (const torch::jit::Node *node : block->nodes()) {
    names.insert(node->kind().toQualString());
    for (const torch::jit::Block *inner : node->blocks()) collect_ops(inner, names);
  }
}

// MARK: Log lines
//
// When quiet (the default), libtorch's warnings (TORCH_WARN) are kept in a buffer instead of
// being printed, and its glog lines below FATAL are dropped; loud, both go to stderr as usual.

std::mutex log_lock;
std::string kept_warnings;
std::atomic<bool> quiet{true};

struct KeepingHandler : c10::WarningHandler {
  void process(const c10::SourceLocation &location, const std::string &message, const bool verbatim) override {
    if (!quiet.load()) {
      c10::WarningHandler::process(location, message, verbatim);
      return;
    }
    std::lock_guard<std::mutex> guard(log_lock);
    if (kept_warnings.size() < (1 << 20)) {
      kept_warnings += std::string("libtorch warning (") + location.file + ":" + std::to_string(location.line) +
                       "): " + message + "\n";
    }
  }
};

KeepingHandler keeping_handler;

// Every entry point that runs libtorch code calls this on its thread (the warning handler
// is per thread in c10).
void enter() { c10::Warning::set_warning_handler(&keeping_handler); }

// MARK: Profiling
//
// A global RecordFunction callback (scope FUNCTION: every operator libtorch's dispatcher
// runs, for TorchScript and PyTorch Lite alike) records the calls made on the profiling
// thread while one profile is active; calls on other threads are only counted. The callback
// is registered for the length of bbt_profile_forward and removed after, so unprofiled runs
// pay nothing.

struct ProfileEvent {
  const char *name;
  int32_t run;
  int32_t parent;
  int64_t start_ns;
  int64_t duration_ns;
};

struct Recording {
  uint64_t thread = 0;  // RecordFunction::currentThreadId() of the profiling thread
  int32_t run = 0;
  std::chrono::steady_clock::time_point run_start;
  std::vector<ProfileEvent> events;
  std::vector<int32_t> open;  // indices of the calls that have started and not ended
  std::deque<std::string> names;  // interned operator names (stable addresses)
  std::unordered_map<const char *, const char *> by_address;  // RecordFunction's name pointer -> interned
  std::atomic<int64_t> other_thread_calls{0};

  const char *intern(const char *name) {
    auto found = by_address.find(name);
    if (found != by_address.end()) return found->second;
    const char *interned = nullptr;
    for (const auto &known : names) if (known == name) interned = known.c_str();
    if (!interned) {
      names.emplace_back(name);
      interned = names.back().c_str();
    }
    by_address.emplace(name, interned);
    return interned;
  }
};

std::atomic<Recording *> active_recording{nullptr};

struct EventContext : at::ObserverContext {
  int32_t index;
  explicit EventContext(int32_t index) : index(index) {}
};

int64_t nanoseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
}

std::unique_ptr<at::ObserverContext> on_operator_start(const at::RecordFunction &call) {
  Recording *recording = active_recording.load();
  if (!recording) return nullptr;
  if (at::RecordFunction::currentThreadId() != recording->thread) {
    recording->other_thread_calls.fetch_add(1);
    return nullptr;
  }
  auto index = static_cast<int32_t>(recording->events.size());
  int32_t parent = recording->open.empty() ? -1 : recording->open.back();
  recording->events.push_back({recording->intern(call.name()), recording->run, parent,
                               nanoseconds_since(recording->run_start), 0});
  recording->open.push_back(index);
  return std::make_unique<EventContext>(index);
}

void on_operator_end(const at::RecordFunction &, at::ObserverContext *context) {
  Recording *recording = active_recording.load();
  if (!recording || !context) return;
  auto index = static_cast<EventContext *>(context)->index;
  ProfileEvent &event = recording->events[index];
  event.duration_ns = nanoseconds_since(recording->run_start) - event.start_ns;
  // Calls end in the reverse order they started (one thread).
  while (!recording->open.empty()) {
    int32_t last = recording->open.back();
    recording->open.pop_back();
    if (last == index) break;
  }
}

// The course models carry their input/output names and shapes as this extra file.
const char *const kMetadataFile = "benchbook.json";

bbt_module *load(const char *path, bbt_format format) {
  auto module = std::make_unique<bbt_module>();
  module->format = format;
  torch::jit::ExtraFilesMap extra{{kMetadataFile, ""}};
  if (format == BBT_FORMAT_LITE) {
    module->lite = torch::jit::_load_for_mobile(path, c10::Device(c10::kCPU), extra);
    try {
      read_schema(module.get(), module->lite->get_method("forward").function().getSchema());
    } catch (...) {
      // Older bytecode has no schema: names stay unknown.
    }
    classify_ops(module.get(), torch::jit::mobile::_export_operator_list(*module->lite));
  } else {
    module->script = torch::jit::load(path, c10::Device(c10::kCPU), extra);
    module->script->eval();
    auto method = module->script->find_method("forward");
    if (!method) throw std::runtime_error("the module has no forward method");
    read_schema(module.get(), method->function().getSchema());
    std::set<std::string> names;
    for (const auto &submodule : module->script->modules()) {
      for (const auto &each : submodule.get_methods()) collect_ops(each.graph()->block(), names);
    }
    classify_ops(module.get(), names);
  }
  module->metadata = extra[kMetadataFile];
  return module.release();
}

// The check child's work: load the file; empty when it loaded, else what went wrong.
std::string check_load(const char *path, bbt_format format) {
  enter();
  // libgomp is not fork-safe: the parent's OpenMP workers do not exist in the child, and a
  // parallel region (large tensor copies while loading open one) would wait for them
  // forever. The OpenMP state is per thread, so the load runs on a thread the child makes
  // (no inherited thread pool) with OpenMP at 1 thread (no workers to start).
  omp_set_num_threads(1);
  try {
    delete load(path, format);
    return "";
  } catch (const std::bad_alloc &) {
    return "loading it needed more memory than the check allows (a damaged size field)";
  } catch (const std::exception &failure) {
    return readable(failure);
  } catch (...) {
    return "libtorch threw an exception that is not a std::exception";
  }
}

}  // namespace

extern "C" {

void bbt_free_string(char *text) { std::free(text); }

bbt_module *bbt_load(const char *path, bbt_format format, char **error) {
  enter();
  return guarded(error, static_cast<bbt_module *>(nullptr), [&] { return load(path, format); });
}

int bbt_check_start(const char *path, bbt_format format, unsigned long long extra_bytes, int *message_fd) {
  pid_t child = bb_fork_check(extra_bytes, message_fd);
  if (child != 0) return child;
  std::string message;
  try {
    std::thread worker([&] { message = check_load(path, format); });
    worker.join();
  } catch (const std::system_error &) {
    message = check_load(path, format);  // no thread could start: try on this one
  }
  if (message.empty()) _exit(0);
  bb_write_message(*message_fd, message.substr(0, 4000).c_str());
  _exit(1);
}

void bbt_module_free(bbt_module *module) {
  try {
    delete module;
  } catch (...) {
  }
}

int bbt_input_count(const bbt_module *module) {
  return module->schema_known ? static_cast<int>(module->input_names.size()) : -1;
}

const char *bbt_input_name(const bbt_module *module, int index) {
  if (index < 0 || index >= static_cast<int>(module->input_names.size())) return nullptr;
  return module->input_names[index].c_str();
}

const char *bbt_metadata(const bbt_module *module) { return module->metadata.c_str(); }

const char *bbt_input_type(const bbt_module *module, int index) {
  if (index < 0 || index >= static_cast<int>(module->input_types.size())) return nullptr;
  return module->input_types[index].c_str();
}

bbt_outputs *bbt_forward(bbt_module *module, const bbt_tensor_view *inputs, int count,
                         char **error) {
  enter();
  return guarded(error, static_cast<bbt_outputs *>(nullptr), [&] {
    apply_threads(module);
    c10::IValue result = run(module, make_inputs(inputs, count));
    auto outputs = std::make_unique<bbt_outputs>();
    collect(result, outputs->tensors);
    return outputs.release();
  });
}

int bbt_time_forward(bbt_module *module, const bbt_tensor_view *inputs, int count,
                     int iterations, int64_t *nanoseconds, char **error) {
  enter();
  return guarded(error, 1, [&] {
    apply_threads(module);
    std::vector<c10::IValue> values = make_inputs(inputs, count);
    for (int i = 0; i < iterations; ++i) {
      auto start = std::chrono::steady_clock::now();
      c10::IValue result = run(module, values);
      auto end = std::chrono::steady_clock::now();
      nanoseconds[i] = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    }
    return 0;
  });
}

bbt_profile *bbt_profile_forward(bbt_module *module, const bbt_tensor_view *inputs, int count, int runs,
                                 char **error) {
  enter();
  return guarded(error, static_cast<bbt_profile *>(nullptr), [&]() -> bbt_profile * {
    if (runs < 1) throw std::invalid_argument("the run count must be 1 or more, not " + std::to_string(runs));
    apply_threads(module);
    std::vector<c10::IValue> values = make_inputs(inputs, count);
    Recording recording;
    recording.thread = at::RecordFunction::currentThreadId();
    Recording *expected = nullptr;
    if (!active_recording.compare_exchange_strong(expected, &recording)) {
      throw std::runtime_error("another profile is being recorded in this process; profile one model at a time");
    }
    auto handle = at::addGlobalCallback(
        at::RecordFunctionCallback(on_operator_start, on_operator_end).scopes({at::RecordScope::FUNCTION}));
    auto profile = std::make_unique<bbt_profile>();
    try {
      for (int i = 0; i < runs; ++i) {
        recording.run = i;
        recording.open.clear();
        recording.run_start = std::chrono::steady_clock::now();
        c10::IValue result = run(module, values);
        profile->run_nanoseconds.push_back(nanoseconds_since(recording.run_start));
      }
    } catch (...) {
      at::removeCallback(handle);
      active_recording.store(nullptr);
      throw;
    }
    at::removeCallback(handle);
    active_recording.store(nullptr);
    profile->names = std::move(recording.names);  // deque moves keep element addresses
    profile->events.reserve(recording.events.size());
    for (const auto &event : recording.events) {
      profile->events.push_back({event.name, event.run, event.parent, event.start_ns, event.duration_ns});
    }
    profile->other_thread_calls = recording.other_thread_calls.load();
    return profile.release();
  });
}

int bbt_profile_run_count(const bbt_profile *profile) { return static_cast<int>(profile->run_nanoseconds.size()); }

int64_t bbt_profile_run_nanoseconds(const bbt_profile *profile, int run) { return profile->run_nanoseconds[run]; }

int bbt_profile_event_count(const bbt_profile *profile) { return static_cast<int>(profile->events.size()); }

const bbt_profile_event *bbt_profile_events(const bbt_profile *profile) { return profile->events.data(); }

int64_t bbt_profile_other_thread_calls(const bbt_profile *profile) { return profile->other_thread_calls; }

void bbt_profile_free(bbt_profile *profile) { delete profile; }

void bbt_outputs_free(bbt_outputs *outputs) { delete outputs; }

int bbt_outputs_count(const bbt_outputs *outputs) {
  return static_cast<int>(outputs->tensors.size());
}

bbt_element_type bbt_output_element_type(const bbt_outputs *outputs, int index) {
  switch (outputs->tensors[index].scalar_type()) {
    case at::kByte: return BBT_UINT8;
    case at::kChar: return BBT_INT8;
    case at::kInt: return BBT_INT32;
    case at::kLong: return BBT_INT64;
    default: return BBT_FLOAT32;
  }
}

int bbt_output_rank(const bbt_outputs *outputs, int index) {
  return static_cast<int>(outputs->tensors[index].dim());
}

int64_t bbt_output_dimension(const bbt_outputs *outputs, int index, int axis) {
  return outputs->tensors[index].size(axis);
}

const void *bbt_output_data(const bbt_outputs *outputs, int index) {
  return outputs->tensors[index].data_ptr();
}

int bbt_set_threads(int count, char **error) {
  return guarded(error, 1, [&] {
    at::set_num_threads(count);  // both pools (and this thread's OpenMP count)
    requested_threads.store(count);
    return 0;
  });
}

int bbt_threads(void) { return threads_requested(); }

int bbt_module_set_threads(bbt_module *module, int count, char **error) {
  return guarded(error, 1, [&] {
    if (count < 0) throw std::invalid_argument("a thread count cannot be negative");
    module->threads.store(count);
    if (count > 0) {
      at::set_num_threads(count);
      requested_threads.store(count);
    }
    return 0;
  });
}

int bbt_module_threads(const bbt_module *module) { return module->threads.load(); }

const char *bbt_operators(const bbt_module *module) { return module->operators.c_str(); }

int bbt_uses_pthreadpool(const bbt_module *module) { return uses_pthreadpool(module) ? 1 : 0; }

void bbt_set_quiet(int enabled) {
  quiet.store(enabled != 0);
  FLAGS_minloglevel = enabled ? google::GLOG_FATAL : google::GLOG_INFO;
}

char *bbt_take_warnings(void) {
  std::lock_guard<std::mutex> guard(log_lock);
  char *text = copy_string(kept_warnings);
  kept_warnings.clear();
  return text;
}

int bbt_set_quantized_engine(const char *name, char **error) {
  return guarded(error, 1, [&] {
    std::string requested(name);
    c10::QEngine engine;
    if (requested == "qnnpack") engine = c10::QEngine::QNNPACK;
    else if (requested == "onednn") engine = c10::QEngine::ONEDNN;
    else if (requested == "fbgemm") engine = c10::QEngine::FBGEMM;
    else if (requested == "x86") engine = c10::QEngine::X86;
    else throw std::invalid_argument("unknown quantised engine '" + requested + "'");
    at::globalContext().setQEngine(engine);
    return 0;
  });
}

const char *bbt_quantized_engine(void) {
  switch (at::globalContext().qEngine()) {
    case c10::QEngine::QNNPACK: return "qnnpack";
    case c10::QEngine::ONEDNN: return "onednn";
    case c10::QEngine::FBGEMM: return "fbgemm";
    case c10::QEngine::X86: return "x86";
    default: return "none";
  }
}

char *bbt_supported_quantized_engines(void) {
  std::string names;
  for (auto engine : at::globalContext().supportedQEngines()) {
    std::string name;
    switch (engine) {
      case c10::QEngine::QNNPACK: name = "qnnpack"; break;
      case c10::QEngine::ONEDNN: name = "onednn"; break;
      case c10::QEngine::FBGEMM: name = "fbgemm"; break;
      case c10::QEngine::X86: name = "x86"; break;
      default: continue;
    }
    if (!names.empty()) names += ",";
    names += name;
  }
  return copy_string(names);
}

}  // extern "C"
