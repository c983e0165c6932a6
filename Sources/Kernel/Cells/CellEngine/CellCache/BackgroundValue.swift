import Foundation

/// A value computed once on a thread of its own, started at once and waited for where it
/// is first needed (the linker's command and the cache's identity, while the kernel starts).
///
/// Thread rules: `value` may be read from any thread; it blocks until the value is ready.
final class BackgroundValue<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Value?

    /// Starts computing.
    /// - Parameters:
    ///   - name: the thread's name.
    ///   - compute: makes the value.
    init(name: String, _ compute: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let made = compute()
            condition.lock()
            result = made
            condition.broadcast()
            condition.unlock()
        }
        thread.name = name
        thread.start()
    }

    /// The value, once computed.
    var value: Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}
