@testable import CellEngine
import Glibc
import SystemSupport
import Testing

/// The record of what the ready host has loaded: a map read per cell only when needed.
@Suite struct HostLibrariesTests {
    let host1 = HostID(rawValue: 1), host2 = HostID(rawValue: 2)

    /// A process map that grows as the test says, and counts how often it is read.
    final class FakeMaps {
        var libraries: [Int32: Set<String>] = [:]
        var reads: [Int32] = []
        func read(_ pid: Int32) -> Set<String> {
            reads.append(pid)
            return libraries[pid] ?? []
        }
    }

    @Test func aLibrarySeenOnceIsNotReadForAgain() {
        let maps = FakeMaps()
        maps.libraries[100] = ["libswiftCore.so", "libc.so.6", "libCell1.so"]
        let record = HostLibraries(readMap: maps.read)
        record.beginCell(host: (host1, 100))
        #expect(record.contains(library: "swiftCore"))
        #expect(record.contains(library: "c"), "a versioned file name counts")
        #expect(maps.reads == [100])
        record.beginCell(host: (host1, 100))
        #expect(record.contains(library: "swiftCore"))
        #expect(record.contains(library: "Cell1"))
        #expect(maps.reads == [100], "every answer came from the first read")
    }

    @Test func aLibraryNotSeenIsReadForOncePerCell() {
        let maps = FakeMaps()
        maps.libraries[100] = ["libswiftCore.so"]
        let record = HostLibraries(readMap: maps.read)
        record.beginCell(host: (host1, 100))
        #expect(!record.contains(library: "Cell1"))
        #expect(!record.contains(library: "Cell1"))
        #expect(!record.contains(library: "zmq"))
        #expect(maps.reads == [100], "one read for the cell, however many questions miss")
        // The cell ran; the host opened its library.
        maps.libraries[100]!.insert("libCell1.so")
        record.beginCell(host: (host1, 100))
        #expect(record.contains(library: "Cell1"))
        #expect(record.contains(library: "swiftCore"))
        #expect(maps.reads == [100, 100])
    }

    @Test func anotherHostStartsFromNothing() {
        let maps = FakeMaps()
        maps.libraries[100] = ["libswiftCore.so", "libCell1.so", "libCell2.so"]
        maps.libraries[200] = ["libswiftCore.so", "libCell1.so"]
        let record = HostLibraries(readMap: maps.read)
        record.beginCell(host: (host1, 100))
        #expect(record.contains(library: "Cell2"))
        // The host died; the snapshot taken before cell 2 became the host.
        record.beginCell(host: (host2, 200))
        #expect(!record.contains(library: "Cell2"), "what the old host had is forgotten")
        #expect(record.contains(library: "Cell1"))
        #expect(maps.reads == [100, 200])
    }

    @Test func noReadyHostHasNothingLoaded() {
        let maps = FakeMaps()
        maps.libraries[100] = ["libswiftCore.so"]
        let record = HostLibraries(readMap: maps.read)
        record.beginCell(host: (host1, 100))
        #expect(record.contains(library: "swiftCore"))
        record.beginCell(host: nil)
        #expect(!record.contains(library: "swiftCore"))
        #expect(maps.reads == [100])
    }

    @Test func thisProcessMapAnswersThroughTheDefaultReader() {
        let record = HostLibraries()
        record.beginCell(host: (host1, getpid()))
        #expect(record.contains(library: "swiftCore"))
        #expect(!record.contains(library: "benchbook-not-a-library"))
    }
}
