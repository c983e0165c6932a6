// Per-operator profiles: a second Module on the same Program whose methods are loaded with an
// event tracer. The tracer is ExecuTorch's ETDump generator (ETDumpGen, libexecutorch_etdump.so),
// subclassed so that each event it is handed is also kept here with the instruction it belongs
// to: the runtime reports every instruction of `forward` ("OPERATOR_CALL" for a kernel,
// "DELEGATE_CALL" for a delegated block, with the instruction's index as the debug handle), and
// the XNNPACK delegate reports each XNNPACK operator it ran inside a block (its profiler,
// compiled into the wheel's backend). The ETDump itself stays available (bbe_profile_etdump) for
// ExecuTorch's own Inspector.

#include "internal.hpp"

#include <executorch/devtools/etdump/etdump_flatcc.h>
#include <executorch/runtime/platform/platform.h>

#include <chrono>
#include <cstdlib>
#include <deque>

using executorch::extension::TensorPtr;
using executorch::extension::module::Module;
using executorch::runtime::ChainID;
using executorch::runtime::DebugHandle;
using executorch::runtime::DelegateDebugIntId;
using executorch::runtime::EventTracerEntry;

namespace bbe {

/// An ETDumpGen that also keeps the events with their instruction and duration.
class RecordingTracer final : public executorch::etdump::ETDumpGen {
 public:
  struct Event {
    std::string kind;
    int32_t instruction;
    int32_t delegate;
    bool is_delegate_call;
    int64_t duration_ns;
  };

  bool recording = false;
  std::vector<std::vector<Event>> runs;  // one list per recorded run

  EventTracerEntry start_profiling(const char *name, ChainID chain_id, DebugHandle debug_handle) override {
    EventTracerEntry entry = ETDumpGen::start_profiling(name, chain_id, debug_handle);
    // Scopes nest (method, step, instruction), so a stack pairs each end with its name.
    open_.push_back({name, entry.start_time});
    if (recording && std::strcmp(name, "DELEGATE_CALL") == 0) delegate_position_ = 0;
    return entry;
  }

  void end_profiling(EventTracerEntry entry) override {
    et_timestamp_t end = et_pal_current_ticks();
    if (!open_.empty()) {
      auto [name, start] = open_.back();
      open_.pop_back();
      bool method = std::strcmp(name, "Method::execute") == 0;
      bool kernel = std::strcmp(name, "OPERATOR_CALL") == 0;
      bool delegate = std::strcmp(name, "DELEGATE_CALL") == 0;
      if (recording && !runs.empty() && (method || kernel || delegate)) {
        runs.back().push_back({name, method ? -1 : int32_t(entry.debug_handle), -1, delegate, to_ns(end - start)});
      }
    }
    ETDumpGen::end_profiling(entry);
  }

  void log_profiling_delegate(const char *name, DelegateDebugIntId delegate_debug_index, et_timestamp_t start_time,
                              et_timestamp_t end_time, const void *metadata, size_t metadata_len) override {
    if (recording && !runs.empty()) {
      runs.back().push_back({name ? name : "XNNPACK operator", int32_t(current_debug_handle()), delegate_position_++,
                             false, to_ns(end_time - start_time)});
    }
    ETDumpGen::log_profiling_delegate(name, delegate_debug_index, start_time, end_time, metadata, metadata_len);
  }

  /// Forgets unfinished scopes (after a failed run).
  void clear_open() { open_.clear(); }

 private:
  static int64_t to_ns(et_timestamp_t ticks) {
    static const et_tick_ratio_t ratio = et_pal_ticks_to_ns_multiplier();
    return int64_t(ticks) * int64_t(ratio.numerator) / int64_t(ratio.denominator);
  }
  std::vector<std::pair<const char *, et_timestamp_t>> open_;
  int32_t delegate_position_ = 0;
};

}  // namespace bbe

struct bbe_profile {
  std::vector<int64_t> run_nanoseconds;
  std::vector<bbe_profile_event> events;
  std::deque<std::string> names;
  std::vector<uint8_t> etdump;
};

namespace bbe {
namespace {

/// Makes (once) the program's profiling copy: a Module on the same Program with the tracer.
void prepare_profiling(bbe_program &program) {
  if (!program.profiling) {
    auto tracer = std::make_unique<RecordingTracer>();
    program.tracer = tracer.get();
    program.profiling = std::make_unique<Module>(program.module->program(), nullptr, nullptr, std::move(tracer));
    program.profiling_pool_generation = 0;  // loads `forward` below
  }
  int loads = 0;
  reload_if_pool_changed(*program.profiling, program.profiling_pool_generation, loads, program.path);
}

/// The ETDump of the runs since the last call, and a fresh dump for the next ones.
std::vector<uint8_t> take_etdump(RecordingTracer &tracer) {
  std::vector<uint8_t> bytes;
  auto result = tracer.get_etdump_data();
  if (result.buf != nullptr) {
    bytes.assign(static_cast<uint8_t *>(result.buf), static_cast<uint8_t *>(result.buf) + result.size);
    std::free(result.buf);
  }
  tracer.reset();
  return bytes;
}

}  // namespace
}  // namespace bbe

using namespace bbe;

extern "C" {

bbe_profile *bbe_profile_forward(bbe_program *program, const bbe_tensor_view *inputs, int count, int warm_up,
                                 int runs, char **error) {
  return guarded(error, static_cast<bbe_profile *>(nullptr), [&] {
    PoolUse pool(program->threads);
    prepare_profiling(*program);
    RecordingTracer &tracer = *program->tracer;
    std::vector<TensorPtr> keep;
    auto values = make_inputs(program, inputs, count, keep);
    tracer.recording = false;
    tracer.runs.clear();
    tracer.clear_open();
    for (int i = 0; i < warm_up; ++i) execute(*program->profiling, values);
    take_etdump(tracer);
    auto profile = std::make_unique<bbe_profile>();
    tracer.recording = true;
    for (int i = 0; i < runs; ++i) {
      tracer.runs.emplace_back();
      auto start = std::chrono::steady_clock::now();
      execute(*program->profiling, values);
      auto end = std::chrono::steady_clock::now();
      profile->run_nanoseconds.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
    }
    tracer.recording = false;
    profile->etdump = take_etdump(tracer);
    for (size_t run = 0; run < tracer.runs.size(); ++run) {
      for (const auto &event : tracer.runs[run]) {
        // An instruction's event is named by what the instruction runs (the program's plan).
        bool instruction = event.kind == "OPERATOR_CALL" || event.kind == "DELEGATE_CALL";
        const auto &chain = program->plan.chains.empty() ? std::vector<PlannedInstruction>() : program->plan.chains[0];
        bool known = instruction && event.instruction >= 0 && size_t(event.instruction) < chain.size();
        profile->names.push_back(known ? chain[event.instruction].name : event.kind);
        profile->events.push_back({profile->names.back().c_str(), int32_t(run), event.instruction, event.delegate,
                                   event.is_delegate_call ? 1 : 0, event.duration_ns});
      }
    }
    tracer.runs.clear();
    return profile.release();
  });
}

int bbe_profile_run_count(const bbe_profile *profile) { return int(profile->run_nanoseconds.size()); }
int64_t bbe_profile_run_nanoseconds(const bbe_profile *profile, int run) { return profile->run_nanoseconds[run]; }
int bbe_profile_event_count(const bbe_profile *profile) { return int(profile->events.size()); }
const bbe_profile_event *bbe_profile_events(const bbe_profile *profile) { return profile->events.data(); }
size_t bbe_profile_etdump_size(const bbe_profile *profile) { return profile->etdump.size(); }
const void *bbe_profile_etdump(const bbe_profile *profile) { return profile->etdump.data(); }
void bbe_profile_free(bbe_profile *profile) { delete profile; }

}  // extern "C"
