import Foundation
import JupyterWire
#if canImport(Glibc)
import Glibc
#endif

/// A language server child process spoken to with JSON-RPC over its standard input and
/// output (`Content-Length` framing, as the Language Server Protocol specifies).
///
/// Thread rules: one thread (the kernel's shell thread) sends requests and notifications
/// and waits for answers; a private reader thread parses the server's output and hands
/// each answer to the waiting request. The table of waiting requests is the only state
/// both threads touch, always under `lock`. A request that times out is removed from the
/// table, so its late answer is dropped. When the server exits, every waiting request
/// fails with ``CompletionError/serverExited`` and ``isAlive`` becomes false.
final class LSPConnection: @unchecked Sendable {
    /// One request waiting for its answer.
    private final class Waiter: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<JSONValue, CompletionError> = .failure(.serverExited)
    }

    private let pid: pid_t
    private let input: Int32
    private let output: Int32
    private let lock = NSLock()
    private var waiting: [String: Waiter] = [:]
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
        var toServer: [Int32] = [0, 0], fromServer: [Int32] = [0, 0]
        guard pipe(&toServer) == 0, pipe(&fromServer) == 0 else {
            throw .serverUnavailable("pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toServer[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromServer[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for fd in toServer + fromServer { posix_spawn_file_actions_addclose(&actions, fd) }
        var cArguments: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable.path, &actions, nil, &cArguments, environ)
        close(toServer[0])
        close(fromServer[1])
        guard status == 0 else {
            close(toServer[1])
            close(fromServer[0])
            throw .serverUnavailable("\(executable.path): \(String(cString: strerror(status)))")
        }
        // Writing to a server that has exited must fail with EPIPE, not end the kernel.
        signal(SIGPIPE, SIG_IGN)
        pid = child
        input = toServer[1]
        output = fromServer[0]
        _ = fcntl(input, F_SETFD, FD_CLOEXEC)
        _ = fcntl(output, F_SETFD, FD_CLOEXEC)
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
            waiting[id] = nil
            lock.unlock()
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
        close(input)
        kill(pid, SIGKILL)
    }

    // MARK: Wire

    private func send(_ message: JSONValue) {
        lock.lock()
        let writable = !inputClosed
        lock.unlock()
        guard writable, let body = try? JSONEncoder().encode(message) else { return }
        var frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        frame += body
        var offset = 0
        while offset < frame.count {
            let written = frame[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if written > 0 { offset += written; continue }
            if written < 0, errno == EINTR { continue }
            markClosed()
            return
        }
    }

    /// The reader thread: parses frames until the server closes its output.
    private func readUntilClosed() {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(output, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            buffer += chunk[0..<count]
            while let (body, used) = Self.frame(in: buffer) {
                buffer.removeFirst(used)
                if let message = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) { dispatch(message) }
            }
        }
        close(output)
        markClosed()
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
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
        lock.unlock()
        for waiter in pending.values {
            waiter.result = .failure(.serverExited)
            waiter.done.signal()
        }
    }
}
