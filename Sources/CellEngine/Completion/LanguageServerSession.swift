import Foundation
import JupyterWire

/// A long-lived SourceKit-LSP with one open document, the notebook's completion file.
///
/// Thread rules: every method is called from one thread (the kernel's shell thread) and
/// blocks it for at most the request's timeout; the connection's reader thread never
/// touches the session. The server starts on the first request; when it exits or cannot
/// start, the session waits ``retryDelay`` before trying again, and callers fall back to
/// the notebook's own names meanwhile.
final class LanguageServerSession {
    /// Where the session is in its life.
    enum State {
        /// No server yet; the next request starts one.
        case notStarted
        /// The `initialize` handshake is running (on the calling thread).
        case initializing
        /// The server answered `initialize`; `isDocumentOpen` says whether `didOpen` was sent.
        case ready(LSPConnection, isDocumentOpen: Bool)
        /// The server could not start or exited; no retry before `retryAt`.
        case failed(CompletionError, retryAt: DispatchTime)
    }

    /// Seconds to wait for an answer once the server has answered one request.
    static let requestTimeout = 2.0
    /// Seconds to wait for the first answer of a fresh server (it loads the standard
    /// library and the notebook library's modules then).
    static let firstRequestTimeout = 8.0
    /// Seconds between a failure and the next start.
    static let retryDelay = 10.0
    /// Timeouts in a row after which the server is taken for hung and stopped.
    static let timeoutsBeforeRestart = 3

    private(set) var state = State.notStarted
    private let executable: URL
    private let workDirectory: URL
    private let documentURL: URL
    private var version = 0
    private var hasAnswered = false
    private var timeoutsInARow = 0
    private var lastText: String?

    /// Prepares a session; nothing starts until the first request.
    /// - Parameters:
    ///   - executable: `sourcekit-lsp`.
    ///   - workDirectory: the engine's work directory, the server's workspace root.
    init(executable: URL, workDirectory: URL) {
        self.executable = executable
        self.workDirectory = workDirectory
        documentURL = workDirectory.appendingPathComponent("completion/Notebook.swift")
    }

    deinit {
        if case .ready(let connection, _) = state { connection.terminate() }
    }

    /// Sends `method` for `position` in a document with `text`, starting the server if needed.
    /// - Returns: the answer's `result`.
    /// - Throws: ``CompletionError`` when the server is unavailable, slow or failing.
    func request(_ method: String, text: String, line: Int, character: Int, compilerArguments: [String]) throws(CompletionError) -> JSONValue {
        let connection = try readyConnection(compilerArguments: compilerArguments)
        let uri = JSONValue.string(documentURL.absoluteString)
        guard case .ready(_, let isOpen) = state else { throw .serverExited }
        if !isOpen {
            version = 1
            connection.notify("textDocument/didOpen", ["textDocument": [
                "uri": uri, "languageId": "swift", "version": .number(Double(version)), "text": .string(text),
            ]])
            state = .ready(connection, isDocumentOpen: true)
        } else if text != lastText {
            version += 1
            connection.notify("textDocument/didChange", [
                "textDocument": ["uri": uri, "version": .number(Double(version))],
                "contentChanges": [["text": .string(text)]],
            ])
        }
        lastText = text
        let params: JSONValue = [
            "textDocument": ["uri": uri],
            "position": ["line": .number(Double(line)), "character": .number(Double(character))],
        ]
        do {
            let result = try connection.request(method, params, timeout: hasAnswered ? Self.requestTimeout : Self.firstRequestTimeout)
            hasAnswered = true
            timeoutsInARow = 0
            return result
        } catch {
            if case .timedOut = error { timeoutsInARow += 1 }
            if !connection.isAlive {
                fail(.serverExited)
            } else if timeoutsInARow >= Self.timeoutsBeforeRestart {
                fail(error)
            }
            throw error
        }
    }

    /// Stops the server; the next request starts a new one.
    func stop() {
        if case .ready(let connection, _) = state { connection.terminate() }
        state = .notStarted
    }

    private func readyConnection(compilerArguments: [String]) throws(CompletionError) -> LSPConnection {
        switch state {
        case .ready(let connection, _):
            if connection.isAlive { return connection }
            fail(.serverExited)
            throw .serverExited
        case .initializing:
            throw .serverUnavailable("it is still starting")
        case .failed(let error, let retryAt):
            guard DispatchTime.now() >= retryAt else { throw error }
        case .notStarted:
            break
        }
        state = .initializing
        do {
            try writeCompileCommands(compilerArguments)
            let connection = try LSPConnection(executable: executable)
            try initialize(connection)
            state = .ready(connection, isDocumentOpen: false)
            hasAnswered = false
            timeoutsInARow = 0
            lastText = nil
            return connection
        } catch {
            fail(error)
            throw error
        }
    }

    /// The `initialize` handshake; a server that fails it is stopped.
    private func initialize(_ connection: LSPConnection) throws(CompletionError) {
        do {
            _ = try connection.request("initialize", [
                "processId": .number(Double(getpid())),
                "rootUri": .string(workDirectory.absoluteString),
                "capabilities": [
                    "textDocument": [
                        "completion": ["completionItem": ["snippetSupport": false, "documentationFormat": ["markdown", "plaintext"]]],
                        "hover": ["contentFormat": ["markdown", "plaintext"]],
                    ],
                ],
            ], timeout: Self.firstRequestTimeout)
            connection.notify("initialized", [:])
        } catch {
            connection.terminate()
            throw error
        }
    }

    private func fail(_ error: CompletionError) {
        if case .ready(let connection, _) = state { connection.terminate() }
        state = .failed(error, retryAt: .now() + Self.retryDelay)
    }

    /// Writes `compile_commands.json` in the workspace root so the server compiles the
    /// completion document with the cell compiler's module search paths.
    private func writeCompileCommands(_ arguments: [String]) throws(CompletionError) {
        let command: JSONValue = [[
            "directory": .string(workDirectory.path),
            "file": .string(documentURL.path),
            "arguments": .array((["swiftc"] + arguments + [documentURL.path]).map(JSONValue.string)),
        ]]
        do {
            try FileManager.default.createDirectory(at: documentURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: documentURL.path) {
                try Data().write(to: documentURL)
            }
            try JSONEncoder().encode(command).write(to: workDirectory.appendingPathComponent("compile_commands.json"))
        } catch {
            throw .serverUnavailable("cannot write compile_commands.json in \(workDirectory.path): \(error)")
        }
    }
}
