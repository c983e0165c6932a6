import Synchronization

/// The comms open between the front end and the cell host, as the kernel saw them pass,
/// with the execution (cell or comm dispatch) during which each was opened.
///
/// The kernel answers `comm_info_request` from it (so a front end that reconnects finds
/// its widgets while a cell runs), and closes in the front end the comms a replaced host
/// no longer has: all of them after a fresh host, those opened after the snapshot's
/// execution after a restore.
///
/// Thread rules: any thread (the shell thread and host reader threads).
final class CommRegistry: Sendable {
    private struct Entry: Sendable {
        var targetName: String
        var openedIn: Int
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// Records what a comm message says about the set of open comms.
    /// - Parameters:
    ///   - traffic: a comm message in either direction.
    ///   - execution: the execution in progress when it passed.
    func record(_ traffic: CommTraffic, during execution: Int) {
        entries.withLock { entries in
            switch traffic.kind {
            case .open: entries[traffic.commID] = Entry(targetName: traffic.targetName ?? "", openedIn: execution)
            case .close: entries[traffic.commID] = nil
            case .message: break
            }
        }
    }

    /// True when the comm is open.
    func isOpen(_ id: String) -> Bool { entries.withLock { $0[id] != nil } }

    /// The open comms (id to target name), only those to `targetName` when it is given.
    func openComms(targetName: String? = nil) -> [String: String] {
        entries.withLock { entries in
            entries.filter { targetName == nil || $0.value.targetName == targetName }.mapValues(\.targetName)
        }
    }

    /// Forgets and returns the comms opened after execution `execution` (0: every comm).
    func removeOpened(after execution: Int) -> [String] {
        entries.withLock { entries in
            let gone = entries.filter { $0.value.openedIn > execution }.map(\.key).sorted()
            for id in gone { entries[id] = nil }
            return gone
        }
    }
}
