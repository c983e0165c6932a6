@testable import CellEngine
import Foundation
import XCTest

final class WorkDirectoryTests: XCTestCase {
    var parent: URL!

    override func setUpWithError() throws {
        parent = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-workdir-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: parent) }

    func mode(_ url: URL) -> mode_t {
        var info = stat()
        stat(url.path, &info)
        return info.st_mode & 0o777
    }

    /// A pid that belonged to a process that has exited (and been reaped).
    func deadPID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    func testANewDirectoryIsPrivateNamedByPidAndRemovable() throws {
        let directory = try WorkDirectory(in: parent)
        XCTAssertEqual(mode(directory.url), 0o700)
        XCTAssertEqual(WorkDirectory.ownerPID(ofDirectoryNamed: directory.url.lastPathComponent), getpid())
        try Data("x".utf8).write(to: directory.url.appendingPathComponent("Cell1.swift"))
        directory.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url.path))
        directory.remove()   // twice is fine
    }

    func testTheSweepRemovesOnlyDirectoriesOfGoneKernels() throws {
        let dead = try deadPID()
        let fm = FileManager.default
        let gone = parent.appendingPathComponent("benchbook-\(dead)-AB12cd34")
        let alive = parent.appendingPathComponent("benchbook-\(getppid())-Zz9")
        let notOurs = parent.appendingPathComponent("benchbook-charts-actual")
        let aFile = parent.appendingPathComponent("benchbook-\(dead)-file")
        let link = parent.appendingPathComponent("benchbook-\(dead)-link")
        for directory in [gone, alive, notOurs] { try fm.createDirectory(at: directory, withIntermediateDirectories: true) }
        try Data("cell".utf8).write(to: gone.appendingPathComponent("Cell1.swift"))
        try Data().write(to: aFile)
        try fm.createSymbolicLink(at: link, withDestinationURL: notOurs)
        let mine = try WorkDirectory(in: parent)

        let swept = WorkDirectory.sweepStale(in: parent)
        XCTAssertEqual(swept.map(\.lastPathComponent), [gone.lastPathComponent])
        XCTAssertFalse(fm.fileExists(atPath: gone.path))
        for kept in [alive, notOurs, aFile, link, mine.url] {
            XCTAssertNotNil(try? fm.attributesOfItem(atPath: kept.path), "\(kept.lastPathComponent) was removed")
        }
    }

    func testALockedDirectoryIsKeptEvenWhenItsPidLooksGone() throws {
        // A kernel in another pid namespace: its pid means nothing here, its lock does.
        let directory = try WorkDirectory(in: parent)
        let renamed = parent.appendingPathComponent("benchbook-\(try deadPID())-Locked1")
        try FileManager.default.moveItem(at: directory.url, to: renamed)
        XCTAssertEqual(WorkDirectory.sweepStale(in: parent), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: renamed.path))
    }

    func testNames() {
        XCTAssertEqual(WorkDirectory.ownerPID(ofDirectoryNamed: "benchbook-123-AbC9x"), 123)
        for name in ["benchbook-123", "benchbook-123-", "benchbook-x1-abc", "benchbook-123-ab-cd", "benchbook-123-ab.c",
                     "benchbook-0-abc", "other-123-abc", "benchbook--1-abc"] {
            XCTAssertNil(WorkDirectory.ownerPID(ofDirectoryNamed: name), name)
        }
    }
}
