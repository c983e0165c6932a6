import Foundation
internal import HostProtocol

/// Loads the runtimes the course's models need (libtorch, LiteRT) on a background thread
/// once the cell host is ready, so the first `Model(contentsOf:)` of a lesson takes what
/// the second does instead of paying for loading them.
///
/// The work is the notebook library's ``HostChannel/preloadSymbol`` function (in
/// BenchbookModels), found in the loaded library; the host starts it before it reads its
/// first command. A fork while it runs could leave the child with a lock the loading
/// thread held (the dynamic loader's), so everything that forks the host waits for it
/// first: the host's snapshots and the model-file checks (``waitUntilDone()``). A cell
/// that needs a runtime meanwhile waits for that runtime only (each opens once).
/// `BENCHBOOK_PRELOAD=0` in the kernel's environment turns it off, to measure what it costs.
///
/// Thread rules: ``start()`` once, from the host's serving thread; ``waitUntilDone()``
/// from any thread.
public enum RuntimePreload {
    private static let condition = NSCondition()
    nonisolated(unsafe) private static var running = false

    /// Starts loading in the background (nothing when turned off or when the library has
    /// no loader).
    static func start() {
        guard ProcessInfo.processInfo.environment["BENCHBOOK_PRELOAD"] != "0",
              let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), HostChannel.preloadSymbol) else { return }
        typealias Preload = @convention(c) () -> Void
        let preload = unsafeBitCast(address, to: Preload.self)
        condition.lock()
        running = true
        condition.unlock()
        let thread = Thread {
            preload()
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "benchbook-preload"
        thread.start()
    }

    /// Returns once the background loading has finished (at once when none runs). Call it
    /// before forking the host.
    public static func waitUntilDone() {
        condition.lock()
        while running { condition.wait() }
        condition.unlock()
    }
}
