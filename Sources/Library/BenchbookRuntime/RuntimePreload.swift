import BenchbookSettings
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
///
/// What it does is ``Level``, from `BENCHBOOK_PRELOAD` in the kernel's environment: unset
/// (or `1`), open the runtimes and warm libtorch up on a small network; `libraries`, only
/// open them; `0`, nothing (both to measure what the preload costs and saves).
///
/// Thread rules: ``start()`` once, from the host's serving thread; ``waitUntilDone()``
/// from any thread.
public enum RuntimePreload {
    private static let condition = NSCondition()
    nonisolated(unsafe) private static var running = false

    /// How much the preload does.
    public enum Level: Equatable {
        /// Nothing: every runtime loads when a model first needs it.
        case off
        /// Opens libtorch and LiteRT (their libraries mapped, relocated and initialised).
        case libraries
        /// Opens them and does libtorch's one-time work of a first load and run.
        case warmUp

        /// The level `BENCHBOOK_PRELOAD` asks for (``LibrarySettings/preload``).
        /// - Parameter setting: the setting.
        public init(_ setting: LibrarySettings.Preload) {
            switch setting {
            case .off: self = .off
            case .libraries: self = .libraries
            case .warmUp: self = .warmUp
            }
        }
    }

    /// Starts loading in the background (nothing when turned off or when the library has
    /// no loader).
    package static func start() {
        let level = Level(LibrarySettings.current.preload)
        guard level != .off,
              let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), HostChannel.preloadSymbol) else { return }
        typealias Preload = @convention(c) (Int32) -> Void
        let preload = unsafeBitCast(address, to: Preload.self)
        let warmUp: Int32 = level == .warmUp ? 1 : 0
        condition.lock()
        running = true
        condition.unlock()
        let thread = Thread {
            preload(warmUp)
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
