// benchbook-cell-compiler: compiles notebook cells for the kernel, in one long-lived process.
//
// Starting swift-frontend for each cell costs its process start and its set-up (loading
// the compiler's own libraries, the standard library and the notebook library's modules)
// every time. This process loads the compiler once, as the toolchain's in-process
// SourceKit, and runs each compile there (SourceKit's `source.request.compile`).
//
// Requests and answers are JSONCore's JSON in HelperService's frames on standard input and output
// (``CompileRequest``, ``CompileResponse``). The only argument is the path of `libsourcekitdInProc.so`. The
// kernel starts one beside itself, kills it when a cell is interrupted while compiling,
// and starts swift-frontend instead when this process cannot compile.

import BenchbookSettings
import CMallocTuning
import CSourceKit
import Foundation
import HelperProtocol
import SystemSupport

// A compile in progress must not outlive a kernel that was killed (its end of standard
// input closes only when this process next reads).
_ = try? CurrentProcess.whenParentExits { CurrentProcess.exitNow(status: 0) }
// Each compile frees what it allocated and the next allocates it again. With glibc's
// moving thresholds that memory goes back to the system and is faulted in again, more so
// as the process ages (getrusage's page faults per compile grow with the cells compiled).
// Fixed thresholds keep it in the process, with the page faults of a fresh process and no
// more resident memory (results/cluster-class.md has the compiler's memory per student): 32 MB,
// glibc's largest mmap threshold, and a heap top given back only beyond 512 MB.
_ = bb_retain_freed_memory(32 << 20, 512 << 20)
var failure = [CChar](repeating: 0, count: 1024)
let opened = CommandLine.arguments.count == 2
    && bbsk_open(CommandLine.arguments[1], &failure, failure.count) == 0
let unavailable = opened ? nil
    : CommandLine.arguments.count == 2 ? String(decoding: failure.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
    : "usage: benchbook-cell-compiler <path of libsourcekitdInProc.so>"

/// Compiles in this process.
func compile(_ request: CompileRequest) -> CompileResponse {
    if let unavailable { return .unavailable(unavailable) }
    var arguments = request.arguments.map { strdup($0) }
    defer { arguments.forEach { free($0) } }
    var text: UnsafeMutablePointer<CChar>?
    let result = arguments.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
            bbsk_compile($0, Int32(buffer.count), &text)
        }
    }
    let printed = text.map { String(cString: $0) } ?? ""
    free(text)
    switch result {
    case 0: return .succeeded
    case 1: return .failed(diagnostics: printed)
    default: return .unavailable(printed)
    }
}

/// Milliseconds without a request after which the memory kept for the next compile goes
/// back to the system: a student reading between cells holds only what the compiler needs
/// (results/cluster-class.md has the before/after). Cells sent in a row (a notebook run
/// from the top) keep the fixed thresholds' benefit. `BENCHBOOK_COMPILER_IDLE_TRIM_SECONDS`
/// sets it (0: never); default 2 s.
let idleTrimMilliseconds = Int32(KernelSettings.current.compilerIdleTrimSeconds * 1000)

HelperService.serve(idle: .init(milliseconds: idleTrimMilliseconds) { _ = bb_release_freed_memory() }) { payload in
    let response: CompileResponse
    do {
        response = compile(try CompileRequest(payload: payload))
    } catch {
        response = .unavailable("the cell compiler could not read the request: \(error)")
    }
    return response.payload
}
