// What the shim's files share: the program handle, the thread pool, the runtime's log.
#pragma once

#if defined(BBE_RUNTIME_MISSING)  // set by Package.swift when .venv has no executorch wheel
#error "The ExecuTorch runtime is not in .venv (site-packages/executorch): run `make setup`, which installs requirements-no-deps.txt, then build again."
#endif

#include "CExecuTorchShim.h"
#include "program_plan.hpp"

#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/event_tracer.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

// The thread pool of libexecutorch_threadpool.so: the wheel ships the library but not this
// header (extension/threadpool/threadpool.h), so the two members used are declared here.
namespace executorch::extension::threadpool {
class ThreadPool {
 public:
  bool _unsafe_reset_threadpool(uint32_t num_threads);
  size_t get_thread_count() const;
};
ThreadPool *get_threadpool();
}  // namespace executorch::extension::threadpool

namespace bbe {

class RecordingTracer;

/// A tensor an output was copied into.
struct OwnedTensor {
  bbe_element_type type = BBE_FLOAT32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

/// A tensor's element type, size and shape as `forward` declares it.
struct TensorSpec {
  bbe_element_type type = BBE_UNSUPPORTED;
  std::vector<int64_t> shape;
};

}  // namespace bbe

struct bbe_program {
  std::string path;
  bbe::ProgramPlan plan;
  std::unique_ptr<executorch::extension::module::Module> module;
  /// A second Module on the same Program, with an event tracer, made by the first profile.
  std::unique_ptr<executorch::extension::module::Module> profiling;
  bbe::RecordingTracer *tracer = nullptr;  // owned by `profiling`
  std::vector<bbe::TensorSpec> inputs, outputs;
  std::string metadata, method_names, operators;
  int threads = 1;
  uint64_t pool_generation = 0;            // the pool `forward` was loaded on
  uint64_t profiling_pool_generation = 0;  // the pool the profiling copy was loaded on
  int method_loads = 0;
};

struct bbe_outputs {
  std::vector<bbe::OwnedTensor> tensors;
};

namespace bbe {

/// Stores a copy of `text` in `*error` (when error is not NULL).
void set_error(char **error, const std::string &text);
/// A malloc'ed copy of `text` (freed with bbe_free_string).
char *copy_string(const std::string &text);
/// The runtime's Error code as words.
std::string describe(executorch::runtime::Error error);
/// The runtime's error-level log lines since the last call, joined ("" when none): what it said
/// about a failure it reports only as a code.
std::string take_errors();

/// Holds the process's thread pool at `count` threads (0: as it is) for as long as it lives: resizes
/// it first when needed, while no other thread is using it, then keeps other threads from resizing
/// it until this use ends. Every load and run holds one, so a pool is never replaced under a run.
class PoolUse {
 public:
  explicit PoolUse(int count);
  PoolUse(const PoolUse &) = delete;
  PoolUse &operator=(const PoolUse &) = delete;

 private:
  std::shared_lock<std::shared_mutex> lock_;
};
/// The pool's current size.
int pool_size();
/// How many times the pool was resized (programs compare it with the pool they loaded on).
uint64_t pool_generation();

/// Loads `forward` on `module` again when the pool changed since `generation`; updates it.
void reload_if_pool_changed(executorch::extension::module::Module &module, uint64_t &generation, int &loads,
                            const std::string &path);
/// Input EValues over the caller's memory (they borrow it for the call).
std::vector<executorch::runtime::EValue> make_inputs(const bbe_program *program, const bbe_tensor_view *inputs,
                                                     int count, std::vector<executorch::extension::TensorPtr> &keep);
/// Runs `forward` on `module`, throwing with the runtime's words on failure.
std::vector<executorch::runtime::EValue> execute(executorch::extension::module::Module &module,
                                                 const std::vector<executorch::runtime::EValue> &inputs);

/// Runs `body`, turning any exception into `fallback` and a message in `error`.
template <typename Body, typename Fallback>
auto guarded(char **error, Fallback fallback, Body body) -> decltype(body()) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    set_error(error, "out of memory");
  } catch (const std::exception &e) {
    set_error(error, e.what());
  } catch (...) {
    set_error(error, "the ExecuTorch runtime threw an exception that is not a std::exception");
  }
  return fallback;
}

}  // namespace bbe
