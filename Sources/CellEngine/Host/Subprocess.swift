import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a tool (the compiler, the linker) with `posix_spawn` and collects its output.
///
/// Foundation's `Process` costs tens of milliseconds a launch on Linux; a cell runs three
/// tools, so the engine spawns them itself. Thread rules: `run` blocks its caller;
/// `terminate` may be called from any thread.
final class Subprocess: @unchecked Sendable {
    private let lock = NSLock()
    private var pid: pid_t = 0
    private var terminated = false

    enum Outcome: Equatable {
        case exited(status: Int32, output: String)
        case signalled
    }

    /// Runs `tool` with `arguments` (absolute paths; `directory` is for messages only),
    /// standard output and error together.
    /// - Throws: ``EngineError/hostStartFailed(_:)`` when the tool cannot be started.
    func run(_ tool: URL, _ arguments: [String], in directory: URL) throws -> Outcome {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw EngineError.toolFailed("pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var cArguments: [UnsafeMutablePointer<CChar>?] = ([tool.path] + arguments).map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        lock.lock()
        let result = terminated ? ECANCELED : posix_spawn(&child, tool.path, &actions, nil, &cArguments, environ)
        if result == 0 { pid = child }
        lock.unlock()
        close(fds[1])
        guard result == 0 else {
            close(fds[0])
            if result == ECANCELED { return .signalled }
            throw EngineError.toolFailed("\(tool.path): \(String(cString: strerror(result)))")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count > 0 { output += buffer[0..<count]; continue }
            if count < 0, errno == EINTR { continue }
            break
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        lock.lock()
        pid = 0
        lock.unlock()
        if status & 0x7f != 0 { return .signalled }
        return .exited(status: (status >> 8) & 0xff, output: String(decoding: output, as: UTF8.self))
    }

    /// Stops the running tool, and any later one started through this object.
    func terminate() {
        lock.lock()
        defer { lock.unlock() }
        terminated = true
        if pid != 0 { kill(pid, SIGTERM) }
    }
}
