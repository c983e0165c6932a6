import Foundation
import HostProtocol

extension CellEngine {
    /// The comms open between the front end and the cell host (id to target name), only
    /// those to `targetName` when it is given (`comm_info_request`).
    public func openComms(targetName: String? = nil) -> [String: String] {
        comms.openComms(targetName: targetName)
    }

    /// Delivers a front end's comm message to the callbacks registered in the cell host
    /// and waits until they ran, like a cell without compilation: output and comm messages
    /// the callbacks produce go to `output`, the host takes a snapshot afterwards, and a
    /// callback that traps ends its host, which the kernel restores from the snapshot taken
    /// before the message.
    ///
    /// A message for a comm the host does not have (closed, or lost with a host) is
    /// answered with `comm_close` without asking the host.
    /// - Parameters:
    ///   - traffic: the front end's `comm_open`, `comm_msg` or `comm_close`.
    ///   - requestID: the request's `msg_id`.
    ///   - output: where the callbacks' output and comm messages go (the request's parent).
    /// - Returns: nil when the callbacks ran (a callback that threw has been reported on
    ///   standard error), or the error that stopped them.
    public func deliver(_ traffic: CommTraffic, requestID: String, output: CellOutput) -> CellError? {
        reportHostLosses(to: output)
        if traffic.kind != .open, !comms.isOpen(traffic.commID) {
            if traffic.kind == .message { output.comm(CommTraffic(.close, commID: traffic.commID)) }
            return nil
        }
        cellCounter += 1
        let id = CellID(cellCounter)
        // The snapshot after this message holds the state after the last cell and the comm
        // messages since (a page reload sends some with no widget in the notebook).
        let previous = labels.keys.filter { $0 < id.rawValue }.max().flatMap { labels[$0] }
        labels[id.rawValue] = previous.map { $0.hasSuffix(Self.commSuffix) ? $0 : $0 + Self.commSuffix }
        comms.record(traffic, during: id.rawValue)
        let sink = supervisor.beginCompile(id, cancellation: CellCancellation())
        supervisor.endCompile(id, run: .comm(traffic, dispatch: id.rawValue, requestID: requestID))
        let reader = CellRunReader(sink: sink, output: output, answerInput: { [supervisor] answer in
            supervisor.sendInputReply(id, answer)
        }, symbolizer: configuration.toolsDirectory.appendingPathComponent("llvm-symbolizer"),
           cellDirectory: configuration.workDirectory, comms: comms, execution: id.rawValue,
           streams: streams(label: "comm-\(id.rawValue)"))
        let outcome = reader.read()
        for note in supervisor.takeNotes() { output.stream(name: "stderr", text: note + "\n") }
        let label = "A comm callback"
        let failure: CellError?
        switch outcome {
        case .completed, .interruptedBeforeRun:
            return nil
        case .couldNotRun(let message):
            return CellError(name: "CommError", value: message)
        case .hostUnavailable(let reason):
            return CellError(name: "KernelError", value: EngineError.hostStartFailed(reason).description)
        case .crashed(let message, let location, let status):
            closeComms(openedAfter: 0, output: output)
            failure = CellErrorReport.crash(message: message, location: location, status: status, label: label,
                                            lost: symbols.markVariablesLost())
        case .killedAfterInterrupt:
            closeComms(openedAfter: 0, output: output)
            failure = CellErrorReport.interruptKilled(lost: symbols.markVariablesLost())
        case .restored(let message, let location, let status, _, let afterCell):
            closeComms(openedAfter: afterCell, output: output)
            let restoration = CellErrorReport.Restoration(
                afterLabel: labels[afterCell], seconds: supervisor.takeRestoreSeconds(for: id) ?? 0,
                lost: symbols.markVariablesLost(after: afterCell))
            failure = CellErrorReport.crash(message: message, location: location, status: status, label: label,
                                            restored: restoration)
        }
        // The request's output is not shown in most front ends: tell the next cell too.
        if let failure { commNotes.append(failure.traceback.joined(separator: "\n")) }
        return failure
    }

    /// Added to the label of the cell before a comm message: what its snapshot holds.
    static let commSuffix = " (with the comm messages the front end sent since)"

    /// Closes in the front end the comms opened after execution `execution` (0: all),
    /// which a replaced host no longer has, and says how to get the widgets back.
    func closeComms(openedAfter execution: Int, output: CellOutput) {
        let gone = comms.removeOpened(after: execution)
        guard !gone.isEmpty else { return }
        for id in gone {
            output.comm(CommTraffic(.close, commID: id, data: ["reason": "the cell host was restarted"]))
        }
        let what = gone.count == 1 ? "1 widget (comm) was" : "\(gone.count) widgets (comms) were"
        output.stream(name: "stderr", text: "\(what) closed because the cell host was restarted without them; re-run the cells that create them.\n")
    }
}
