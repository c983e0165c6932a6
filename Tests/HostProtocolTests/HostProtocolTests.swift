import CellSource
import HostProtocol
import JSONCore
import SystemSupport
import Testing

/// Commands, events and their framing: what the kernel and the cell host exchange.
@Suite struct HostProtocolTests {
    static let commands: [HostCommand] = [
        .load(library: "/tmp/w/libCell1.so"), .run(cell: 7, library: "/tmp/w/libCell7.so", symbol: "benchbook_cell7_main"),
        .inputReply(.value("typed ✓")), .inputReply(.notAllowed), .inputReply(.interrupted), .sync(id: 3),
        .comm(CommTraffic(.open, commID: "c1", targetName: "jupyter.widget", data: ["state": ["value": 3]],
                          metadata: ["version": "2.1.0"], buffers: [[], [0], [0, 255, 1], Array(0...255)]),
              dispatch: 12, requestID: "req-1"),
        .comm(CommTraffic(.close, commID: "c1"), dispatch: 13, requestID: ""),
    ]

    static let events: [HostEvent] = [
        .display(.init(data: ["text/plain": "x", "image/png": "AAAA"], metadata: ["image/png": ["width": 2]],
                       displayID: "id-1", isUpdate: false)),
        .display(.init(data: ["text/plain": "y"], metadata: [:], displayID: "id-1", isUpdate: true)),
        .result(data: ["text/plain": "42"], metadata: [:]), .clearOutput(wait: true),
        .inputRequest(prompt: "Name?", password: true), .finished(bound: 2, error: nil),
        .finished(bound: 0, error: .init(typeName: "Failure", description: "bad")),
        .done(.returned(1)), .done(.couldNotRun("undefined symbol: x")),
        .loadFailed(library: "/tmp/libCell2.so", message: "no such file"), .synced(id: 9),
        .comm(CommTraffic(.message, commID: "c2", data: ["method": "update"], buffers: [[1, 2, 3, 4, 5]])),
        .snapshotFailed(afterCell: 3, reason: "fork failed: Resource temporarily unavailable"),
    ]

    @Test func commBuffersAreStandardBase64InTheFrame() throws {
        let event = HostEvent.comm(CommTraffic(.message, commID: "c", buffers: [Array("Man".utf8), Array("Ma".utf8), [0xFB, 0xFF]]))
        #expect(event.json["buffers"] == ["TWFu", "TWE=", "+/8="])
        var damaged = event.json.objectValue!
        damaged["buffers"] = ["TW=u"]
        #expect(throws: FramingError.self) { try HostEvent(json: .object(damaged)) }
    }

    @Test(arguments: commands)
    func commandsSurviveTheirFrame(command: HostCommand) throws {
        var decoder = Framing.Decoder()
        let payloads = try decoder.append(command.frame)
        #expect(payloads.count == 1)
        #expect(try HostCommand(payload: payloads[0]) == command)
    }

    @Test(arguments: events)
    func eventsSurviveTheirFrame(event: HostEvent) throws {
        var decoder = Framing.Decoder()
        let payloads = try decoder.append(event.frame)
        #expect(try HostEvent(payload: payloads[0]) == event)
    }

    @Test func framesSplitAnywhereAreReassembledInOrder() throws {
        let stream = Self.events.flatMap(\.frame)
        for chunkSize in [1, 3, 7, 64, stream.count] {
            var decoder = Framing.Decoder()
            var decoded: [HostEvent] = []
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + chunkSize)
                decoded += try decoder.append(stream[offset..<end]).map { try HostEvent(payload: $0) }
                offset = end
            }
            #expect(decoded == Self.events, "chunks of \(chunkSize) bytes")
            #expect(!decoder.hasPartialFrame)
        }
    }

    @Test func anOversizedFrameIsRefused() {
        var decoder = Framing.Decoder()
        #expect(throws: FramingError.tooLong(Int(UInt32.max))) { try decoder.append([0xFF, 0xFF, 0xFF, 0xFF, 0]) }
    }

    @Test func unknownMessagesAreErrorsNotCrashes() {
        #expect(throws: FramingError.self) { try HostEvent(json: ["event": "teleport"]) }
        #expect(throws: FramingError.self) { try HostCommand(json: ["command": "run", "cell": "x"]) }
        #expect(throws: (any Error).self) { try HostEvent(payload: Array("not json".utf8)) }
    }

    @Test func framesAreReadExactlyFromAPipe() throws {
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close() }
        try pipe.write.write(all: HostCommand.sync(id: 1).frame + HostCommand.sync(id: 2).frame + [9, 0])
        pipe.write.close()
        #expect(try Framing.readFrame(from: pipe.read).map { try HostCommand(payload: $0) } == .sync(id: 1))
        #expect(try Framing.readFrame(from: pipe.read).map { try HostCommand(payload: $0) } == .sync(id: 2))
        #expect(throws: FramingError.truncated) { try Framing.readFrame(from: pipe.read) }
    }
}

/// The cell parser's guard against pathological nesting.
@Suite struct NestingScanTests {
    @Test func bracketsInCodeAreCounted() {
        let scan = NestingScan("let a = [[1], [2, [3]]]\nf(g({ x in (x) }))")
        #expect(scan.deepest == 4)
        #expect(scan.deepestSquare == 3)
        #expect(scan.refusal == nil)
    }

    @Test func commentsAndStringsAreSkipped() {
        let scan = NestingScan(#"""
        // ((((((((
        /* [[[[ /* nested ]]]] */ (((( */
        let s = "((((\"[[[["
        let t = "\(f(x)) ["
        """#)
        #expect(scan.deepest == 2, "only the interpolation's f( ) nests, inside \\( )")
    }

    @Test func pathologicalNestingIsRefusedWithTheNumbers() throws {
        let text = "let x = " + String(repeating: "(", count: 5000) + String(repeating: ")", count: 5000)
        let refusal = try #require(NestingScan(text).refusal)
        #expect(refusal.contains("5000 levels"))
        #expect(refusal.contains("at most \(NestingScan.limit)"))
    }
}
