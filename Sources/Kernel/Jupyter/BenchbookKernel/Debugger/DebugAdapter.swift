import CellEngine
import Foundation
import JupyterWire

/// The kernel's side of JupyterLab's debugger (the Debug Adapter Protocol inside
/// `debug_request`/`debug_reply`): the session's state, the cells' files, and the answer to
/// each request. Requests that need the cell host (the variables) are handed back to the
/// kernel as a ``DebugStep``; everything else is answered here.
///
/// Breakpoints and stepping need LLDB attached to the cell host, which is not wired in yet:
/// those requests fail with ``breakpointsUnavailable``, never a silent success.
struct DebugAdapter {
    /// Where the front end's session is.
    private(set) var session = DebugSession.notInitialized
    /// Where dumped cells go.
    let cellFiles: DebugCellFiles
    private var nextSeq = 1

    /// Creates an adapter writing cells under `cellFiles`.
    init(cellFiles: DebugCellFiles) {
        self.cellFiles = cellFiles
    }

    /// Why breakpoint and stepping requests fail, and what works instead.
    static let breakpointsUnavailable = "Breakpoints and stepping are not available yet in Benchbook: they need LLDB "
        + "attached to the cell host and cells compiled with debug information under the dumped cells' file names, "
        + "which is not built yet (issue 50, phase 2). The Variables panel works: it shows the notebook's variables "
        + "and their values after each cell, and a tensor's statistics or an image when you open one."

    /// Requests that need a stopped thread or breakpoints.
    static let needsLLDB: Set<String> = [
        "setBreakpoints", "setExceptionBreakpoints", "setFunctionBreakpoints", "setInstructionBreakpoints",
        "setDataBreakpoints", "stackTrace", "scopes", "continue", "next", "stepIn", "stepOut", "stepBack",
        "reverseContinue", "pause", "evaluate", "setVariable", "setExpression", "copyToGlobals", "restartFrame",
        "goto", "threads", "exceptionInfo",
    ]

    /// What the kernel does with a request.
    enum DebugStep {
        /// Send this response, then these events.
        case reply(JSONValue, events: [JSONValue])
        /// Read the notebook's variables in the cell host, then answer with ``variablesResponse(to:_:)``.
        case inspectVariables(DebugRequest)
        /// Read one variable's rich view in the cell host, then answer with ``richResponse(to:data:metadata:)``.
        case richInspect(DebugRequest, name: String)
        /// Answer with the members of the variable `reference` names in the last listing
        /// (``membersResponse(to:reference:in:)``).
        case members(DebugRequest, reference: Int)
    }

    /// Answers a `debug_request`'s content.
    mutating func handle(_ content: [String: JSONValue]) -> DebugStep {
        let request: DebugRequest
        do { request = try DebugRequest(content: content) } catch {
            return .reply(response(seq: error.seq ?? 0, command: error.command ?? "", success: false,
                                   message: error.description), events: [])
        }
        return handle(request)
    }

    /// Answers a DAP request.
    mutating func handle(_ request: DebugRequest) -> DebugStep {
        do throws(DebugSessionError) {
            switch request.command {
            case "initialize":
                session.initialize()
                return .reply(success(request, body: Self.capabilities), events: [event("initialized")])
            case "attach":
                try session.attach()
                return .reply(success(request), events: [])
            case "configurationDone":
                try session.configurationDone()
                return .reply(success(request), events: [])
            case "disconnect":
                session.disconnect()
                return .reply(success(request), events: [])
            case "debugInfo":
                return .reply(success(request, body: debugInfo), events: [])
            case "dumpCell":
                try session.requireStarted(for: request.command)
                return .reply(dumpCell(request), events: [])
            case "source":
                try session.requireStarted(for: request.command)
                return .reply(source(request), events: [])
            case "inspectVariables":
                return .inspectVariables(request)
            case "richInspectVariables":
                let name = request.arguments["variableName"]?.stringValue ?? ""
                guard !name.isEmpty else {
                    return .reply(failure(request, "richInspectVariables needs a \"variableName\" argument."), events: [])
                }
                return .richInspect(request, name: name)
            case "variables":
                return .members(request, reference: request.arguments["variablesReference"]?.intValue ?? 0)
            case "modules":
                return .reply(success(request, body: ["modules": [], "totalModules": 0]), events: [])
            case "setBreakpoints":
                return .reply(unverifiedBreakpoints(request), events: [])
            case let command where Self.needsLLDB.contains(command):
                return .reply(failure(request, Self.breakpointsUnavailable), events: [])
            default:
                return .reply(failure(request, "Benchbook's debugger does not handle the '\(request.command)' request."), events: [])
            }
        } catch {
            return .reply(failure(request, error.description), events: [])
        }
    }

    /// The capabilities `initialize` answers: no breakpoints of any kind until LLDB is wired in.
    static let capabilities: JSONValue = [
        "supportsConfigurationDoneRequest": true,
        "supportsConditionalBreakpoints": false,
        "supportsFunctionBreakpoints": false,
        "supportsEvaluateForHovers": false,
        "supportsSetVariable": false,
        "supportsStepBack": false,
        "supportsModulesRequest": false,
        "supportsDelayedStackTraceLoading": false,
        "exceptionBreakpointFilters": [],
    ]

    /// `debugInfo`'s body: the cell-file scheme JupyterLab uses to map a cell to its file.
    var debugInfo: JSONValue {
        [
            "isStarted": .bool(session.isStarted),
            "hashMethod": "Murmur2",
            "hashSeed": .number(Double(Murmur2.seed)),
            "tmpFilePrefix": .string(cellFiles.prefix),
            "tmpFileSuffix": .string(cellFiles.suffix),
            "breakpoints": [],
            "stoppedThreads": [],
            "richRendering": true,
            "exceptionPaths": [],
            "copyToGlobals": false,
        ]
    }

    private mutating func dumpCell(_ request: DebugRequest) -> JSONValue {
        guard let code = request.arguments["code"]?.stringValue else {
            return failure(request, "dumpCell needs a \"code\" argument (the cell's text).")
        }
        do {
            return success(request, body: ["sourcePath": .string(try cellFiles.write(code))])
        } catch {
            return failure(request, "The cell could not be written for the debugger: \(error)")
        }
    }

    private mutating func source(_ request: DebugRequest) -> JSONValue {
        guard let path = request.arguments["source"]?["path"]?.stringValue else {
            return failure(request, "source needs a \"source\" argument with a \"path\".")
        }
        guard let content = cellFiles.read(path) else {
            return failure(request, "Source unavailable: \(path) is not a cell this kernel dumped (dumpCell writes them under \(cellFiles.prefix)).")
        }
        return success(request, body: ["content": .string(content)])
    }

    /// `setBreakpoints` fails, and still lists each requested breakpoint as not verified,
    /// with the reason: JupyterLab reads `body.breakpoints` of the reply whatever its status.
    private mutating func unverifiedBreakpoints(_ request: DebugRequest) -> JSONValue {
        let requested = request.arguments["breakpoints"]?.arrayValue ?? []
        let breakpoints: [JSONValue] = requested.map { breakpoint in
            ["verified": false, "line": breakpoint["line"] ?? .null, "message": .string(Self.breakpointsUnavailable)]
        }
        var response = failure(request, Self.breakpointsUnavailable).objectValue ?? [:]
        var body = response["body"]?.objectValue ?? [:]
        body["breakpoints"] = .array(breakpoints)
        response["body"] = .object(body)
        return .object(response)
    }

    // MARK: Responses and events

    /// The `inspectVariables` response for variables read in the host.
    /// A variable with members gets `variablesReference` its position in the list, plus one.
    mutating func variablesResponse(to request: DebugRequest, _ variables: [VariableEntry]) -> JSONValue {
        let listed = variables.enumerated().map { index, variable in variable.json(reference: variable.members.isEmpty ? 0 : index + 1) }
        return success(request, body: ["variables": .array(listed)])
    }

    /// The `variables` response: the members of the variable `reference` names in
    /// `variables` (the last listing), or none for a reference it does not name.
    mutating func membersResponse(to request: DebugRequest, reference: Int, in variables: [VariableEntry]) -> JSONValue {
        let members = variables.indices.contains(reference - 1) ? variables[reference - 1].members : []
        return success(request, body: ["variables": .array(members.map { $0.json(reference: 0) })])
    }

    /// The `richInspectVariables` response for a MIME bundle read in the host.
    mutating func richResponse(to request: DebugRequest, data: JSONValue, metadata: JSONValue) -> JSONValue {
        success(request, body: ["data": data, "metadata": metadata])
    }

    /// A failed response saying why.
    mutating func failure(_ request: DebugRequest, _ message: String) -> JSONValue {
        response(seq: request.seq, command: request.command, success: false, message: message)
    }

    private mutating func success(_ request: DebugRequest, body: JSONValue = [:]) -> JSONValue {
        response(seq: request.seq, command: request.command, success: true, body: body)
    }

    private mutating func response(seq: Int, command: String, success: Bool, message: String? = nil,
                                   body: JSONValue = [:]) -> JSONValue {
        var response: [String: JSONValue] = [
            "seq": .number(Double(takeSeq())), "type": "response", "request_seq": .number(Double(seq)),
            "success": .bool(success), "command": .string(command), "body": body,
        ]
        if let message {
            response["message"] = .string(message)
            response["body"] = ["error": ["id": 1, "format": .string(message), "showUser": true]]
        }
        return .object(response)
    }

    /// A DAP event (`initialized`).
    mutating func event(_ name: String, body: JSONValue = [:]) -> JSONValue {
        ["seq": .number(Double(takeSeq())), "type": "event", "event": .string(name), "body": body]
    }

    private mutating func takeSeq() -> Int {
        defer { nextSeq += 1 }
        return nextSeq
    }
}

/// One row of the Variables panel.
struct VariableEntry: Equatable {
    var name: String
    var type: String
    var value: String
    /// Its stored properties (shown when the row is opened).
    var members: [VariableEntry] = []

    /// The DAP variable; `reference` 0 when it has no members to open.
    func json(reference: Int) -> JSONValue {
        ["name": .string(name), "value": .string(value), "type": .string(type), "evaluateName": .string(name),
         "variablesReference": .number(Double(reference))]
    }
}

extension VariableEntry {
    /// A variable read in the cell host.
    init(_ variable: CellEngine.DebugVariable) {
        self.init(name: variable.name, type: variable.type, value: variable.value, members: variable.members.map(VariableEntry.init))
    }
}
