import Foundation
@testable import SystemSupport
import XCTest

final class InheritedListenersTests: XCTestCase {
    /// A listening TCP socket on a free loopback port, as the launcher leaves it (no
    /// close-on-exec), and its port.
    private func listeningSocket() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThan(fd, 2)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        XCTAssertTrue(bound)
        XCTAssertEqual(listen(fd, 8), 0)
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    func testListeningSocketsAreTakenOnceAndMadeCloseOnExec() throws {
        let (fd, port) = try listeningSocket()
        defer { close(fd) }
        let file = open("/dev/null", O_RDONLY)
        defer { close(file) }
        // The socket is taken; a file, a socket named with the wrong port and garbage are not.
        setenv(InheritedListeners.environmentName, "\(port):\(fd),\(port + 1):\(fd),7:\(file),x:y,9", 1)
        XCTAssertEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0)
        XCTAssertEqual(InheritedListeners.take(), [port: fd])
        XCTAssertNil(getenv(InheritedListeners.environmentName), "children must not see the variable")
        XCTAssertNotEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0)
        XCTAssertNotEqual(fcntl(fd, F_GETFL) & O_NONBLOCK, 0)
        XCTAssertEqual(InheritedListeners.take(), [:], "taken once")
    }
}
