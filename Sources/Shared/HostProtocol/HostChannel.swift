import CHostSeam

/// The descriptors, environment, symbols and messages that connect a cell host to its
/// kernel, as Swift reads them from the seam's one definition (`CHostSeam.h`, which the
/// library's C support includes too).
///
/// The kernel starts the host with commands on descriptor 3, events on descriptor 4 (and
/// the same numbers in the environment, for the notebook library inside the host),
/// snapshot announcements on descriptor 5 and crash reports on descriptor 6. Standard
/// output and error are pipes the kernel streams to the notebook; a cell may close or
/// redirect them, and the host's own channels do not depend on them.
public enum HostChannel {
    /// The descriptor the host reads commands from.
    public static let commandDescriptor: Int32 = BB_SEAM_COMMAND_DESCRIPTOR
    /// The descriptor the host and the notebook library write events to.
    public static let eventDescriptor: Int32 = BB_SEAM_EVENT_DESCRIPTOR
    /// The descriptor on which the host announces each snapshot (a forked copy of itself)
    /// with a socket to that copy (``SnapshotMessage/taken(pid:afterCell:)``). Sending
    /// ``SnapshotMessage/promote`` with ``descriptorCount`` descriptors on that socket makes
    /// the copy the host, with them as its descriptors 0 to 6.
    public static let snapshotDescriptor: Int32 = BB_SEAM_SNAPSHOT_DESCRIPTOR
    /// How many descriptors connect a host (0 to 6).
    public static let descriptorCount = Int(BB_SEAM_DESCRIPTOR_COUNT)
    /// The environment variable naming ``commandDescriptor``.
    public static let commandVariable = BB_SEAM_COMMAND_VARIABLE
    /// The environment variable naming ``eventDescriptor``.
    public static let eventVariable = BB_SEAM_EVENT_VARIABLE
    /// The C symbol of the host's serving loop in the notebook library.
    public static let serveSymbol = BB_SEAM_SERVE_SYMBOL
    /// The C symbol of the function in the notebook library that loads the model runtimes
    /// (libtorch, LiteRT), which the host runs in the background once it is ready; its
    /// `Int32` argument is 1 to also do libtorch's first-load work on a small network.
    public static let preloadSymbol = "benchbook_preload_runtimes"
    /// The descriptor the host's crash handler writes its report to (never standard
    /// error, which a cell may print anything to, or close).
    public static let crashDescriptor: Int32 = BB_SEAM_CRASH_DESCRIPTOR
    /// The first word of a crash report's signal record (`signal <number>`).
    public static let crashSignalRecord = BB_SEAM_CRASH_SIGNAL
    /// The first word of a crash report's message record (`message <byte count>`, then the bytes).
    public static let crashMessageRecord = BB_SEAM_CRASH_MESSAGE
    /// The first word of a crash report's frame records (`frame <offset> <library>`).
    public static let crashFrameRecord = BB_SEAM_CRASH_FRAME
}

/// A message of the snapshot channel (`bb_seam_snapshot_message`): one packet each.
public enum SnapshotMessage: Sendable, Equatable {
    /// The host left a frozen copy of itself after a cell (the copy's socket is attached).
    case taken(pid: Int32, afterCell: Int)
    /// The kernel makes the copy the host (its descriptors 0 to 6 are attached).
    case promote

    /// Reads a packet.
    /// - Returns: nil when the packet is not a message of this seam (wrong size or kind).
    public init?(packet: [UInt8]) {
        guard packet.count == MemoryLayout<bb_seam_snapshot_message>.size else { return nil }
        let message = packet.withUnsafeBytes { $0.loadUnaligned(as: bb_seam_snapshot_message.self) }
        switch message.kind {
        case BB_SEAM_SNAPSHOT_TAKEN: self = .taken(pid: message.pid, afterCell: Int(message.after_cell))
        case BB_SEAM_SNAPSHOT_PROMOTE: self = .promote
        default: return nil
        }
    }

    /// The packet.
    public var packet: [UInt8] {
        var message = bb_seam_snapshot_message()
        switch self {
        case .taken(let pid, let afterCell):
            message.kind = BB_SEAM_SNAPSHOT_TAKEN
            message.pid = pid
            message.after_cell = Int64(afterCell)
        case .promote:
            message.kind = BB_SEAM_SNAPSHOT_PROMOTE
        }
        return withUnsafeBytes(of: message) { Array($0) }
    }
}
