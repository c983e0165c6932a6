/// Frames on the pipes between the kernel and its helper processes: a 4-byte
/// little-endian length, then that many bytes of JSON text.
///
/// Used in both directions between the kernel and the cell host, and between the kernel
/// and its helper processes (``HelperProcess``, ``HelperService``). A length is read
/// exactly, so a reader never consumes a byte of the next frame.
public enum Framing {
    /// The largest frame accepted (a display of a big image is a few megabytes).
    public static let maximumLength = 1 << 30

    /// A frame around `payload`.
    public static func frame<Bytes: Collection<UInt8>>(_ payload: Bytes) -> [UInt8] {
        let length = UInt32(payload.count)
        var frame: [UInt8] = [UInt8(truncatingIfNeeded: length), UInt8(truncatingIfNeeded: length >> 8),
                              UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 24)]
        frame.reserveCapacity(4 + payload.count)
        frame += payload
        return frame
    }

    /// Reads one frame, blocking until it is complete.
    /// - Parameter descriptor: the pipe to read.
    /// - Returns: the payload, or nil when the writer closed the pipe between frames.
    /// - Throws: ``FramingError`` for a pipe that closes inside a frame or a frame longer
    ///   than ``maximumLength``; ``SystemError`` for a failed read.
    public static func readFrame(from descriptor: FileDescriptor) throws -> [UInt8]? {
        guard let header = try descriptor.read(exactly: 4) else { return nil }
        guard header.count == 4 else { throw FramingError.truncated }
        let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        guard length <= maximumLength else { throw FramingError.tooLong(length) }
        if length == 0 { return [] }
        guard let payload = try descriptor.read(exactly: length), payload.count == length else { throw FramingError.truncated }
        return payload
    }

    /// Splits a byte stream into frames as its bytes arrive (for non-blocking readers).
    public struct Decoder: Sendable {
        private var buffer: [UInt8] = []
        private var start = 0

        /// Creates an empty decoder.
        public init() {}

        /// Adds bytes and returns the payloads of the frames they complete.
        /// - Throws: ``FramingError/tooLong(_:)``; the stream cannot be read further.
        public mutating func append<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(FramingError) -> [[UInt8]] {
            buffer += bytes
            var payloads: [[UInt8]] = []
            while buffer.count - start >= 4 {
                let length = Int(buffer[start]) | Int(buffer[start + 1]) << 8
                    | Int(buffer[start + 2]) << 16 | Int(buffer[start + 3]) << 24
                guard length <= Framing.maximumLength else { throw .tooLong(length) }
                guard buffer.count - start >= 4 + length else { break }
                payloads.append(Array(buffer[(start + 4)..<(start + 4 + length)]))
                start += 4 + length
            }
            if start > 0, start * 2 >= buffer.count {
                buffer.removeFirst(start)
                start = 0
            }
            return payloads
        }

        /// True when bytes of an unfinished frame are held.
        public var hasPartialFrame: Bool { buffer.count > start }
    }
}

/// A frame stream that cannot be read.
public enum FramingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A frame announced more than ``Framing/maximumLength`` bytes.
    case tooLong(Int)
    /// The pipe closed in the middle of a frame.
    case truncated
    /// A frame's payload did not describe a known message.
    case unknownMessage(String)

    public var description: String {
        switch self {
        case .tooLong(let length): "a frame of \(length) bytes is longer than the \(Framing.maximumLength) allowed"
        case .truncated: "the pipe closed in the middle of a frame"
        case .unknownMessage(let text): "an unknown message: \(text.prefix(200))"
        }
    }
}
