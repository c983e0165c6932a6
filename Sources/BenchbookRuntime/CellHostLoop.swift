import Foundation
internal import HostProtocol

/// The cell host's serving loop, entered by the `benchbook-cell-host` launcher once it has
/// loaded this library, so the loop and every cell share one event channel.
///
/// Reads commands until the kernel closes the pipe: `load` opens an earlier cell's library
/// (`RTLD_GLOBAL`, so later cells see its symbols; libraries are never unloaded, so their
/// values stay valid), `run` opens a cell's library and calls its entry point on this
/// thread, `sync` answers when everything before it is done. A trap in a cell ends the
/// process; the kernel notices and starts a new host.
/// - Returns: the process exit status (0 when the kernel closed the pipe).
@_cdecl("benchbook_cell_host_serve")
public func _benchbookCellHostServe() -> Int32 {
    let channel = KernelChannel.shared
    guard channel.isConnected else { return 2 }
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
        case .run(_, let library, let symbol):
            channel.send(.done(runCell(library: library, symbol: symbol)))
        case .sync(let id):
            channel.send(.synced(id: id))
        case .inputReply:
            // An answer to an input request that was already given up; nothing waits for it.
            break
        }
    }
}

private typealias CellEntry = @convention(c) () -> Int32

private func runCell(library: String, symbol: String) -> HostEvent.RunOutcome {
    guard let handle = dlopen(library, RTLD_NOW | RTLD_GLOBAL) else { return .couldNotRun(lastLoaderError()) }
    guard let address = dlsym(handle, symbol) else { return .couldNotRun(lastLoaderError()) }
    let entry = unsafeBitCast(address, to: CellEntry.self)
    return .returned(Int(entry()))
}

private func lastLoaderError() -> String {
    dlerror().map { String(cString: $0) } ?? "unknown dynamic loader error"
}
