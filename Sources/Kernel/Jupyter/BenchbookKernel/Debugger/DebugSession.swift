/// Where the front end's debug session is (JupyterLab's bug icon): a state machine that
/// moves only through its mutating methods, which throw when a request comes out of order.
///
/// ```
/// notInitialized ──initialize──▶ initialized ──attach──▶ attached
///        ▲                           │                     │
///        └──────── initialize ◀── disconnected ◀─disconnect─┘ (from any state)
/// ```
///
/// Breakpoints and stepping need LLDB (not yet wired in), so no state stops a thread.
enum DebugSession: Equatable {
    /// No `initialize` yet (the kernel started, or the last session was disconnected and
    /// the front end has not started another).
    case notInitialized
    /// `initialize` answered; the front end attaches next.
    case initialized
    /// `attach` answered: the session is live (`configurationDone` may follow).
    case attached(configured: Bool)
    /// `disconnect` answered; `initialize` starts a new session.
    case disconnected

    /// True once `initialize` was answered and until `disconnect` (`debugInfo`'s `isStarted`).
    var isStarted: Bool {
        switch self {
        case .initialized, .attached: true
        case .notInitialized, .disconnected: false
        }
    }

    /// Starts a session; a second `initialize` in a live session keeps it (as ipykernel does:
    /// a reloaded JupyterLab page initialises again).
    mutating func initialize() {
        switch self {
        case .notInitialized, .disconnected: self = .initialized
        case .initialized, .attached: break
        }
    }

    /// Attaches the front end to the session.
    /// - Throws: ``DebugSessionError/notStarted(_:)`` before `initialize`.
    mutating func attach() throws(DebugSessionError) {
        switch self {
        case .initialized: self = .attached(configured: false)
        case .attached: break
        case .notInitialized, .disconnected: throw .notStarted("attach")
        }
    }

    /// Records the end of the front end's configuration.
    /// - Throws: ``DebugSessionError/notAttached(_:)`` before `attach`.
    mutating func configurationDone() throws(DebugSessionError) {
        switch self {
        case .attached: self = .attached(configured: true)
        case .initialized, .notInitialized, .disconnected: throw .notAttached("configurationDone")
        }
    }

    /// Ends the session (from any state; a second `disconnect` is harmless).
    mutating func disconnect() {
        self = .disconnected
    }

    /// Checks that a request that needs a started session (`dumpCell`, `source`) may run.
    /// - Parameter command: the request, named in the error.
    /// - Throws: ``DebugSessionError/notStarted(_:)`` before `initialize` or after `disconnect`.
    func requireStarted(for command: String) throws(DebugSessionError) {
        guard isStarted else { throw .notStarted(command) }
    }
}

/// A debug request that came out of order.
enum DebugSessionError: Error, Equatable, CustomStringConvertible {
    /// The request needs `initialize` first.
    case notStarted(String)
    /// The request needs `attach` first.
    case notAttached(String)

    var description: String {
        switch self {
        case .notStarted(let command):
            "'\(command)' needs a started debug session: send 'initialize' first (JupyterLab does when the debugger is switched on)."
        case .notAttached(let command):
            "'\(command)' needs an attached debug session: send 'attach' after 'initialize'."
        }
    }
}
