import BenchbookSettings
import Foundation

/// Where the cell engine finds the compiler and the notebook library, and where it
/// writes cell modules.
public struct EngineConfiguration: Sendable {
    /// `swiftc`.
    public var compiler: URL
    /// The directory with `libBenchbook.so` and `Modules/` (a SwiftPM build directory).
    public var libraryDirectory: URL
    /// Where each cell's `.swift`, object and `.so` go (one directory per kernel); its
    /// module files go to ``cellModulesDirectory`` inside it.
    public var workDirectory: URL
    /// The cell host executable.
    public var hostExecutable: URL
    /// The cell parser executable.
    public var parserExecutable: URL
    /// The cell compiler executable (``CellCompilerClient``).
    public var cellCompilerExecutable: URL
    /// How cells are compiled when the kernel starts (`auto`: `-O` for a cell with loops,
    /// functions or closures; see docs/executing-cells.md, "Optimised cells", for why not every cell);
    /// `%optimize` changes it for the kernel (see ``CellEngine/optimization``).
    /// `BENCHBOOK_OPTIMIZE=on|off|auto` in the kernel's environment chooses another start.
    public var optimization = Optimization(rawValue: KernelSettings.current.optimize) ?? .auto
    /// Where compiled cells are kept between kernels (``CellCache``): from
    /// `BENCHBOOK_CELL_CACHE`, `BENCHBOOK_CELL_CACHE_READONLY` and `BENCHBOOK_CELL_CACHE_SIZE_MB`.
    public var cellCache = CellCacheSettings.from(KernelSettings.current, environment: ProcessInfo.processInfo.environment)
    /// How much of a cell's standard output and error the notebook is sent.
    public var outputLimit = OutputLimit(KernelSettings.current.outputLimit)
    /// Where a cell's output past the limit is written (in `benchbook-output/`): the
    /// kernel's working directory, which Jupyter sets to the notebook's folder.
    public var outputDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)

    /// Creates a configuration.
    public init(compiler: URL, libraryDirectory: URL, workDirectory: URL, hostExecutable: URL, parserExecutable: URL,
                cellCompilerExecutable: URL) {
        self.compiler = compiler
        self.libraryDirectory = libraryDirectory
        self.workDirectory = workDirectory
        self.hostExecutable = hostExecutable
        self.parserExecutable = parserExecutable
        self.cellCompilerExecutable = cellCompilerExecutable
    }

    #if arch(x86_64)
    /// The machine's architecture name in the toolchain's paths.
    public static let architecture = "x86_64"
    #else
    public static let architecture = "aarch64"
    #endif
    /// The target triple cells are compiled for.
    public static let targetTriple = "\(architecture)-unknown-linux-gnu"

    /// The notebook library the host loads and every cell links against.
    public var library: URL { libraryDirectory.appendingPathComponent("libBenchbook.so") }

    /// Where cell module files go (`Cell3.swiftmodule`, with its `.swiftdoc` and
    /// `.swiftsourceinfo`): the compiler's search path for earlier cells. The compiler lists
    /// every search directory on each compile, so this one holds nothing else; in the work
    /// directory every cell would add its source, object and library to that listing too
    /// (after 300 cells that is 1,800 files listed on every compile; results/kernel-latency.md
    /// has the 100-cell notebook's times).
    public var cellModulesDirectory: URL { workDirectory.appendingPathComponent("modules") }

    /// The file in the library's `Modules/` that holds the API completion answers from
    /// while SourceKit-LSP starts (written by `make build`; not an input of any compile).
    public static let completionIndexName = "benchbook-completion-index.json"

    /// The directory of `swiftc`, `swift-frontend`, `clang` and `sourcekit-lsp`.
    public var toolsDirectory: URL { compiler.deletingLastPathComponent() }

    /// The version of the toolchain that compiles cells (`6.3.1`), read from the standard
    /// library's interface header (`// swift-compiler-version: Swift version 6.3.1 (…)`), which
    /// costs a file read instead of starting the compiler; nil when it cannot be read.
    public var toolchainVersion: String? {
        let interface = toolsDirectory.appendingPathComponent(
            "../lib/swift/linux/Swift.swiftmodule/\(Self.targetTriple).swiftinterface").standardizedFileURL
        guard let handle = try? FileHandle(forReadingFrom: interface) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 1024)) ?? Data(), as: UTF8.self)
        return head.firstMatch(of: /swift-compiler-version: Swift version ([0-9][0-9.]*)/).map { String($0.1) }
    }

    /// The toolchain's in-process SourceKit, which the cell compiler loads.
    public var sourceKitLibrary: URL {
        toolsDirectory.appendingPathComponent("../lib/libsourcekitdInProc.so").standardizedFileURL
    }

    /// The configuration for a kernel executable inside a SwiftPM build directory:
    /// the library, host and parser sit beside it, `swiftc` is found on PATH (or in
    /// `/opt/swift/usr/bin`), and cells go to a fresh temporary directory.
    /// - Parameter executable: the kernel's own path.
    public static func beside(executable: URL) -> EngineConfiguration {
        let directory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            + [URL(fileURLWithPath: "/opt/swift/usr/bin/swiftc")]
        let compiler = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? URL(fileURLWithPath: "/usr/bin/swiftc")
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("benchbook-\(getpid())-\(UUID().uuidString.prefix(8))")
        return EngineConfiguration(compiler: compiler, libraryDirectory: directory, workDirectory: work,
                                   hostExecutable: directory.appendingPathComponent("benchbook-cell-host"),
                                   parserExecutable: directory.appendingPathComponent("benchbook-cell-parser"),
                                   cellCompilerExecutable: directory.appendingPathComponent("benchbook-cell-compiler"))
    }
}
