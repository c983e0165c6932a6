/// Benchbook's notebook library: everything a notebook cell can use, in one import.
///
/// Every cell imports it implicitly. The pieces, by role:
/// - ``BenchbookRuntime``: display in the notebook, interrupts, input.
/// - ``BenchbookCellHost``: the cell host's loop and what generated cell code calls (not for notebooks).
/// - ``BenchbookTensor``: tensors, softmax, top-k, quantisation.
/// - ``BenchbookImage``: image decoding, resizing, preprocessing, Fashion-MNIST.
/// - ``BenchbookModels``: TorchScript, PyTorch Lite and TensorFlow Lite models, evaluation.
/// - ``BenchbookBenchmark``: latency benchmarks (p90 first), `%time`/`%timeit` support, records in `results/`.
/// - ``BenchbookCharts``: charts drawn with cairo and shown as inline PNG.
/// - ``BenchbookWidgets``: Jupyter widgets (sliders, check boxes, images, `interact`).
@_exported import BenchbookRuntime
@_exported import BenchbookCellHost
@_exported import BenchbookTensor
@_exported import BenchbookImage
@_exported import BenchbookBenchmark
@_exported import BenchbookCharts
@_exported import BenchbookModels
@_exported import BenchbookWidgets
