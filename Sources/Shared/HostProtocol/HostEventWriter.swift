import SystemSupport
import Synchronization

/// Writes event frames to a descriptor from any thread; frames never interleave.
public final class HostEventWriter: Sendable {
    private let descriptor: Mutex<FileDescriptor>

    /// Writes to `descriptor` (the host's event pipe).
    public init(descriptor: FileDescriptor) { self.descriptor = Mutex(descriptor) }

    /// Writes one event.
    /// - Throws: ``SystemError`` when the kernel's end is gone.
    public func send(_ event: HostEvent) throws(SystemError) {
        let frame = event.frame
        try descriptor.withLock { (fd) throws(SystemError) in try fd.write(all: frame) }
    }
}
