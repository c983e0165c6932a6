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
    func commRequest(_ request: Message) {
        guard let kind = CommTraffic.Kind(rawValue: request.type),
              let commID = request.content["comm_id"]?.stringValue else {
            Log.warning("\(request.type) without a comm_id dropped")
            return
        }
        let traffic = CommTraffic(kind, commID: commID, targetName: request.content["target_name"]?.stringValue,
                                  data: request.content["data"] ?? [:], metadata: .object(request.metadata),
                                  buffers: request.buffers.map { Array($0) })
        let output = ExecutionOutput(kernel: self, request: request, executionCount: state.executionCount,
                                     silent: false, allowStdin: false)
        if let failure = engine.deliver(traffic, requestID: request.header.messageID, output: output) {
            output.stream(name: "stderr", text: failure.traceback.joined(separator: "\n") + "\n")
        }
    }
}
