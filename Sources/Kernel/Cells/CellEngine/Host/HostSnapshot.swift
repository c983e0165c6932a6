import Foundation
import HostProtocol
import SystemSupport

/// A frozen copy of a cell host, forked by the host after a cell (see `bb_take_snapshot`):
/// the state every earlier cell left, waiting to be promoted to host if the host dies.
///
/// Owns the socket to the copy: releasing the last reference closes it, and the copy
/// exits. ``promote(_:)`` sends the copy its new pipes; the copy then serves as the host.
///
/// Thread rules: immutable; ``promote(_:)`` is called once, by the supervisor.
final class HostSnapshot: Sendable, CustomStringConvertible {
    /// The copy's process id (it leads its own process group).
    let pid: Int32
    /// The execution whose state it holds (0: no cell has run in it).
    let afterCell: Int
    /// The host that made it.
    let host: HostID
    private let socket: MessageSocket

    /// Reads an announcement (``SnapshotMessage/taken(pid:afterCell:)`` with the socket attached).
    /// - Returns: nil when the message is not an announcement (its descriptors are closed).
    init?(announcement: MessageSocket.Message, from host: HostID) {
        guard case .taken(let pid, let cell)? = SnapshotMessage(packet: announcement.bytes),
              announcement.descriptors.count == 1 else {
            announcement.descriptors.forEach { $0.close() }
            return nil
        }
        self.pid = pid
        self.afterCell = cell
        self.host = host
        socket = MessageSocket(announcement.descriptors[0])
    }

    deinit { socket.descriptor.close() }

    var description: String { "snapshot \(pid) after cell \(afterCell)" }

    /// Makes the copy the host: `descriptors` (its standard input, output and error, the
    /// command, event, snapshot and crash channels) become its descriptors 0–6.
    /// - Throws: ``SystemError`` when the copy is gone.
    func promote(_ descriptors: [FileDescriptor]) throws(SystemError) {
        precondition(descriptors.count == HostChannel.descriptorCount, "a host needs descriptors 0 to \(HostChannel.descriptorCount - 1)")
        try socket.send(SnapshotMessage.promote.packet, descriptors: descriptors)
    }
}
