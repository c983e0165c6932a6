// swift-tools-version:6.0
//
// Benchbook: a Jupyter kernel for Swift (kernel, cell engine, cell host) and the
// notebook library its notebooks import (tensors, images, models, benchmarks,
// charts, display). See README.md for the two set-up commands, docs/setup-and-layout.md for the layout.

import Foundation
import PackageDescription

/// The toolchain's SwiftSyntax host libraries (SwiftParser, SwiftSyntax), found from
/// `swiftc` on PATH. The cell engine parses cells with them; no outside package is needed.
let toolchainHostLibraries: String = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    for directory in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else { continue }
        let real = candidate.resolvingSymlinksInPath()
        return real.deletingLastPathComponent()
            .appendingPathComponent("../lib/swift/host").standardizedFileURL.path
    }
    return "/opt/swift/usr/lib/swift/host"
}()

let swiftSyntaxSettings: [SwiftSetting] = [.unsafeFlags(["-I", toolchainHostLibraries])]
let swiftSyntaxLinking: [LinkerSetting] = [
    .unsafeFlags([
        "-L", toolchainHostLibraries, "-lSwiftParser", "-lSwiftParserDiagnostics", "-lSwiftSyntax", "-lSwiftDiagnostics", "-lSwiftBasicFormat",
        "-lSwiftIfConfig", "-lSwiftOperators",
        "-Xlinker", "-rpath", "-Xlinker", toolchainHostLibraries,
    ])
]

/// The ExecuTorch runtime that the PyPI wheel `executorch` ships (headers and libexecutorch*.so
/// under site-packages/executorch), in the checkout's .venv (`make setup` installs it). The
/// ExecuTorch shim compiles against its headers and links its libraries with an rpath to them.
let execuTorchPackage: String = {
    let venvLib = Context.packageDirectory + "/.venv/lib"
    let pythons = ((try? FileManager.default.contentsOfDirectory(atPath: venvLib)) ?? []).filter { $0.hasPrefix("python3") }
    for python in pythons.sorted() {
        let candidate = "\(venvLib)/\(python)/site-packages/executorch"
        if FileManager.default.fileExists(atPath: candidate + "/include/executorch") { return candidate }
    }
    return venvLib + "/python3/site-packages/executorch"  // absent: the shim's build says to run `make setup`
}()
let execuTorchFound = FileManager.default.fileExists(atPath: execuTorchPackage + "/include/executorch")
let execuTorchLibraries = execuTorchPackage + "/lib"
/// The wheel's runtime libraries the shim links. The backend and kernel libraries register
/// themselves from static initialisers and nothing references their symbols, so they are
/// linked --no-as-needed: opening the shim loads (and so registers) them.
let execuTorchLinking: [LinkerSetting] = [
    .unsafeFlags(["-L", execuTorchLibraries, "-Xlinker", "--push-state", "-Xlinker", "--no-as-needed",
                  "-lexecutorch", "-lexecutorch_backend_xnnpack", "-lexecutorch_kernels_optimized",
                  "-lexecutorch_kernels_quantized", "-lexecutorch_threadpool", "-lexecutorch_etdump",
                  "-Xlinker", "--pop-state", "-Xlinker", "-rpath", "-Xlinker", execuTorchLibraries])
]

let package = Package(
    name: "Benchbook",
    products: [
        /// The notebook library. Dynamic, so the cell host and every compiled cell share
        /// one copy of its state (display channel, interrupt flag, loaded runtimes).
        .library(name: "Benchbook", type: .dynamic, targets: ["Benchbook"]),
        /// The libtorch shim with libtorch, opened by the notebook library on first use
        /// (CTorch), so a process that never loads a PyTorch model never pays for libtorch.
        .library(name: "BenchbookTorch", type: .dynamic, targets: ["CTorchShim"]),
        /// The ExecuTorch shim with the wheel's runtime, opened on first use (CExecuTorch), as
        /// BenchbookTorch is.
        .library(name: "BenchbookExecuTorch", type: .dynamic, targets: ["CExecuTorchShim"]),
        .executable(name: "benchbook-kernel", targets: ["benchbook-kernel"]),
        .executable(name: "benchbook-kernel-launcher", targets: ["benchbook-kernel-launcher"]),
        .executable(name: "benchbook-cell-host", targets: ["benchbook-cell-host"]),
        .executable(name: "benchbook-cell-parser", targets: ["benchbook-cell-parser"]),
        .executable(name: "benchbook-cell-compiler", targets: ["benchbook-cell-compiler"]),
    ],
    targets: [
        // MARK: System libraries (Sources/System)
        .systemLibrary(name: "CZeroMQ", path: "Sources/System/CZeroMQ",
                       providers: [.apt(["libzmq3-dev"])]),
        .systemLibrary(name: "CLibCrypto", path: "Sources/System/CLibCrypto",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/System/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/System/CZlib", providers: [.apt(["zlib1g-dev"])]),

        // MARK: Shared by the kernel, its helper processes and the notebook library (Sources/Shared)
        // JSON values with a reader and writer that need no Foundation.
        .target(name: "JSONCore", path: "Sources/Shared/JSONCore"),
        // The one process layer: spawn, descriptors, poll, reap, limits, errno; the launcher's socket hand-over format.
        .target(name: "CSystemSupport", path: "Sources/Shared/CSystemSupport"),
        .target(name: "SystemSupport", dependencies: ["CSystemSupport"], path: "Sources/Shared/SystemSupport"),
        // Commands and events between the kernel and the cell host; the seam's numbers, names
        // and snapshot message in one C header.
        .target(name: "CHostSeam", path: "Sources/Shared/CHostSeam"),
        .target(name: "HostProtocol", dependencies: ["CHostSeam", "JSONCore", "SystemSupport"], path: "Sources/Shared/HostProtocol"),
        // Every BENCHBOOK_* environment variable, read once per process: the kernel side's
        // (KernelSettings) and the notebook library's (LibrarySettings); docs/settings.md.
        .target(name: "BenchbookSettings", path: "Sources/Shared/BenchbookSettings"),
        // Requests and answers between the kernel and its cell parser and cell compiler, as JSON
        // objects through JSONCore like the host's commands and events (the parser's answer
        // carries CellSource's records).
        .target(name: "HelperProtocol", dependencies: ["CellSource", "HostProtocol", "JSONCore", "SystemSupport"], path: "Sources/Shared/HelperProtocol"),
        // The names generated cell code uses and invents, and their removal from what a user reads.
        .target(name: "GeneratedNames", path: "Sources/Shared/GeneratedNames"),

        // MARK: Kernel side, not part of the notebook library (Sources/Kernel)
        // The one reading of a connection file, for the launcher (C) and the kernel.
        .target(name: "CConnectionFile", path: "Sources/Kernel/Jupyter/CConnectionFile"),
        .target(name: "JupyterWire", dependencies: ["JSONCore", "CZeroMQ", "CLibCrypto", "CConnectionFile"], path: "Sources/Kernel/Jupyter/JupyterWire"),
        // What the kernel knows about a cell's text (no parser here: see CellParsing).
        .target(name: "CellSource", path: "Sources/Kernel/Cells/CellSource"),
        // SwiftParser, run only in the cell parser process so cell text cannot hurt the kernel.
        .target(name: "CellParsing", dependencies: ["BenchbookSettings", "CellSource", "GeneratedNames", "HelperProtocol", "SystemSupport"], path: "Sources/Kernel/Parser/CellParsing",
                swiftSettings: swiftSyntaxSettings, linkerSettings: swiftSyntaxLinking),
        .executableTarget(name: "benchbook-cell-parser", dependencies: ["CellParsing"], path: "Sources/Kernel/Parser/benchbook-cell-parser",
                          swiftSettings: swiftSyntaxSettings, linkerSettings: swiftSyntaxLinking),
        // The compiler, loaded once as the toolchain's in-process SourceKit (dlopen).
        .target(name: "CSourceKit", path: "Sources/Kernel/Compiler/CSourceKit", linkerSettings: [.linkedLibrary("dl")]),
        // glibc malloc kept from handing memory back between compiles (the compiler's main.swift).
        .target(name: "CMallocTuning", path: "Sources/Kernel/Compiler/CMallocTuning"),
        .executableTarget(name: "benchbook-cell-compiler", dependencies: ["BenchbookSettings", "CSourceKit", "CMallocTuning", "HelperProtocol", "SystemSupport"], path: "Sources/Kernel/Compiler/benchbook-cell-compiler"),
        .target(name: "CellEngine", dependencies: ["BenchbookSettings", "CellSource", "GeneratedNames", "HelperProtocol", "HostProtocol", "SystemSupport", "JSONCore", "CLibCrypto"], path: "Sources/Kernel/Cells/CellEngine"),
        .target(name: "CellCompletion", dependencies: ["BenchbookSettings", "CellEngine", "SystemSupport", "JSONCore"], path: "Sources/Kernel/Cells/CellCompletion"),
        .target(name: "BenchbookKernel", dependencies: ["JupyterWire", "CellEngine", "CellCompletion", "SystemSupport"], path: "Sources/Kernel/Jupyter/BenchbookKernel"),
        .executableTarget(name: "benchbook-kernel", dependencies: ["BenchbookSettings", "BenchbookKernel", "CellCompletion", "CellEngine", "JupyterWire", "SystemSupport"], path: "Sources/Kernel/Jupyter/benchbook-kernel"),
        // What the kernelspec starts: binds the kernel's ports at once, then execs benchbook-kernel (C, no Swift libraries to load);
        // CSystemSupport for the hand-over's format (listening_sockets.h), which the kernel reads too.
        .executableTarget(name: "benchbook-kernel-launcher", dependencies: ["CConnectionFile", "CSystemSupport"], path: "Sources/Kernel/Jupyter/benchbook-kernel-launcher"),

        // MARK: Notebook library and the cell host it runs in (Sources/Library)
        // The cell host (Sources/Library/CellHost): its C side (interrupt flag, cell threads, crash
        // reporter, snapshots); its loop and the runtime generated cell code calls, a module of the
        // notebook library so that the host and every cell share one copy of its state; and the
        // process, which loads the library and enters that loop.
        .target(name: "CCellHost", dependencies: ["CHostSeam", "CSystemSupport"], path: "Sources/Library/CellHost/CCellHost"),
        .target(name: "BenchbookCellHost", dependencies: ["BenchbookSettings", "BenchbookRuntime", "CCellHost", "HostProtocol", "JSONCore"], path: "Sources/Library/CellHost/BenchbookCellHost"),
        .executableTarget(name: "benchbook-cell-host", dependencies: ["HostProtocol", "SystemSupport"], path: "Sources/Library/CellHost/benchbook-cell-host",
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "BenchbookRuntime", dependencies: ["BenchbookSettings", "CCellHost", "GeneratedNames", "HostProtocol", "SystemSupport", "JSONCore"], path: "Sources/Library/BenchbookRuntime"),
        .target(name: "BenchbookTensor", dependencies: ["BenchbookRuntime"], path: "Sources/Library/BenchbookTensor"),
        .target(name: "BenchbookBenchmark", dependencies: ["BenchbookSettings", "BenchbookRuntime", "CLibCrypto", "SystemSupport"], path: "Sources/Library/BenchbookBenchmark"),
        .target(name: "BenchbookCharts", dependencies: ["BenchbookRuntime", "BenchbookBenchmark", "CCairo"], path: "Sources/Library/BenchbookCharts"),
        .target(name: "CImageCodecs", path: "Sources/Library/CImageCodecs",
                linkerSettings: [.linkedLibrary("png"), .linkedLibrary("jpeg"), .linkedLibrary("z")]),
        .target(name: "BenchbookImage", dependencies: ["BenchbookRuntime", "BenchbookTensor", "CImageCodecs", "SystemSupport"], path: "Sources/Library/BenchbookImage"),
        // Models (issue 5): libtorch through a C shim in its own library (BenchbookTorch),
        // opened on first use through CTorch; LiteRT through dlopen.
        .target(name: "CTorch", path: "Sources/Library/CTorch", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CTorchShim", dependencies: ["CSystemSupport"], path: "Sources/Library/CTorchShim",
                cxxSettings: [.define("_GLIBCXX_USE_CXX11_ABI", to: "1"),
                              .unsafeFlags(["-std=c++17", "-I/usr/include/torch/csrc/api/include", "-w"])],
                linkerSettings: [.linkedLibrary("torch"), .linkedLibrary("torch_cpu"), .linkedLibrary("c10"),
                                 .linkedLibrary("gomp"), .linkedLibrary("glog")]),
        .target(name: "CLiteRT", dependencies: ["CSystemSupport"], path: "Sources/Library/CLiteRT", linkerSettings: [.linkedLibrary("dl")]),
        // ExecuTorch (issue 46): the wheel's runtime through a C++ shim in its own library
        // (BenchbookExecuTorch), opened on first use through CExecuTorch.
        .target(name: "CExecuTorch", path: "Sources/Library/CExecuTorch", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CExecuTorchShim", dependencies: ["CSystemSupport"], path: "Sources/Library/CExecuTorchShim",
                cxxSettings: (execuTorchFound ? [] : [.define("BBE_RUNTIME_MISSING")]) + [
                              .define("C10_USING_CUSTOM_GENERATED_MACROS"), .define("ET_EVENT_TRACER_ENABLED"),
                              .define("ET_USE_THREADPOOL"),
                              .unsafeFlags(["-std=c++17", "-I", execuTorchPackage + "/include",
                                            "-I", execuTorchPackage + "/include/executorch/runtime/core/portable_type/c10"])],
                linkerSettings: execuTorchLinking),
        .target(name: "BenchbookModels", dependencies: ["BenchbookSettings", "BenchbookRuntime", "BenchbookTensor", "BenchbookImage", "BenchbookBenchmark", "CTorch", "CLiteRT", "CExecuTorch", "CZlib", "JSONCore", "SystemSupport"], path: "Sources/Library/BenchbookModels"),
        // Jupyter widgets (issue 14): ipywidgets 8 models over the runtime's comms.
        .target(name: "BenchbookWidgets", dependencies: ["BenchbookRuntime", "JSONCore"], path: "Sources/Library/BenchbookWidgets"),
        .target(name: "Benchbook", dependencies: ["BenchbookRuntime", "BenchbookCellHost", "BenchbookTensor", "BenchbookImage", "BenchbookBenchmark", "BenchbookModels", "BenchbookCharts", "BenchbookWidgets"], path: "Sources/Library/Benchbook"),

        // MARK: Tools (Sources/Tools): the library's command-line side, for the Makefile and the Python drivers
        .executableTarget(name: "benchbook-bench", dependencies: ["BenchbookBenchmark", "JSONCore"], path: "Sources/Tools/benchbook-bench"),
        // The messages of one cell through JSONCore against the Codable records they replaced
        // (results/helper-messages.md, make bench-messages).
        .executableTarget(name: "benchbook-message-bench", dependencies: ["CellParsing", "CellSource", "HelperProtocol"], path: "Sources/Tools/benchbook-message-bench",
                          swiftSettings: swiftSyntaxSettings, linkerSettings: swiftSyntaxLinking),
        // Measures one model variant in a fresh process for Benchmark.acrossProcesses (result on fd 3).
        .executableTarget(name: "benchbook-bench-worker", dependencies: ["BenchbookModels", "BenchbookImage", "BenchbookBenchmark", "BenchbookTensor", "SystemSupport"], path: "Sources/Tools/benchbook-bench-worker"),
        .executableTarget(name: "benchbook-preprocess-bench", dependencies: ["BenchbookImage", "BenchbookTensor", "JSONCore"], path: "Sources/Tools/benchbook-preprocess-bench"),
        .executableTarget(name: "benchbook-models", dependencies: ["BenchbookModels", "BenchbookImage", "BenchbookBenchmark", "BenchbookRuntime", "BenchbookTensor", "JSONCore"], path: "Sources/Tools/benchbook-models"),

        // MARK: Tests
        .testTarget(name: "JupyterWireTests", dependencies: ["JupyterWire", "EngineTestSupport"]),
        .testTarget(name: "BenchbookKernelTests", dependencies: ["BenchbookKernel", "JupyterWire"]),
        .testTarget(name: "BenchbookRuntimeTests", dependencies: ["BenchbookRuntime", "HostProtocol"]),
        .testTarget(name: "BenchbookCellHostTests", dependencies: ["BenchbookCellHost", "HostProtocol", "SystemSupport"]),
        .target(name: "EngineTestSupport", dependencies: ["CellEngine"], path: "Tests/EngineTestSupport"),
        .testTarget(name: "CellEngineTests", dependencies: ["CellEngine", "CellParsing", "CellSource", "EngineTestSupport", "GeneratedNames", "SystemSupport", "HostProtocol"],
                    swiftSettings: swiftSyntaxSettings, linkerSettings: swiftSyntaxLinking),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
        .testTarget(name: "HostProtocolTests", dependencies: ["HostProtocol", "JSONCore", "SystemSupport", "CellSource"]),
        .testTarget(name: "GeneratedNamesTests", dependencies: ["GeneratedNames"]),
        .testTarget(name: "CellParsingTests", dependencies: ["BenchbookSettings", "CellParsing", "CellSource", "HelperProtocol", "JSONCore", "SystemSupport"],
                    swiftSettings: swiftSyntaxSettings, linkerSettings: swiftSyntaxLinking),
        .testTarget(name: "CellCompletionTests", dependencies: ["CellCompletion", "CellEngine", "EngineTestSupport"]),
        .testTarget(name: "BenchbookTensorTests", dependencies: ["BenchbookTensor"]),
        .testTarget(name: "BenchbookBenchmarkTests", dependencies: ["BenchbookBenchmark", "BenchbookRuntime", "BenchbookSettings", "SystemSupport"]),
        .testTarget(name: "BenchbookChartsTests", dependencies: ["BenchbookCharts", "BenchbookBenchmark", "BenchbookRuntime"]),
        .testTarget(name: "BenchbookImageTests", dependencies: ["BenchbookImage", "BenchbookRuntime", "BenchbookTensor"]),
        .testTarget(name: "BenchbookModelsTests", dependencies: ["BenchbookModels", "BenchbookImage", "BenchbookBenchmark", "BenchbookRuntime", "BenchbookTensor"]),
        .testTarget(name: "BenchbookWidgetsTests", dependencies: ["BenchbookWidgets", "BenchbookRuntime", "JSONCore"]),
    ]
)
