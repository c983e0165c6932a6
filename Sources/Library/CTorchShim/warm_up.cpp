// bbt_warm_up: a small convolutional network made here, loaded and run once as TorchScript and
// as PyTorch Lite, so that libtorch's one-time work is done before the first real model.
// (LiteRT needs none: with its library opened, a first .tflite load takes what later ones do.)
//
// With libtorch already opened, the first fashion_cnn.ptl load took several times as long as
// later ones, and the model-file check's child, forked before it, paid the same once more
// (results/model-preload.md has the first and second model cell with and without this). A perf profile of that first load is mostly libtorch building
// its table of operators on the first lookup (canonicalSchemaString, the schema-to-operator
// hash table), interning symbols and first-touch page faults; TorchScript adds its compiler's
// first use. None of that depends on the model, so a network of the same operator families
// made in memory pays it (results/model-preload.md has the effect on a lesson's first cell).

#include "CTorchShim.h"

#include <ATen/Parallel.h>
#include <torch/csrc/jit/mobile/import.h>
#include <torch/csrc/jit/mobile/module.h>
#include <torch/csrc/jit/passes/xnnpack_rewrite.h>
#include <torch/csrc/jit/serialization/import.h>
#include <torch/script.h>

#include <cstring>
#include <exception>
#include <sstream>
#include <string>

extern "C" void omp_set_num_threads(int count);  // libgomp

namespace caffe2 {
// libtorch's per-thread switch that makes XNNPACK and QNNPACK operators run on the calling
// thread instead of the process's pthreadpool (caffe2/utils/threadpool/pthreadpool-cpp.h,
// which libtorch-dev does not install; libtorch_cpu exports both functions).
class _NoPThreadPoolGuard {
 public:
  static bool is_enabled();
  static void set_enabled(bool enabled);
};
}  // namespace caffe2

namespace {

// The course's Fashion-MNIST network in small: conv, relu, max pool, flatten, linear, relu,
// dropout (a no-op in eval), linear; fashion_cnn's operators in TorchScript and, after
// optimize_for_mobile, its prepacked XNNPACK ones in PyTorch Lite.
const char *const kForward = R"(
def forward(self, image: Tensor) -> Tensor:
    x = torch.max_pool2d(torch.relu(torch.conv2d(image, self.conv_weight, self.conv_bias, [1, 1], [1, 1])), [2, 2])
    x = torch.flatten(x, 1)
    x = torch.dropout(torch.relu(torch.linear(x, self.fc1_weight, self.fc1_bias)), 0.25, self.training)
    return torch.linear(x, self.fc2_weight, self.fc2_bias)
)";

// Deterministic weights (the global random generator is left alone).
at::Tensor filled(at::IntArrayRef shape) {
  int64_t count = 1;
  for (int64_t size : shape) count *= size;
  return (torch::arange(count, torch::kFloat) / static_cast<double>(count) - 0.5).reshape(shape);
}

torch::jit::Module make_network() {
  torch::jit::Module network("__torch__.BenchbookWarmUp");
  network.register_attribute("training", c10::BoolType::get(), true);
  network.register_parameter("conv_weight", filled({4, 1, 3, 3}), false);
  network.register_parameter("conv_bias", filled({4}), false);
  network.register_parameter("fc1_weight", filled({8, 4 * 4 * 4}), false);
  network.register_parameter("fc1_bias", filled({8}), false);
  network.register_parameter("fc2_weight", filled({10, 8}), false);
  network.register_parameter("fc2_bias", filled({10}), false);
  network.define(kForward);
  network.eval();
  return network;
}

// Warnings of the warm-up are about this network, not the user's: dropped.
struct DroppingHandler : c10::WarningHandler {
  void process(const c10::SourceLocation &, const std::string &, const bool) override {}
};

// Restores the calling thread's pthreadpool switch and warning handler.
struct ThreadSettings {
  bool pool_disabled = caffe2::_NoPThreadPoolGuard::is_enabled();
  c10::WarningHandler *handler = c10::Warning::get_warning_handler();
  ~ThreadSettings() {
    caffe2::_NoPThreadPoolGuard::set_enabled(pool_disabled);
    c10::Warning::set_warning_handler(handler);
  }
};

void warm_up() {
  static DroppingHandler dropping;
  ThreadSettings saved;
  c10::Warning::set_warning_handler(&dropping);
  // One thread, and no pool left behind: OpenMP's count is this thread's own setting
  // (libtorch's per-thread set-up first, which would set it to the default), and XNNPACK
  // runs on this thread instead of creating the process's pthreadpool. The process-wide
  // thread count (at::set_num_threads) is not touched.
  at::internal::lazy_init_num_threads();
  omp_set_num_threads(1);
  caffe2::_NoPThreadPoolGuard::set_enabled(true);
  c10::InferenceMode inference;
  std::vector<c10::IValue> input{torch::ones({1, 1, 8, 8})};

  torch::jit::Module network = make_network();
  std::stringstream script;
  network.save(script);
  torch::jit::Module loaded = torch::jit::load(script, c10::Device(c10::kCPU));
  loaded.eval();
  loaded.forward(input);

  std::stringstream lite;
  torch::jit::optimizeForMobile(network)._save_for_mobile(lite);
  torch::jit::mobile::Module mobile = torch::jit::_load_for_mobile(lite, c10::Device(c10::kCPU));
  mobile.forward(input);
}

}  // namespace

extern "C" int bbt_warm_up(char **error) {
  try {
    warm_up();
    return 0;
  } catch (const std::exception &failure) {
    if (error) *error = strdup(failure.what());
  } catch (...) {
    if (error) *error = strdup("libtorch threw an exception that is not a std::exception");
  }
  return 1;
}
