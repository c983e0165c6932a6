import BenchbookSettings
import Foundation
import CellEngine
import JSONCore
import SystemSupport

/// A long-lived SourceKit-LSP with one open document, the notebook's completion file.
///
/// The server keeps a compiler instance per document and does not notice cell modules
/// written after it looked for them, so each generation of the notebook (each distinct
/// set of imports) gets a document at a new path, `completion/Notebook-<n>.swift`. The
/// compile database lists ``generationsPerServer`` such paths up front, so a new one
/// needs no reload; after the last, the server is restarted.
///
/// Thread rules: every method is called from one thread (the kernel's shell thread) and
/// blocks it for at most the request's timeout; the connection's reader thread never
/// touches the session. When the server is started and started again is
/// ``HelperLifecycle``'s rules: it starts on the first request; when it exits, hangs or
/// cannot start, the session waits ``restartPolicy``'s delay before the next start, and
/// callers fall back to the notebook's own names meanwhile.
///
/// A start runs on a thread of its own (``startInBackground(_:)``): the process, the
/// `initialize` handshake and the request that found no server, sent once so the server
/// loads the standard library and the notebook's modules. That can take longer than the
/// 1,000 ms after which JupyterLab drops a completion answer (`providerTimeout`), more so
/// under load (results/completion-latency.md has the first request's time): the request that starts the
/// server, and every request until it is ready, is answered at once from the notebook's
/// names and the library's API (``CompletionError/starting``), so the first Tab after the
/// idle stop lists matches too. A server without a request for ``idleSeconds`` is stopped from the
/// session's idle queue; `lock` keeps that stop and the shell thread's calls apart (the
/// only state the idle queue touches).
final class LanguageServerSession: @unchecked Sendable {

    /// The document the server has open.
    private struct OpenDocument {
        var url: URL
        /// The imports it was opened with; other imports need a new generation.
        var imports: String
        var version: Int
        var text: String
    }

    /// Seconds to wait for an answer once the server has answered one request.
    static let requestTimeout = 2.0
    /// Seconds to wait for the first answer of a fresh server (it loads the standard
    /// library and the notebook library's modules then).
    static let firstRequestTimeout = 8.0
    /// The waits between a failure and the next start: 10 s, doubling to a minute.
    static let restartPolicy = RestartPolicy(firstDelay: .seconds(10), longestDelay: .seconds(60))
    /// Timeouts in a row after which the server is taken for hung and stopped.
    static let timeoutsBeforeRestart = 3
    /// Seconds a server may keep a timed-out request unanswered before it is taken for
    /// hung and stopped. Until then requests do not wait behind it: they fail at once with
    /// ``CompletionError/busy`` (a slow server, loading a new cell's modules, used to cost
    /// every Tab and every documentation lookup the full timeout, one after the other).
    static let busyBeforeRestart = 20.0
    /// Document paths listed in the compile database for one server.
    static let generationsPerServer = 200
    /// Seconds without a request after which the server is stopped, so a student who is
    /// not completing holds no language server (its own memory and its share of the
    /// toolchain's pages: results/cluster-class.md); the next request starts a new
    /// one and is answered from the fallback until it is ready.
    /// `BENCHBOOK_SOURCEKIT_LSP_IDLE_SECONDS` sets it (0: never stopped); default 60.
    static let idleSeconds = KernelSettings.current.sourceKitLSPIdleSeconds

    private(set) var lifecycle = HelperLifecycle<LSPConnection>(helper: "SourceKit-LSP", policy: restartPolicy)
    private let executable: URL
    private let workDirectory: URL
    private var generation = 0
    private var document: OpenDocument?
    private var hasAnswered = false
    private var timeoutsInARow = 0
    /// Held by every call and by the idle stop.
    private let lock = NSLock()
    private let idleQueue = DispatchQueue(label: "benchbook.completion.idle")
    /// The pending idle stop; replaced by each request.
    private var idleTimer: DispatchSourceTimer?
    /// Counts idle stops armed, so a timer replaced by a later request does nothing.
    private var idleArmings = 0
    /// A start under way on its own thread.
    private var starting = false
    /// Whether a request has waited for the start under way.
    private var startWaited = false
    /// Counts stops, so a start that finishes after a stop ends its server.
    private var stops = 0

    /// Prepares a session; nothing starts until the first request.
    /// - Parameters:
    ///   - executable: `sourcekit-lsp`.
    ///   - workDirectory: the engine's work directory, the server's workspace root.
    init(executable: URL, workDirectory: URL) {
        self.executable = executable
        self.workDirectory = workDirectory
    }

    deinit {
        idleTimer?.cancel()
        lifecycle.client?.terminate()
    }

    /// Sends `method` for a position in the document `imports` + `body`, starting the
    /// server if needed.
    /// - Parameters:
    ///   - imports: the document's import lines (they decide the generation).
    ///   - text: the whole document.
    /// - Returns: the answer's `result`.
    /// - Throws: ``CompletionError`` when the server is unavailable, slow or failing.
    func request(_ method: String, imports: String, text: String, line: Int, character: Int,
                 compilerArguments: [String], waitsForStart: Bool = false) throws(CompletionError) -> JSONValue {
        let first = FirstRequest(method: method, imports: imports, text: text, line: line, character: character,
                                 compilerArguments: compilerArguments)
        if waitsForStart { awaitStart(first) }
        lock.lock()
        defer {
            armIdleStop()
            lock.unlock()
        }
        if document != nil, document?.imports != imports, generation >= Self.generationsPerServer { stopServer() }
        guard let connection = try readyConnection(first: first) else { throw .starting }
        if let since = connection.busySince {
            if DispatchTime.now() > since + Self.busyBeforeRestart { fail(.timedOut(method: method, seconds: Self.busyBeforeRestart)) }
            throw .busy
        }
        let url = show(text, imports: imports, on: connection)
        let params: JSONValue = [
            "textDocument": ["uri": .string(url.absoluteString)],
            "position": ["line": .number(Double(line)), "character": .number(Double(character))],
        ]
        do {
            let result = try connection.request(method, params, timeout: hasAnswered ? Self.requestTimeout : Self.firstRequestTimeout)
            hasAnswered = true
            timeoutsInARow = 0
            lifecycle.served()
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
        lock.lock()
        defer { lock.unlock() }
        idleTimer?.cancel()
        idleTimer = nil
        stops += 1
        stopServer()
    }

    private func stopServer() {
        lifecycle.stop()?.terminate()
    }

    /// Schedules the idle stop ``idleSeconds`` from now, replacing the pending one. Called
    /// with `lock` held.
    private func armIdleStop() {
        idleTimer?.cancel()
        idleTimer = nil
        guard Self.idleSeconds > 0, lifecycle.client != nil else { return }
        idleArmings += 1
        let arming = idleArmings
        let timer = DispatchSource.makeTimerSource(queue: idleQueue)
        timer.schedule(deadline: .now() + Self.idleSeconds)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.lock.lock()
            defer { self.lock.unlock() }
            // A request since this timer was armed replaced it.
            guard self.idleArmings == arming, self.idleTimer != nil else { return }
            self.idleTimer = nil
            Trace.note("SourceKit-LSP stopped after \(Self.idleSeconds) s without a request")
            self.stopServer()
        }
        timer.resume()
        idleTimer = timer
    }

    /// Opens, changes or replaces the document so the server sees `text`.
    /// - Returns: the document's URL.
    private func show(_ text: String, imports: String, on connection: LSPConnection) -> URL {
        if var open = document, open.imports == imports {
            if open.text != text {
                open.version += 1
                open.text = text
                connection.notify("textDocument/didChange", [
                    "textDocument": ["uri": .string(open.url.absoluteString), "version": .number(Double(open.version))],
                    "contentChanges": [["text": .string(text)]],
                ])
                document = open
            }
            return open.url
        }
        if let old = document {
            connection.notify("textDocument/didClose", ["textDocument": ["uri": .string(old.url.absoluteString)]])
        }
        generation += 1
        let url = Self.documentURL(generation, in: workDirectory)
        connection.notify("textDocument/didOpen", ["textDocument": [
            "uri": .string(url.absoluteString), "languageId": "swift", "version": 1, "text": .string(text),
        ]])
        document = OpenDocument(url: url, imports: imports, version: 1, text: text)
        return url
    }

    private static func documentURL(_ generation: Int, in workDirectory: URL) -> URL {
        workDirectory.appendingPathComponent("completion/Notebook-\(generation).swift")
    }

    /// Starts the server if none runs or starts, and waits (without the lock) until the
    /// start is over, for at most the first request's timeout and a little more. For a
    /// request whose front end waits for the answer (an inspection: JupyterLab's tooltip).
    /// Only the first request that waits for a start waits: a start that outlasts that wait
    /// (a server slow over its first request) costs one wait, not one per request.
    private func awaitStart(_ first: FirstRequest) {
        lock.lock()
        if lifecycle.client == nil, !starting { _ = try? readyConnection(first: first) }
        let waits = starting && !startWaited
        startWaited = startWaited || waits
        lock.unlock()
        guard waits else { return }
        let deadline = DispatchTime.now() + Self.firstRequestTimeout * 2 + 2
        while DispatchTime.now() < deadline {
            lock.lock()
            let pending = starting
            lock.unlock()
            if !pending { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// The request that found no server, which a start sends once it is up.
    struct FirstRequest: Sendable {
        var method: String
        var imports: String
        var text: String
        var line: Int
        var character: Int
        var compilerArguments: [String]
    }

    /// The running server, or nil while one starts (this call starts it when none is
    /// starting). Called with `lock` held.
    /// - Throws: ``CompletionError/restarting(_:)`` while a failed server waits to be
    ///   started again; ``CompletionError/serverExited`` when it has just exited.
    private func readyConnection(first: FirstRequest) throws(CompletionError) -> LSPConnection? {
        if let connection = lifecycle.client {
            if connection.isAlive { return connection }
            fail(.serverExited)
            throw .serverExited
        }
        if starting { return nil }
        do {
            _ = try lifecycle.needsStart(at: .now)
        } catch {
            throw .restarting(error)
        }
        starting = true
        startWaited = false
        let stopsBefore = stops
        let thread = Thread { [self] in startInBackground(first, stopsBefore: stopsBefore) }
        thread.name = "SourceKit-LSP start"
        thread.start()
        return nil
    }

    /// Starts the server, shakes hands, opens the first request's document and sends that
    /// request (its answer is dropped: its user was answered from the fallback), then makes
    /// the server the session's. Runs on a thread of its own, `lock` held only to publish.
    private func startInBackground(_ first: FirstRequest, stopsBefore: Int) {
        let started = DispatchTime.now()
        var connection: LSPConnection?
        var failure: CompletionError?
        var answered = false
        do throws(CompletionError) {
            try writeCompileCommands(first.compilerArguments)
            let made = try LSPConnection(executable: executable)
            connection = made
            try initialize(made)
            let url = Self.documentURL(1, in: workDirectory)
            made.notify("textDocument/didOpen", ["textDocument": [
                "uri": .string(url.absoluteString), "languageId": "swift", "version": 1, "text": .string(first.text),
            ]])
            do {
                _ = try made.request(first.method, [
                    "textDocument": ["uri": .string(url.absoluteString)],
                    "position": ["line": .number(Double(first.line)), "character": .number(Double(first.character))],
                ], timeout: Self.firstRequestTimeout)
                answered = true
            } catch {
                // A slow first answer leaves the server busy (requests fall back until it
                // answers); only a server that exited failed.
                if !made.isAlive { throw CompletionError.serverExited }
            }
        } catch {
            failure = error
        }
        lock.lock()
        defer { lock.unlock() }
        starting = false
        guard stops == stopsBefore else {
            connection?.terminate()   // stopped (a shutdown, a restart) while it started
            return
        }
        if let failure {
            connection?.terminate()
            _ = lifecycle.fail(failure.reason, at: .now)
            Trace.note("SourceKit-LSP could not start: \(failure)")
            return
        }
        guard let connection else { return }
        lifecycle.started(connection)
        if answered { lifecycle.served() }
        generation = 1
        document = OpenDocument(url: Self.documentURL(1, in: workDirectory), imports: first.imports, version: 1, text: first.text)
        hasAnswered = answered
        timeoutsInARow = 0
        armIdleStop()
        Trace.step("SourceKit-LSP start (in the background)", since: started)
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
        lifecycle.fail(error.reason, at: .now).client?.terminate()
    }

    /// Writes `compile_commands.json` in the workspace root, one entry per document
    /// generation, with the cell compiler's module search paths.
    private func writeCompileCommands(_ arguments: [String]) throws(CompletionError) {
        let entries: [JSONValue] = (1...Self.generationsPerServer).map { generation in
            let file = Self.documentURL(generation, in: workDirectory).path
            return [
                "directory": .string(workDirectory.path), "file": .string(file),
                "arguments": .array((["swiftc"] + arguments + [file]).map(JSONValue.string)),
            ]
        }
        do {
            try FileManager.default.createDirectory(at: workDirectory.appendingPathComponent("completion"), withIntermediateDirectories: true)
            try Data(JSONValue.array(entries).serialized()).write(to: workDirectory.appendingPathComponent("compile_commands.json"))
        } catch {
            throw .serverUnavailable("cannot write compile_commands.json in \(workDirectory.path): \(error)")
        }
    }
}
