import CellEngine
import Foundation
import JupyterWire

extension Kernel {
    /// Serves `comm_info_request`: the comms open now, only those to the request's
    /// `target_name` when it names one.
    func commInfo(_ request: Message) {
        let target = request.content["target_name"]?.stringValue
        let comms = engine.openComms(targetName: target?.isEmpty == false ? target : nil)
        let listed = comms.mapValues { JSONValue.object(["target_name": .string($0)]) }
        channels.reply(on: channels.shell, to: request, type: "comm_info_reply",
                       content: ["status": "ok", "comms": .object(listed)])
    }

    /// Serves `comm_open`, `comm_msg` and `comm_close` from the front end: the message goes
    /// to the callbacks registered in the cell host, which run before the next request is
    /// served; what they print or display, and the comm messages they send, belong to this
    /// request (as in ipykernel). A comm to a target nobody registered is closed.
    ///
    /// A widget `update` is skipped when a newer update of the same attributes of the same
    /// widget already waits behind it: while a user drags a slider faster than its callback
    /// runs, only the newest value is processed (the skipped request still gets its
    /// busy/idle pair, which the front end's throttle waits for).
    func commRequest(_ request: Message) {
        guard let kind = CommTraffic.Kind(rawValue: request.type),
              let commID = request.content["comm_id"]?.stringValue else {
            Log.warning("\(request.type) without a comm_id dropped")
            return
        }
        let traffic = CommTraffic(kind, commID: commID, targetName: request.content["target_name"]?.stringValue,
                                  data: request.content["data"] ?? [:], metadata: .object(request.metadata),
                                  buffers: request.buffers.map { Array($0) })
        if isStaleWidgetUpdate(traffic) { return }
        let output = ExecutionOutput(kernel: self, request: request, executionCount: state.executionCount,
                                     silent: false, allowStdin: false)
        if let failure = engine.deliver(traffic, requestID: request.header.messageID, output: output) {
            output.stream(name: "stderr", text: failure.traceback.joined(separator: "\n") + "\n")
        }
    }
}

extension Kernel {
    /// True for a widget `update` (no buffers) that a newer queued update makes stale.
    private func isStaleWidgetUpdate(_ traffic: CommTraffic) -> Bool {
        guard traffic.kind == .message, traffic.buffers.isEmpty, traffic.data["method"]?.stringValue == "update",
              let attributes = traffic.data["state"]?.objectValue?.keys, !attributes.isEmpty else { return false }
        readAhead.fill(from: channels)
        return readAhead.hasNewerUpdate(commID: traffic.commID, setting: Set(attributes))
    }
}
