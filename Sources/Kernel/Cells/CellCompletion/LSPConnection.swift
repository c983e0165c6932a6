import CellEngine
import Foundation
import SystemSupport

/// A language server child process spoken to with JSON-RPC over its standard input and
/// output (`Content-Length` framing, as the Language Server Protocol specifies).
///
/// Thread rules: one thread (the kernel's shell thread) sends requests and notifications
/// and waits for answers; a private reader thread parses the server's output and hands
/// each answer to the waiting request. The tables of waiting and abandoned requests are
/// the only state both threads touch, always under `lock`. A request that times out is
/// abandoned: its late answer (or the error its cancellation brings) is dropped, and until
/// it arrives the server is ``busySince`` that moment, since a new request would wait behind
/// it. When the server exits, every waiting request fails with
/// ``CompletionError/serverExited`` and ``isAlive`` becomes false.
final class LSPConnection: @unchecked Sendable {
    /// One request waiting for its answer.
    private final class Waiter: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<JSONValue, CompletionError> = .failure(.serverExited)
    }

    private let process: ChildProcess
    private let input: FileDescriptor
    private let output: FileDescriptor
    private let lock = NSLock()
    private var waiting: [String: Waiter] = [:]
    /// Requests that timed out, by id, with when they did; their answers are dropped.
    private var abandoned: [String: DispatchTime] = [:]
    private var nextID = 0
    private var closed = false
    private var inputClosed = false

    /// Starts the server.
    /// - Parameters:
    ///   - executable: the `sourcekit-lsp` binary.
    ///   - arguments: its arguments.
    /// - Throws: ``CompletionError/serverUnavailable(_:)`` when it cannot be started.
    init(executable: URL, arguments: [String] = []) throws(CompletionError) {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw .serverUnavailable("\(executable.path) is not an executable file")
        }
        do {
            let connection = try ChildProcess.connected(.init(executable: executable.path, arguments: arguments))
            process = connection.process
            input = connection.input
            output = connection.output
        } catch {
            throw .serverUnavailable("\(executable.path): \(error)")
        }
        let reader = Thread { [self] in readUntilClosed() }
        reader.name = "sourcekit-lsp reader"
        reader.start()
    }

    /// False once the server has exited or closed its output.
    var isAlive: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !closed
    }

    /// When the oldest request still unanswered after its timeout timed out; nil when the
    /// server has answered every request it was sent.
    var busySince: DispatchTime? {
        lock.lock()
        defer { lock.unlock() }
        return abandoned.values.min()
    }

    /// Sends a request and waits for its answer.
    /// - Parameters:
    ///   - method: the LSP method, for example `textDocument/completion`.
    ///   - params: its parameters.
    ///   - timeout: how long to wait, in seconds.
    /// - Returns: the `result` member of the answer.
    /// - Throws: ``CompletionError`` on a timeout, an error answer, or a dead server.
    func request(_ method: String, _ params: JSONValue, timeout: Double) throws(CompletionError) -> JSONValue {
        let waiter = Waiter()
        lock.lock()
        if closed {
            lock.unlock()
            throw .serverExited
        }
        nextID += 1
        let id = "bb-\(nextID)"
        waiting[id] = waiter
        lock.unlock()
        send(["jsonrpc": "2.0", "id": .string(id), "method": .string(method), "params": params])
        if waiter.done.wait(timeout: .now() + timeout) == .timedOut {
            lock.lock()
            // The answer may have come in the meantime: then it is not abandoned.
            let late = waiting.removeValue(forKey: id) != nil
            if late { abandoned[id] = .now() }
            lock.unlock()
            if !late { return try waiter.result.get() }
            // The answer would be dropped anyway; let the server stop working on it.
            notify("$/cancelRequest", ["id": .string(id)])
            throw .timedOut(method: method, seconds: timeout)
        }
        return try waiter.result.get()
    }

    /// Sends a notification (no answer expected).
    func notify(_ method: String, _ params: JSONValue) {
        send(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    /// Stops the server: its input is closed and it is killed; the reader thread then
    /// sees the end of its output, fails waiting requests and reaps it.
    func terminate() {
        lock.lock()
        let first = !inputClosed
        inputClosed = true
        lock.unlock()
        guard first else { return }
        input.close()
        process.signal(SIGKILL)
    }

    // MARK: Wire

    private func send(_ message: JSONValue) {
        lock.lock()
        let writable = !inputClosed
        lock.unlock()
        guard writable else { return }
        let body = message.serialized()
        var frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        frame += body
        do { try input.write(all: frame) } catch { markClosed() }
    }

    /// The reader thread: parses frames until the server closes its output.
    private func readUntilClosed() {
        var buffer: [UInt8] = []
        while case .bytes(let chunk)? = try? output.read() {
            buffer += chunk
            while let (body, used) = Self.frame(in: buffer) {
                buffer.removeFirst(used)
                if let message = try? JSONValue(parsing: body) { dispatch(message) }
            }
        }
        output.close()
        markClosed()
        _ = process.waitForExit()
    }

    /// One complete frame at the start of `buffer`: its body and the bytes it takes.
    static func frame(in buffer: [UInt8]) -> (body: ArraySlice<UInt8>, used: Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard buffer.count >= 4 else { return nil }
        var headerEnd: Int?
        for index in 0...(buffer.count - 4) where buffer[index..<index + 4].elementsEqual(separator) {
            headerEnd = index
            break
        }
        guard let headerEnd else { return nil }
        let header = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
        var length = 0
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                length = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        let start = headerEnd + 4
        guard buffer.count >= start + length else { return nil }
        return (buffer[start..<start + length], start + length)
    }

    private func dispatch(_ message: JSONValue) {
        if message["method"] != nil {
            // A request from the server (configuration, progress tokens): answer with
            // an empty result so it does not wait on us. Notifications are ignored.
            if let id = message["id"] { send(["jsonrpc": "2.0", "id": id, "result": .null]) }
            return
        }
        guard let id = message["id"]?.stringValue else { return }
        lock.lock()
        let waiter = waiting.removeValue(forKey: id)
        abandoned[id] = nil
        lock.unlock()
        guard let waiter else { return }
        if let error = message["error"] {
            waiter.result = .failure(.serverError(error["message"]?.stringValue ?? "unknown error"))
        } else {
            waiter.result = .success(message["result"] ?? .null)
        }
        waiter.done.signal()
    }

    private func markClosed() {
        lock.lock()
        closed = true
        let pending = waiting
        waiting = [:]
        abandoned = [:]
        lock.unlock()
        for waiter in pending.values {
            waiter.result = .failure(.serverExited)
            waiter.done.signal()
        }
    }
}
