import Foundation
import Synchronization
@testable import SystemSupport
import XCTest

extension FileDescriptor {
    /// True when the descriptor's close-on-exec flag is set, as `fcntl` reports it.
    var closesOnExec: Bool { fcntl(rawValue, F_GETFD) & FD_CLOEXEC != 0 }
}

/// The pipe, read, write and poll loops every helper process is spoken to through.
final class FileDescriptorTests: XCTestCase {
    func testBytesWrittenToAPipeAreReadBack() throws {
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close() }
        try pipe.write.write(all: [1, 2, 3])
        try pipe.write.write(all: [4, 5])
        XCTAssertEqual(try pipe.read.read(exactly: 4), [1, 2, 3, 4], "two writes, one read")
        XCTAssertEqual(try pipe.read.read(upTo: 8), .bytes([5]), "a read returns what is there")
        try pipe.write.write(all: Array(10...19))
        XCTAssertEqual(try pipe.read.read(upTo: 3), .bytes([10, 11, 12]), "never more than asked")
        XCTAssertEqual(try pipe.read.read(exactly: 0), [])
        pipe.write.close()
        XCTAssertEqual(try pipe.read.read(exactly: 10), Array(13...19), "short: the writer closed after some bytes")
        XCTAssertNil(try pipe.read.read(exactly: 1), "nil: the writer closed before the first byte")
        XCTAssertEqual(try pipe.read.read(), .endOfFile)
    }

    func testANonBlockingReadOfAnEmptyPipeWouldBlock() throws {
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close() }
        XCTAssertEqual(fcntl(pipe.read.rawValue, F_GETFL) & O_NONBLOCK, 0)
        pipe.read.setNonBlocking()
        XCTAssertNotEqual(fcntl(pipe.read.rawValue, F_GETFL) & O_NONBLOCK, 0)
        XCTAssertEqual(try pipe.read.read(), .wouldBlock)
        try pipe.write.write(all: Array("ok".utf8))
        XCTAssertEqual(try pipe.read.read(), .bytes(Array("ok".utf8)))
        XCTAssertEqual(try pipe.read.read(), .wouldBlock)
        pipe.write.close()
        XCTAssertEqual(try pipe.read.read(), .endOfFile, "end of file, not wouldBlock, once the writer is gone")
    }

    func testPollReturnsTheReadyDescriptorsInTheOrderGiven() throws {
        let first = try FileDescriptor.pipe()
        let second = try FileDescriptor.pipe()
        defer { [first.read, first.write, second.read, second.write].forEach { $0.close() } }
        XCTAssertEqual(try FileDescriptor.poll([first.read, second.read], timeout: 0), [])
        XCTAssertEqual(try FileDescriptor.poll([first.read], timeout: 20), [], "empty on timeout")
        try second.write.write(all: [1])
        XCTAssertEqual(try FileDescriptor.poll([first.read, second.read], timeout: 0), [second.read])
        try first.write.write(all: [2])
        XCTAssertEqual(try FileDescriptor.poll([second.read, first.read], timeout: 0), [second.read, first.read])
        XCTAssertEqual(try FileDescriptor.poll([first.write, first.read], events: Int16(POLLOUT), timeout: 0),
                       [first.write], "a pipe with room is writable; its read end never is")
    }

    func testPollWakesWhenTheWriterClosesFromAnotherThread() throws {
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close() }
        Thread { pipe.write.close() }.start()
        // A minute is the hang guard: the close takes microseconds.
        XCTAssertEqual(try FileDescriptor.poll([pipe.read], timeout: 60_000), [pipe.read])
        XCTAssertEqual(try pipe.read.read(), .endOfFile)
    }

    func testDescriptorsItCreatesCloseOnExec() throws {
        let pipe = try FileDescriptor.pipe()
        let null = try FileDescriptor.openNull()
        let file = try FileDescriptor.open("/proc/self/stat")
        let copy = try null.duplicate(atLeast: 100)
        defer { [pipe.read, pipe.write, null, file, copy].forEach { $0.close() } }
        XCTAssertGreaterThanOrEqual(copy.rawValue, 100)
        for descriptor in [pipe.read, pipe.write, null, file, copy] {
            XCTAssertTrue(descriptor.closesOnExec, "descriptor \(descriptor.rawValue)")
        }

        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(Glibc.pipe(&ends), 0)
        let plain = FileDescriptor(rawValue: ends[0])
        defer { ends.forEach { _ = Glibc.close($0) } }
        XCTAssertFalse(plain.closesOnExec)
        plain.setCloseOnExec()
        XCTAssertTrue(plain.closesOnExec)
        XCTAssertEqual(fcntl(plain.rawValue, F_GETFL) & O_NONBLOCK, 0, "only the descriptor flag changes")
    }

    func testOpenReadsAFileAndNullSwallowsWrites() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-fd-\(getpid()).txt")
        try Data("line one\nline two\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try FileDescriptor.open(url.path)
        defer { file.close() }
        XCTAssertEqual(String(decoding: try file.readToEnd(), as: UTF8.self), "line one\nline two\n")

        let null = try FileDescriptor.openNull()
        defer { null.close() }
        try null.write(all: [1, 2, 3])
        XCTAssertEqual(try null.read(), .endOfFile)

        XCTAssertThrowsError(try FileDescriptor.open("/nonexistent/benchbook")) { error in
            XCTAssertEqual((error as? SystemError)?.code, ENOENT)
            XCTAssertEqual((error as? SystemError)?.operation, "open /nonexistent/benchbook")
        }
    }

    /// A megabyte is sixteen times a pipe's default buffer (64 KiB): the writer must wait for
    /// the reader many times, blocked in `write` or, non-blocking, in `poll` after `EAGAIN`.
    func testWriteAllOfMoreThanAPipeBufferWhileAnotherThreadReads() throws {
        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        for nonBlocking in [false, true] {
            let pipe = try FileDescriptor.pipe()
            if nonBlocking {
                pipe.write.setNonBlocking()
                pipe.read.setNonBlocking()
            }
            let written = Mutex<Result<Void, SystemError>?>(nil)
            let received = Mutex<Result<[UInt8]?, SystemError>?>(nil)
            let group = DispatchGroup()
            group.enter()
            Thread {
                defer { group.leave() }
                written.withLock { $0 = Result { () throws(SystemError) in try pipe.write.write(all: payload) } }
                pipe.write.close()
            }.start()
            group.enter()
            Thread {
                defer { group.leave() }
                // Non-blocking, readToEnd polls after wouldBlock; read(exactly:) needs a blocking end
                // and stops short at the end of file.
                let result = Result { () throws(SystemError) -> [UInt8]? in
                    nonBlocking ? try pipe.read.readToEnd() : try pipe.read.read(exactly: payload.count + 1)
                }
                received.withLock { $0 = result }
            }.start()
            // Hang guard: the transfer takes milliseconds.
            guard group.wait(timeout: .now() + 60) == .success else {
                return XCTFail("the transfer did not finish in 60 s (nonBlocking: \(nonBlocking))")
            }
            pipe.read.close()
            XCTAssertNoThrow(try written.withLock { $0 }?.get(), "nonBlocking: \(nonBlocking)")
            let bytes = try XCTUnwrap(received.withLock { $0 }).get()
            XCTAssertEqual(bytes?.count, payload.count, "nonBlocking: \(nonBlocking)")
            XCTAssertTrue(bytes == payload, "the bytes arrive intact and in order (nonBlocking: \(nonBlocking))")
        }
    }
}
