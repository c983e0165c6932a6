internal import BenchbookRuntime
internal import CCellHost
import BenchbookSettings
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
    // The launcher passes what this returns to exit(), which runs libtorch's static
    // destructors: never while the preload thread is still inside libtorch (a host told
    // to end in its first second crashed with SIGSEGV instead of exiting).
    defer { RuntimePreload.waitUntilDone() }
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
            lastCell = cell
            // The snapshot first, so that the cell's own output can say it failed; a copy
            // promoted later resumes here, and its kernel already knows how the cell ended.
            guard takeSnapshot(afterCell: cell, channel: channel) != .promoted else { continue }
            channel.send(.done(outcome))
        case .comm(let traffic, let dispatch, let requestID):
            CommRouter.shared.setPending(traffic, requestID: requestID)
            let status = bb_run_on_cell_thread(deliverPendingComm, cellStackBytes)
            lastCell = dispatch
            guard takeSnapshot(afterCell: dispatch, channel: channel) != .promoted else { continue }
            channel.send(.done(status >= 0 ? .returned(0) : .couldNotRun("the comm callback's thread could not be started")))
        case .sync(let id):
            channel.send(.synced(id: id))
            _ = takeSnapshot(afterCell: lastCell, channel: channel)
        case .inputReply:
            // An answer to an input request that was already given up; nothing waits for it.
            break
        }
    }
}

/// `BENCHBOOK_SNAPSHOTS=0` in the kernel's environment turns snapshots off (to measure
/// what they cost; a crash then loses the variables of earlier cells).
private let snapshotsEnabled = LibrarySettings.current.snapshots

/// Where ``takeSnapshot(afterCell:channel:)`` left this process.
private enum SnapshotOutcome {
    /// This is the host; a copy waits (or snapshots are off, or none could be made, which
    /// the kernel was told).
    case host
    /// This is the copy, just made the host by a kernel whose host died.
    case promoted
}

/// Leaves a frozen copy of the host behind (see `bb_take_snapshot`) for the kernel to
/// promote if this host dies, and tells the kernel when none could be made. In the copy,
/// once promoted, returns to serve as the host.
private func takeSnapshot(afterCell cell: Int, channel: KernelChannel) -> SnapshotOutcome {
    guard snapshotsEnabled else { return .host }
    // Never fork while the runtimes load on another thread (see RuntimePreload).
    RuntimePreload.waitUntilDone()
    var reason = [CChar](repeating: 0, count: 256)
    switch bb_take_snapshot(cell, &reason, reason.count) {
    case BB_SNAPSHOT_PROMOTED:
        // The interrupt that ended the old host (if any) was not meant for this one.
        bb_clear_interrupt()
        return .promoted
    case BB_SNAPSHOT_FAILED:
        let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        channel.send(.snapshotFailed(afterCell: cell, reason: text))
        return .host
    default:
        return .host
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
