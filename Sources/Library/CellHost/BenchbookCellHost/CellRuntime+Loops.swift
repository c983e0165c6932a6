internal import BenchbookRuntime
public import CCellHost

extension _BenchbookCell {
    /// True when the user interrupted the cell: one relaxed atomic load, inlined into the
    /// loop of cell code that reads it (see ``checkInterrupt()``), so the check costs about
    /// one predictable branch per iteration even in optimised cells.
    @inlinable public static var interruptRequested: Bool { bb_interrupt_requested() != 0 }

    /// The check at the top of each loop body in cell code where an error can propagate:
    /// one load of the flag, inlined; ``checkInterrupt()`` only when it is set.
    /// - Throws: ``InterruptedError``.
    @inlinable public static func pollInterrupt() throws {
        if interruptRequested { try checkInterrupt() }
    }

    /// The check at the top of each loop body in cell code that cannot throw: one load
    /// of the flag, inlined; ``stopIfInterrupted()`` only when it is set.
    @inlinable public static func pollInterruptOrStop() {
        if interruptRequested { stopIfInterrupted() }
    }

    /// The check the kernel puts at the top of each loop body in cell code where an error
    /// can propagate, behind ``interruptRequested``: stops the loop when the user
    /// interrupts, keeping every value.
    /// - Throws: ``InterruptedError``.
    public static func checkInterrupt() throws {
        if bb_interrupt_pending() != 0 {
            bb_clear_interrupt()
            throw InterruptedError(activity: "The loop")
        }
    }

    /// The check the kernel puts at the top of each loop body in cell code that cannot
    /// throw (a closure, a non-throwing function), behind ``interruptRequested``: stops the
    /// cell with a trap when the user interrupts; the kernel then restores the host as it
    /// was before the cell.
    public static func stopIfInterrupted() {
        if bb_interrupt_pending() != 0 {
            fatalError("Interrupted inside a function or closure that cannot throw, so the cell was stopped")
        }
    }
}
