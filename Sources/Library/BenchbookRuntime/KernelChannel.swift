import Foundation
internal import JSONCore
internal import SystemSupport
package import HostProtocol

/// The pipes between code running in a cell host and the kernel.
///
/// The host is started with the descriptor numbers in the environment
/// (``HostChannel/eventVariable``, ``HostChannel/commandVariable``). Outside a kernel
/// (tests, scripts) there is no channel and displays fall back to printing `text/plain`.
///
/// Thread rules: `send` may be called from any thread; frames never interleave. Commands
/// are read by one thread at a time: the host's serving loop between cells, `input(_:)`
/// during one (the loop is then inside the cell's entry point).
package final class KernelChannel: Sendable {
    package static let shared = KernelChannel()

    private let events: HostEventWriter?
    let commands: FileDescriptor?

    private init() {
        let environment = ProcessInfo.processInfo.environment
        events = environment[HostChannel.eventVariable].flatMap(Int32.init)
            .map { HostEventWriter(descriptor: FileDescriptor(rawValue: $0)) }
        commands = environment[HostChannel.commandVariable].flatMap(Int32.init).map(FileDescriptor.init(rawValue:))
        // Cells start subprocesses; they must not inherit the kernel's pipes.
        commands?.setCloseOnExec()
        environment[HostChannel.eventVariable].flatMap(Int32.init).map(FileDescriptor.init(rawValue:))?.setCloseOnExec()
    }

    /// True when running inside a Benchbook cell host.
    package var isConnected: Bool { events != nil }

    /// Writes one event. Standard output and error are flushed first, so the kernel sees
    /// text printed before a display ahead of the display. A kernel that is gone is
    /// ignored: the host ends when its kernel does.
    package func send(_ event: HostEvent) {
        guard let events else { return }
        fflush(nil)
        try? events.send(event)
    }

    /// Reads the next command from the kernel.
    /// - Returns: nil when the kernel closed the pipe (or there is none).
    /// - Throws: ``FramingError`` or a parse error for a damaged command stream.
    package func readCommand() throws -> HostCommand? {
        guard let commands, let payload = try Framing.readFrame(from: commands) else { return nil }
        return try HostCommand(payload: payload)
    }
}

extension MimeBundle {
    /// The bundle as a display event (or an update of display `displayID`).
    func displayEvent(displayID: String?, isUpdate: Bool) -> HostEvent {
        .display(HostEvent.Display(data: dataJSON, metadata: metadataJSON, displayID: displayID, isUpdate: isUpdate))
    }

    /// The bundle as the cell's result.
    package var resultEvent: HostEvent { .result(data: dataJSON, metadata: metadataJSON) }

    /// The representations as Jupyter's `data` object.
    var dataJSON: JSONValue { .object(data.mapValues(JSONValue.string).merging(jsonData) { $1 }) }

    /// The per-type metadata as Jupyter's `metadata` object.
    var metadataJSON: JSONValue {
        guard let size = imageSize else { return [:] }
        return ["image/png": ["width": .number(Double(size.width)), "height": .number(Double(size.height))]]
    }
}
