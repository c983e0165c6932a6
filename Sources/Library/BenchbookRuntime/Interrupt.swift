internal import CCellHost

/// Thrown by long-running library work when the user interrupts the cell.
public struct InterruptedError: Error, CustomStringConvertible {
    /// What was running when the interrupt arrived, for the message.
    public var activity: String

    /// Creates the error.
    /// - Parameter activity: what stopped, for example "benchmark of mobilenet_v2.pt".
    public init(activity: String) { self.activity = activity }

    public var description: String {
        "\(activity) stopped because the kernel was interrupted; everything defined so far is kept."
    }
}

/// The interrupt flag shared by the cell host and the notebook library.
///
/// The kernel answers `interrupt_request` by sending SIGINT to the cell host; the handler
/// only sets a flag. Loops in the library call ``check(_:)`` between units of work and stop
/// with ``InterruptedError``. A cell that never checks is stopped by the kernel after 2 s
/// by restarting the host.
public enum Interrupt {
    /// Installs the SIGINT handler (idempotent). The cell runtime calls it for each cell.
    public static func install() { bb_install_interrupt_handler() }

    /// True when an interrupt arrived and has not been handled yet.
    public static var isRequested: Bool { bb_interrupt_pending() != 0 }

    /// Forgets a pending interrupt.
    public static func clear() { bb_clear_interrupt() }

    /// Throws when an interrupt is pending, clearing it.
    /// - Parameter activity: what is running, named in the error message.
    /// - Throws: ``InterruptedError``.
    public static func check(_ activity: @autoclosure () -> String = "The cell") throws {
        if isRequested {
            clear()
            throw InterruptedError(activity: activity())
        }
    }
}

/// Peak resident memory of this process, in bytes.
public func peakResidentBytes() -> Int { Int(bb_peak_resident_bytes()) }

/// Hands the heap's free memory back to the system, so that the resident size counts only
/// memory in use (before measuring a memory footprint).
public func releaseFreeHeapMemory() { bb_release_free_heap_memory() }
