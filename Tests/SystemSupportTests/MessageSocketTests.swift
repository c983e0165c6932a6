import Foundation
@testable import SystemSupport
import XCTest

/// The socket a cell-host snapshot and the kernel talk through, and that hands a snapshot
/// its new pipes.
final class MessageSocketTests: XCTestCase {
    /// Receives one message once the socket is readable; fails instead of hanging when
    /// nothing arrives within a minute (messages here are sent before they are received).
    private func receive(_ socket: MessageSocket, file: StaticString = #filePath,
                         line: UInt = #line) throws -> MessageSocket.Message? {
        let ready = try FileDescriptor.poll([socket.descriptor], timeout: 60_000)
        XCTAssertEqual(ready, [socket.descriptor], "hang guard: nothing arrived in 60 s", file: file, line: line)
        guard !ready.isEmpty else { throw SystemError("poll", code: ETIMEDOUT) }
        return try socket.receive()
    }

    /// The inode of the object behind a descriptor (both ends of a pipe share one).
    private func inode(_ descriptor: FileDescriptor) -> UInt {
        var status = stat()
        XCTAssertEqual(fstat(descriptor.rawValue, &status), 0)
        return UInt(status.st_ino)
    }

    func testMessagesKeepTheirBoundariesBothWays() throws {
        let (left, right) = try MessageSocket.pair()
        defer { [left, right].forEach { $0.descriptor.close() } }
        XCTAssertTrue(left.descriptor.closesOnExec)
        XCTAssertTrue(right.descriptor.closesOnExec)
        let texts = ["one", "two", String(repeating: "long ", count: 2000), "three"]
        for text in texts { try left.send(Array(text.utf8)) }
        for text in texts {
            let message = try XCTUnwrap(receive(right))
            XCTAssertEqual(String(decoding: message.bytes, as: UTF8.self), text)
            XCTAssertEqual(message.descriptors, [])
        }
        try right.send([42])
        XCTAssertEqual(try receive(left)?.bytes, [42])
    }

    func testASentPipeEndIsTheSamePipeAtTheReceiver() throws {
        let (sender, receiver) = try MessageSocket.pair()
        defer { [sender, receiver].forEach { $0.descriptor.close() } }
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close() }
        try sender.send(Array("your output".utf8), descriptors: [pipe.write])
        // From here the descriptor in the message is the pipe's only write end.
        pipe.write.close()

        let message = try XCTUnwrap(receive(receiver))
        XCTAssertEqual(String(decoding: message.bytes, as: UTF8.self), "your output")
        XCTAssertEqual(message.descriptors.count, 1)
        let received = try XCTUnwrap(message.descriptors.first)
        XCTAssertTrue(received.closesOnExec)
        XCTAssertEqual(inode(received), inode(pipe.read))
        try received.write(all: Array("written through the copy".utf8))
        received.close()
        // The end of file proves no other write end was left open.
        XCTAssertEqual(String(decoding: try pipe.read.readToEnd(), as: UTF8.self), "written through the copy")
    }

    func testSeveralDescriptorsArriveInTheOrderSent() throws {
        let (sender, receiver) = try MessageSocket.pair()
        defer { [sender, receiver].forEach { $0.descriptor.close() } }
        let pipes = try (0..<3).map { _ in try FileDescriptor.pipe() }
        defer { pipes.forEach { $0.read.close() } }
        try sender.send([], descriptors: pipes.map(\.write))
        pipes.forEach { $0.write.close() }

        let message = try XCTUnwrap(receive(receiver), "a message of descriptors alone is not the end")
        XCTAssertEqual(message.bytes, [])
        XCTAssertEqual(message.descriptors.count, pipes.count)
        for (index, (descriptor, pipe)) in zip(message.descriptors, pipes).enumerated() {
            try descriptor.write(all: [UInt8(index)])
            descriptor.close()
            XCTAssertEqual(try pipe.read.readToEnd(), [UInt8(index)], "descriptor \(index)")
        }
    }

    func testTheEndIsSeenAfterTheQueuedMessages() throws {
        let (left, right) = try MessageSocket.pair()
        defer { left.descriptor.close() }
        try right.send([1])
        try right.send([2, 2])
        right.descriptor.close()
        XCTAssertEqual(try receive(left)?.bytes, [1])
        XCTAssertEqual(try receive(left)?.bytes, [2, 2])
        XCTAssertNil(try receive(left), "nil once the peer closed")
        XCTAssertThrowsError(try left.send([3])) { error in
            XCTAssertEqual((error as? SystemError)?.code, EPIPE, "an error, not SIGPIPE")
        }
    }

    func testATooLongMessageIsRefusedWholeAndItsDescriptorsClosed() throws {
        let (left, right) = try MessageSocket.pair()
        defer { [left, right].forEach { $0.descriptor.close() } }
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close() }
        try left.send(Array(repeating: 7, count: 300), descriptors: [pipe.write])
        pipe.write.close()
        _ = try FileDescriptor.poll([right.descriptor], timeout: 60_000)
        XCTAssertThrowsError(try right.receive(capacity: 256)) { error in
            XCTAssertEqual((error as? SystemError)?.code, EMSGSIZE, "a cut message is not delivered as if whole")
        }
        // The descriptor that came with it was closed: the pipe has no writer left.
        XCTAssertEqual(try pipe.read.read(), .endOfFile)
        // The socket still works.
        try left.send([1, 2, 3])
        XCTAssertEqual(try receive(right)?.bytes, [1, 2, 3])
    }

    func testMoreThanSixteenDescriptorsAreAnErrorNotADrop() throws {
        let (left, right) = try MessageSocket.pair()
        defer { [left, right].forEach { $0.descriptor.close() } }
        let pipes = try (0..<17).map { _ in try FileDescriptor.pipe() }
        defer { pipes.forEach { $0.read.close(); $0.write.close() } }
        XCTAssertThrowsError(try left.send([1], descriptors: pipes.map(\.write))) { error in
            XCTAssertEqual((error as? SystemError)?.code, EINVAL)
        }
    }
}
