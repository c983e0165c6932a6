// benchbook-kernel: the executable a Jupyter kernelspec starts.
//
//   benchbook-kernel -f <connection_file>
//
// The notebook library (libBenchbook.so, Modules/) and the cell host are found beside
// this executable, as SwiftPM builds them.

import BenchbookSettings
import BenchbookKernel
import CellCompletion
import CellEngine
import Foundation
import JupyterWire
import SystemSupport

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("benchbook-kernel: \(message)\n".utf8))
    exit(2)
}

// `benchbook-kernel --write-completion-index`: run by `make build` after the library is
// built, it writes the API that completion answers from while SourceKit-LSP starts.
if CommandLine.arguments.dropFirst().first == "--write-completion-index" {
    let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var configuration = EngineConfiguration.beside(executable: URL(fileURLWithPath: path))
    configuration.cellCache = .off
    do {
        let written = try CodeCompletion.writeIndex(for: CellEngine(configuration: configuration))
        try? FileManager.default.removeItem(at: configuration.workDirectory)
        print("benchbook-kernel: \(written.file.path): \(written.names) names, \(written.types) types with members")
        exit(0)
    } catch {
        fail("cannot write the completion index: \(error)")
    }
}

// A SIGTERM sent while the kernel starts waits until Termination takes it (it then has
// the cell directory to remove).
CurrentProcess.holdBack(SIGTERM)
// Sockets the launcher bound (it is what the kernelspec starts); read before any thread starts.
let listening = InheritedListeners.take()
let arguments = CommandLine.arguments
guard let flag = arguments.firstIndex(where: { $0 == "-f" || $0 == "--connection-file" }), flag + 1 < arguments.count else {
    fail("usage: benchbook-kernel -f <connection_file>")
}
let connection: ConnectionInfo
do { connection = try ConnectionInfo(contentsOf: arguments[flag + 1]) } catch { fail("\(error)") }
let executable = URL(fileURLWithPath: CommandLine.arguments[0].hasPrefix("/")
    ? CommandLine.arguments[0]
    : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0])
let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map(URL.init(fileURLWithPath:)) ?? executable
// Writing to a helper process that has exited must fail with EPIPE, not end the kernel.
CurrentProcess.ignore(SIGPIPE)
// Cells go to a private (0700) directory, removed at exit; those of dead kernels are swept.
let workDirectory: WorkDirectory
do { workDirectory = try WorkDirectory() } catch { fail("\(error)") }
workDirectory.removeAtExit()
DispatchQueue.global(qos: .utility).async { WorkDirectory.sweepStale() }
var configuration = EngineConfiguration.beside(executable: selfPath)
configuration.workDirectory = workDirectory.url
// Every BENCHBOOK_* setting, the kernel's and the cell host's, checked before anything starts.
do { _ = try KernelSettings.loaded.get(); _ = try LibrarySettings.loaded.get() } catch { fail("\(error)") }
let kernel: Kernel
do {
    kernel = try Kernel(connection: connection, listening: listening) { CellEngine(configuration: configuration) }
} catch {
    fail("cannot start: \(error)")
}
// SIGTERM, or the process that started the kernel gone (JPY_PARENT_PID): stop everything.
Termination.install(engine: kernel.engine, workDirectory: workDirectory)
ParentWatch()?.start { Termination.end(status: 1, reason: "the process that started the kernel is gone") }
kernel.run()
