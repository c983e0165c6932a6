@testable import BenchbookKernel
import Foundation
import JupyterWire
import Testing

/// The debug session's state machine: it moves only in the protocol's order.
@Suite struct DebugSessionTests {
    @Test func aSessionGoesInitialisedAttachedConfiguredDisconnected() throws {
        var session = DebugSession.notInitialized
        #expect(!session.isStarted)
        session.initialize()
        #expect(session == .initialized && session.isStarted)
        try session.attach()
        #expect(session == .attached(configured: false))
        try session.configurationDone()
        #expect(session == .attached(configured: true))
        session.disconnect()
        #expect(session == .disconnected && !session.isStarted)
        session.initialize()
        #expect(session == .initialized, "a new session starts after a disconnect")
    }

    @Test func requestsOutOfOrderThrowAndLeaveTheStateAlone() {
        var session = DebugSession.notInitialized
        #expect(throws: DebugSessionError.notStarted("attach")) { try session.attach() }
        #expect(throws: DebugSessionError.notAttached("configurationDone")) { try session.configurationDone() }
        #expect(throws: DebugSessionError.notStarted("dumpCell")) { try session.requireStarted(for: "dumpCell") }
        #expect(session == .notInitialized)
        session.initialize()
        #expect(throws: DebugSessionError.notAttached("configurationDone")) { try session.configurationDone() }
        #expect(session == .initialized)
        session.disconnect()
        #expect(throws: DebugSessionError.notStarted("attach")) { try session.attach() }
    }

    @Test func aSecondInitializeOrAttachKeepsALiveSession() throws {
        var session = DebugSession.notInitialized
        session.initialize()
        try session.attach()
        try session.configurationDone()
        session.initialize()
        try session.attach()
        #expect(session == .attached(configured: true))
    }

    @Test func errorsSayWhatToSendFirst() {
        #expect(DebugSessionError.notStarted("source").description.contains("send 'initialize' first"))
        #expect(DebugSessionError.notAttached("configurationDone").description.contains("send 'attach'"))
    }
}

/// MurmurHash2 as ipykernel and JupyterLab compute it. The expected values come from
/// ipykernel 7.4's `murmur2_x86` (ipykernel/compiler.py) with its seed 0xC70F6907 and with
/// seed 0; the empty input with seed 0 hashes to 0 in any MurmurHash2.
@Suite struct Murmur2Tests {
    @Test(arguments: [
        ("", UInt32(3_990_065_800), UInt32(0)),
        ("a", 2_167_009_006, 2_456_313_694),
        ("ab", 2_805_137_849, 446_775_395),
        ("abc", 3_350_977_461, 324_500_635),
        ("abcd", 804_720_481, 646_393_889),
        ("let x = 1", 719_486_033, 1_436_426_594),
        ("print(\"héllo 🐱\")\nlet t = Tensor([1, 2, 3])", 2_522_692_103, 1_368_095_169),
    ])
    func matchesIPykernel(text: String, withKernelSeed: UInt32, withZeroSeed: UInt32) {
        #expect(Murmur2.hash(text) == withKernelSeed)
        #expect(Murmur2.hash(Array(text.utf8), seed: 0) == withZeroSeed)
    }

    @Test func theSeedIsIPykernels() {
        #expect(Murmur2.seed == 0xC70F_6907)
    }
}

/// The adapter's answers that need no cell host.
@Suite struct DebugAdapterTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-debugger-tests-\(getpid())")

    func request(_ command: String, seq: Int = 1, _ arguments: JSONValue = [:]) -> [String: JSONValue] {
        ["type": "request", "seq": .number(Double(seq)), "command": .string(command), "arguments": arguments]
    }

    func reply(_ step: DebugAdapter.DebugStep) -> (response: JSONValue, events: [JSONValue]) {
        guard case .reply(let response, let events) = step else {
            Issue.record("expected a reply, got \(step)")
            return (.null, [])
        }
        return (response, events)
    }

    @Test func initializeAnswersCapabilitiesAndSendsInitialized() {
        var adapter = DebugAdapter(cellFiles: DebugCellFiles(directory: directory))
        let (response, events) = reply(adapter.handle(request("initialize", seq: 7)))
        #expect(response["success"] == true)
        #expect(response["request_seq"] == 7)
        #expect(response["command"] == "initialize")
        #expect(response["body"]?["supportsConfigurationDoneRequest"] == true)
        #expect(events.map { $0["event"] } == ["initialized"])
        #expect(adapter.session == .initialized)
    }

    @Test func debugInfoGivesIPykernelsSchemeWithASwiftSuffix() {
        var adapter = DebugAdapter(cellFiles: DebugCellFiles(directory: directory))
        let body = reply(adapter.handle(request("debugInfo")))
        #expect(body.response["body"]?["hashMethod"] == "Murmur2")
        #expect(body.response["body"]?["hashSeed"]?.intValue == 3_339_675_911)
        #expect(body.response["body"]?["tmpFilePrefix"]?.stringValue == directory.path + "/")
        #expect(body.response["body"]?["tmpFileSuffix"] == ".swift")
        #expect(body.response["body"]?["richRendering"] == true)
        #expect(body.response["body"]?["isStarted"] == false)
        #expect(body.response["body"]?["breakpoints"] == [])
        #expect(body.response["body"]?["stoppedThreads"] == [])
    }

    @Test func dumpCellWritesTheCellWhereTheHashSaysAndSourceReadsIt() throws {
        var adapter = DebugAdapter(cellFiles: DebugCellFiles(directory: directory))
        defer { try? FileManager.default.removeItem(at: directory) }
        let code = "let x = 1\nprint(x)"
        let refused = reply(adapter.handle(request("dumpCell", ["code": .string(code)])))
        #expect(refused.response["success"] == false, "dumpCell needs initialize first")
        _ = adapter.handle(request("initialize"))
        let dumped = reply(adapter.handle(request("dumpCell", ["code": .string(code)])))
        let path = try #require(dumped.response["body"]?["sourcePath"]?.stringValue)
        #expect(path == directory.path + "/\(Murmur2.hash(code)).swift")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == code)
        let source = reply(adapter.handle(request("source", ["source": ["path": .string(path)]])))
        #expect(source.response["body"]?["content"]?.stringValue == code)
        let outside = reply(adapter.handle(request("source", ["source": ["path": "/etc/passwd"]])))
        #expect(outside.response["success"] == false)
    }

    @Test func breakpointsAndSteppingFailSayingWhy() {
        var adapter = DebugAdapter(cellFiles: DebugCellFiles(directory: directory))
        _ = adapter.handle(request("initialize"))
        for command in ["setBreakpoints", "stackTrace", "scopes", "continue", "next", "stepIn", "stepOut", "evaluate"] {
            let (response, _) = reply(adapter.handle(request(command)))
            #expect(response["success"] == false, "\(command)")
            #expect(response["message"]?.stringValue?.contains("LLDB") == true, "\(command)")
        }
    }

    @Test func setBreakpointsFailsAndListsEachBreakpointAsNotVerified() {
        var adapter = DebugAdapter(cellFiles: DebugCellFiles(directory: directory))
        _ = adapter.handle(request("initialize"))
        let (response, _) = reply(adapter.handle(request("setBreakpoints", ["breakpoints": [["line": 2], ["line": 5]]])))
        #expect(response["success"] == false)
        let listed = response["body"]?["breakpoints"]?.arrayValue ?? []
        #expect(listed.map { $0["line"] } == [2, 5])
        #expect(listed.allSatisfy { $0["verified"] == false && $0["message"]?.stringValue?.contains("LLDB") == true })
    }

    @Test func unknownAndMalformedRequestsGetErrorResponses() {
        var adapter = DebugAdapter(cellFiles: DebugCellFiles(directory: directory))
        let unknown = reply(adapter.handle(request("frobnicate", seq: 3)))
        #expect(unknown.response["success"] == false)
        #expect(unknown.response["message"]?.stringValue?.contains("'frobnicate'") == true)
        let noCommand = reply(adapter.handle(["type": "request", "seq": 4]))
        #expect(noCommand.response["success"] == false)
        #expect(noCommand.response["request_seq"] == 4)
        #expect(noCommand.response["message"]?.stringValue?.contains("\"command\"") == true)
        let notARequest = reply(adapter.handle(["type": "event", "seq": 5, "command": "initialize"]))
        #expect(notARequest.response["success"] == false)
        let badArguments = reply(adapter.handle(["type": "request", "seq": 6, "command": "dumpCell", "arguments": [1]]))
        #expect(badArguments.response["message"]?.stringValue?.contains("arguments") == true)
    }

    @Test func variablesAreLeftToTheCellHost() {
        var adapter = DebugAdapter(cellFiles: DebugCellFiles(directory: directory))
        guard case .inspectVariables(let inspect) = adapter.handle(request("inspectVariables", seq: 9)) else {
            Issue.record("inspectVariables is answered by the cell host")
            return
        }
        #expect(inspect.seq == 9)
        guard case .richInspect(_, let name) = adapter.handle(request("richInspectVariables", ["variableName": "t"])) else {
            Issue.record("richInspectVariables is answered by the cell host")
            return
        }
        #expect(name == "t")
        let listing = [VariableEntry(name: "n", type: "Int", value: "3"),
                       VariableEntry(name: "p", type: "Point", value: "Point(x: 1)", members: [VariableEntry(name: "x", type: "Int", value: "1")])]
        let response = adapter.variablesResponse(to: inspect, listing)
        #expect(response["body"]?["variables"] == [
            ["name": "n", "value": "3", "type": "Int", "evaluateName": "n", "variablesReference": 0],
            ["name": "p", "value": "Point(x: 1)", "type": "Point", "evaluateName": "p", "variablesReference": 2],
        ])
        guard case .members(let open, let reference) = adapter.handle(request("variables", ["variablesReference": 2])) else {
            Issue.record("variables is answered from the last listing")
            return
        }
        #expect(adapter.membersResponse(to: open, reference: reference, in: listing)["body"]?["variables"] == [
            ["name": "x", "value": "1", "type": "Int", "evaluateName": "x", "variablesReference": 0],
        ])
        #expect(adapter.membersResponse(to: open, reference: 7, in: listing)["body"]?["variables"] == [])
    }

    @Test func responseSequenceNumbersGrow() {
        var adapter = DebugAdapter(cellFiles: DebugCellFiles(directory: directory))
        let first = reply(adapter.handle(request("debugInfo"))).response["seq"]?.intValue ?? 0
        let second = reply(adapter.handle(request("debugInfo"))).response["seq"]?.intValue ?? 0
        #expect(second > first)
    }
}
