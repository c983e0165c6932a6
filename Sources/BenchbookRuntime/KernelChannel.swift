import Foundation

/// The pipe from code running in a cell to the kernel.
///
/// The cell host passes two descriptors in the environment: `BENCHBOOK_EVENT_FD`, where
/// events (displays, results, errors, input requests) are written as frames of a 4-byte
/// little-endian length and a JSON object, and `BENCHBOOK_COMMAND_FD`, from which an
/// input reply is read as one line. Outside a kernel (tests, scripts) there is no
/// channel and displays fall back to printing `text/plain`.
///
/// Thread rules: `send` may be called from any thread; frames never interleave.
final class KernelChannel: @unchecked Sendable {
    static let shared = KernelChannel()

    private let eventDescriptor: Int32?
    private let commandDescriptor: Int32?
    private let lock = NSLock()

    private init() {
        let environment = ProcessInfo.processInfo.environment
        eventDescriptor = environment["BENCHBOOK_EVENT_FD"].flatMap { Int32($0) }
        commandDescriptor = environment["BENCHBOOK_COMMAND_FD"].flatMap { Int32($0) }
    }

    /// True when running inside a Benchbook cell host.
    var isConnected: Bool { eventDescriptor != nil }

    /// Writes one event. Standard output and error are flushed first, so the kernel
    /// sees text printed before a display ahead of the display.
    func send(_ event: [String: Any]) {
        guard let descriptor = eventDescriptor else { return }
        fflush(nil)
        guard let body = try? JSONSerialization.data(withJSONObject: event) else { return }
        var length = UInt32(body.count).littleEndian
        var frame = Data(bytes: &length, count: 4)
        frame.append(body)
        lock.lock()
        defer { lock.unlock() }
        frame.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Reads one line from the kernel (the answer to an input request).
    /// Returns nil when the kernel closed the pipe.
    func readLine() -> String? {
        guard let descriptor = commandDescriptor else { return nil }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

extension MimeBundle {
    /// The bundle as the `data` and `metadata` fields of a Jupyter display message.
    var messageFields: [String: Any] {
        var metadata: [String: Any] = [:]
        if let size = imageSize {
            metadata["image/png"] = ["width": size.width, "height": size.height]
        }
        return ["data": data, "metadata": metadata]
    }
}
