import XCTest
@testable import SystemSupport

final class LoadedLibrariesTests: XCTestCase {
    func testNamesAreTheSharedObjectsOfAMap() {
        let map = """
        55d0c1a00000-55d0c1a02000 r--p 00000000 fe:01 1234  /usr/bin/benchbook-cell-host
        7f1c2a000000-7f1c2a021000 rw-p 00000000 00:00 0
        7f1c2b000000-7f1c2b028000 r--p 00000000 fe:01 2001  /usr/lib/x86_64-linux-gnu/libc.so.6
        7f1c2b028000-7f1c2b19d000 r-xp 00028000 fe:01 2001  /usr/lib/x86_64-linux-gnu/libc.so.6
        7f1c2c000000-7f1c2c010000 r-xp 00000000 fe:01 3001  /tmp/benchbook-7-x/libCell3.so
        7f1c2d000000-7f1c2d001000 r--p 00000000 fe:01 4001  /usr/share/locale/en/messages.mo
        7ffd1c000000-7ffd1c021000 rw-p 00000000 00:00 0     [stack]
        7ffd1c100000-7ffd1c102000 r-xp 00000000 00:00 0     [vdso]
        """
        XCTAssertEqual(LoadedLibraries.names(inMaps: Array(map.utf8)), ["libc.so.6", "libCell3.so"])
        XCTAssertEqual(LoadedLibraries.names(inMaps: []), [])
        XCTAssertEqual(LoadedLibraries.names(inMaps: Array("7f-7f r--p 0 00:00 0  /x/.so".utf8)), [".so"])
    }

    func testThisProcessHasTheSwiftRuntimeLoaded() {
        let names = LoadedLibraries.names(of: getpid())
        XCTAssertTrue(LoadedLibraries.contains(names, library: "swiftCore"), "\(names.sorted())")
        XCTAssertTrue(LoadedLibraries.contains(names, library: "c"))
        XCTAssertFalse(LoadedLibraries.contains(names, library: "benchbook-not-a-library"))
        XCTAssertEqual(LoadedLibraries.names(of: -1), [], "a process that does not exist has nothing loaded")
    }

    func testTheCLibraryVersionIsGlibcs() throws {
        let version = try XCTUnwrap(LoadedLibraries.cLibraryVersion)
        XCTAssertEqual(version.major, 2)
        XCTAssertGreaterThanOrEqual(version.minor, 17, "glibc 2.17 or later runs the Swift runtime")
    }
}
