import Foundation
import HostProtocol
import SystemSupport
import Testing

/// The serving loop inside a real `benchbook-cell-host`, started as the kernel starts one.
@Suite struct CellHostTests {
    /// The build directory with the host and libBenchbook.so.
    static var build: URL? {
        var url = Bundle.main.bundleURL
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("benchbook-cell-host").path) { return url }
            url = url.deletingLastPathComponent()
        }
        return nil
    }

    /// A host started the way the kernel starts one, with its pipes.
    struct Host {
        let process: ChildProcess
        let commands: FileDescriptor
        let events: FileDescriptor

        init(build: URL) throws {
            let commandPipe = try FileDescriptor.pipe(), eventPipe = try FileDescriptor.pipe()
            var environment = ProcessInfo.processInfo.environment
            environment[HostChannel.commandVariable] = "3"
            environment[HostChannel.eventVariable] = "4"
            process = try ChildProcess(.init(
                executable: build.appendingPathComponent("benchbook-cell-host").path,
                arguments: [build.appendingPathComponent("libBenchbook.so").path], environment: environment,
                descriptors: [3: commandPipe.read, 4: eventPipe.write]))
            commandPipe.read.close()
            eventPipe.write.close()
            commands = commandPipe.write
            events = eventPipe.read
        }

        func send(_ command: HostCommand) throws { try commands.write(all: command.frame) }

        func next() throws -> HostEvent? {
            try Framing.readFrame(from: events).map { try HostEvent(payload: $0) }
        }
    }

    @Test func theServingLoopAnswersEachCommandInOrder() throws {
        let build = try #require(Self.build, "build the products first (swift build)")
        let host = try Host(build: build)
        try host.send(.load(library: "/nonexistent/libCell1.so"))
        try host.send(.run(cell: 2, library: "/nonexistent/libCell2.so", symbol: "benchbook_cell2_main"))
        try host.send(.run(cell: 3, library: build.appendingPathComponent("libBenchbook.so").path, symbol: "no_such_entry"))
        try host.send(.sync(id: 41))
        guard case .loadFailed(let library, let message)? = try host.next() else { Issue.record("no load failure"); return }
        #expect(library == "/nonexistent/libCell1.so")
        #expect(message.contains("No such file"))
        // This host has no snapshot channel: after each run it says so, before the run's
        // answer (as a cell says at once that no snapshot was kept).
        let noChannel = HostEvent.snapshotFailed(afterCell: 2, reason: "the host's snapshot channel (descriptor 5) was closed")
        #expect(try host.next() == noChannel)
        guard case .done(.couldNotRun)? = try host.next() else { Issue.record("run of a missing library"); return }
        guard case .snapshotFailed(afterCell: 3, _)? = try host.next() else { Issue.record("no snapshot failure"); return }
        guard case .done(.couldNotRun(let missing))? = try host.next() else { Issue.record("run of a missing symbol"); return }
        #expect(missing.contains("no_such_entry"))
        #expect(try host.next() == .synced(id: 41))
        guard case .snapshotFailed(afterCell: 3, _)? = try host.next() else { Issue.record("no snapshot failure"); return }
        host.commands.close()
        #expect(host.process.waitForExit() == .exited(code: 0), "the host ends when the kernel closes its pipe")
        #expect(try host.next() == nil)
        host.events.close()
    }

    @Test func aDamagedCommandStreamEndsTheHostWithAnError() throws {
        let build = try #require(Self.build, "build the products first (swift build)")
        let host = try Host(build: build)
        try host.commands.write(all: Framing.frame(Array("not a command".utf8)))
        #expect(host.process.waitForExit() == .exited(code: 3))
        host.commands.close()
        host.events.close()
    }
}
