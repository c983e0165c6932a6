internal import CBenchbookSupport
import Foundation
internal import HostProtocol

/// The cell host's serving loop, entered by the `benchbook-cell-host` launcher once it has
/// loaded this library, so the loop and every cell share one event channel.
///
/// Reads commands until the kernel closes the pipe: `load` opens an earlier cell's library
/// (`RTLD_GLOBAL`, so later cells see its symbols; libraries are never unloaded, so their
/// values stay valid), `run` opens a cell's library and calls its entry point on a fresh
/// thread (``cellStackBytes`` of stack) while this one waits, `sync` answers when
/// everything before it is done, `comm` delivers a front end's comm message to the
/// callbacks cells registered, on a fresh thread like a cell (see ``CommTargets``). After
/// each `run`, `comm` and `sync` the host leaves a frozen copy
/// of itself (a snapshot); a trap in a cell ends the process after the crash reporter
/// writes its frames, and the kernel promotes the newest copy to be the host.
/// - Returns: the process exit status (0 when the kernel closed the pipe).
@_cdecl("benchbook_cell_host_serve")
public func _benchbookCellHostServe() -> Int32 {
    let channel = KernelChannel.shared
    guard channel.isConnected else { return 2 }
    bb_install_crash_reporter()
    RuntimePreload.start()
    var lastCell = 0
    while true {
        let command: HostCommand?
        do { command = try channel.readCommand() } catch {
            FileHandle.standardError.write(Data("benchbook-cell-host: \(error)\n".utf8))
            return 3
        }
        guard let command else { return 0 }
        switch command {
        case .load(let library):
            if dlopen(library, RTLD_NOW | RTLD_GLOBAL) == nil {
                channel.send(.loadFailed(library: library, message: lastLoaderError()))
            }
        case .run(let cell, let library, let symbol):
            let outcome = runCell(library: library, symbol: symbol)
            channel.send(.done(outcome))
            lastCell = cell
            takeSnapshot(afterCell: cell)
        case .comm(let traffic, let dispatch, let requestID):
            CommRouter.shared.setPending(traffic, requestID: requestID)
            let status = bb_run_on_cell_thread(deliverPendingComm, cellStackBytes)
            channel.send(.done(status >= 0 ? .returned(0) : .couldNotRun("the comm callback's thread could not be started")))
            lastCell = dispatch
            takeSnapshot(afterCell: dispatch)
        case .sync(let id):
            channel.send(.synced(id: id))
            takeSnapshot(afterCell: lastCell)
        case .inputReply:
            // An answer to an input request that was already given up; nothing waits for it.
            break
        }
    }
}

/// `BENCHBOOK_SNAPSHOTS=0` in the kernel's environment turns snapshots off (to measure
/// what they cost; a crash then loses the variables of earlier cells).
private let snapshotsEnabled = ProcessInfo.processInfo.environment["BENCHBOOK_SNAPSHOTS"] != "0"

/// Leaves a frozen copy of the host behind (see `bb_take_snapshot`) for the kernel to
/// promote if this host dies. In the copy, once promoted, returns to serve as the host.
private func takeSnapshot(afterCell cell: Int) {
    guard snapshotsEnabled else { return }
    // Never fork while the runtimes load on another thread (see RuntimePreload).
    RuntimePreload.waitUntilDone()
    if bb_take_snapshot(cell) == BB_SNAPSHOT_PROMOTED {
        // The interrupt that ended the old host (if any) was not meant for this one.
        bb_clear_interrupt()
    }
}

/// The entry point of a comm dispatch thread.
private let deliverPendingComm: bb_cell_entry = {
    CommRouter.shared.deliverPending()
    fflush(nil)
    return 0
}

/// The stack of a cell's thread: deep recursion in a cell overflows only far beyond what
/// real code needs (the pages are reserved, not used).
let cellStackBytes = 512 << 20

private func runCell(library: String, symbol: String) -> HostEvent.RunOutcome {
    guard let handle = dlopen(library, RTLD_NOW | RTLD_GLOBAL) else { return .couldNotRun(lastLoaderError()) }
    guard let address = dlsym(handle, symbol) else { return .couldNotRun(lastLoaderError()) }
    let status = bb_run_on_cell_thread(unsafeBitCast(address, to: bb_cell_entry.self), cellStackBytes)
    guard status >= 0 else { return .couldNotRun("the cell's thread could not be started") }
    return .returned(Int(status))
}

private func lastLoaderError() -> String {
    dlerror().map { String(cString: $0) } ?? "unknown dynamic loader error"
}
