/// Benchbook's notebook library: everything a notebook cell can use, in one import.
///
/// Every cell imports it implicitly. The pieces, by role:
/// - ``BenchbookRuntime``: display in the notebook, interrupts, input.
/// - ``BenchbookTensor``: tensors, softmax, top-k, quantisation.
/// - ``BenchbookImage``: image decoding, resizing, preprocessing, Fashion-MNIST.
/// - ``BenchbookModels``: TorchScript, PyTorch Lite and TensorFlow Lite models, evaluation.
@_exported import BenchbookRuntime
@_exported import BenchbookTensor
@_exported import BenchbookImage
@_exported import BenchbookBenchmark
@_exported import BenchbookCharts
@_exported import BenchbookModels
