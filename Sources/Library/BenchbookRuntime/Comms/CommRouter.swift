import Foundation
package import HostProtocol

/// The host's comms and targets, and the delivery of the front end's comm messages to them.
///
/// Thread rules: registration from any thread (cells, callbacks); ``deliver(_:requestID:)``
/// on a dispatch thread the serving loop starts, one at a time. The lock is never held
/// while a handler runs, so handlers may open, send on and close comms.
package final class CommRouter: @unchecked Sendable {
    package static let shared = CommRouter()

    private let lock = NSLock()
    private var comms: [String: Comm] = [:]
    private var targets: [String: (Comm, CommMessage) throws -> Void] = [:]
    /// The message the serving loop hands to the next dispatch thread.
    private var pending: (traffic: CommTraffic, requestID: String)?
    /// The `msg_id` of the front-end request whose message is being delivered, if any.
    private var handling: String?

    /// The `msg_id` of the front-end request whose callbacks run now (nil in a cell).
    var requestBeingHandled: String? { lock.withLock { handling } }

    func register(_ comm: Comm) { lock.withLock { comms[comm.id] = comm } }
    func unregister(_ id: String) { _ = lock.withLock { comms.removeValue(forKey: id) } }
    func registerTarget(_ name: String, _ handler: @escaping (Comm, CommMessage) throws -> Void) {
        lock.withLock { targets[name] = handler }
    }
    func unregisterTarget(_ name: String) { _ = lock.withLock { targets.removeValue(forKey: name) } }
    var openComms: [String: String] { lock.withLock { comms.mapValues(\.targetName) } }

    /// Keeps a message for ``deliverPending()`` (called by the serving loop before it
    /// starts the dispatch thread).
    package func setPending(_ traffic: CommTraffic, requestID: String) {
        lock.withLock { pending = (traffic, requestID) }
    }

    /// Delivers the pending message (on the dispatch thread).
    package func deliverPending() {
        guard let (traffic, requestID) = lock.withLock({ () -> (CommTraffic, String)? in
            defer { pending = nil }
            return pending.map { ($0.traffic, $0.requestID) }
        }) else { return }
        lock.withLock { handling = requestID }
        defer { lock.withLock { handling = nil } }
        deliver(traffic, requestID: requestID)
    }

    /// Hands one front-end message to its comm or target.
    func deliver(_ traffic: CommTraffic, requestID: String) {
        let message = CommMessage(data: traffic.data, metadata: traffic.metadata, buffers: traffic.buffers,
                                  requestID: requestID)
        switch traffic.kind {
        case .open:
            let target = traffic.targetName ?? ""
            guard let handler = lock.withLock({ targets[target] }) else {
                reportProblem("no comm target '\(target)' is registered in this notebook; the comm was closed. Run the cell that registers it, then open the comm again.")
                KernelChannel.shared.send(.comm(CommTraffic(.close, commID: traffic.commID)))
                return
            }
            let comm = Comm(id: traffic.commID, targetName: target)
            register(comm)
            do { try handler(comm, message) } catch {
                report(error, while: "opening a comm to target '\(target)'")
                comm.close()
            }
        case .message:
            guard let comm = lock.withLock({ comms[traffic.commID] }) else {
                // A comm the host does not know (its cell host was replaced): close it in
                // the front end too, so it stops sending.
                KernelChannel.shared.send(.comm(CommTraffic(.close, commID: traffic.commID)))
                return
            }
            do { try comm.receive(message) } catch {
                report(error, while: "handling a message for comm \(comm.id.prefix(8)) (target '\(comm.targetName)')")
            }
        case .close:
            guard let comm = lock.withLock({ comms.removeValue(forKey: traffic.commID) }) else { return }
            do { try comm.receiveClose(message) } catch {
                report(error, while: "closing comm \(comm.id.prefix(8)) (target '\(comm.targetName)')")
            }
        }
    }

    /// Reports an error a handler threw, on the standard error of the current request.
    func report(_ error: Error, while activity: String) {
        let name = removingCellModuleNames(String(describing: type(of: error)))
        reportProblem("\(name) thrown while \(activity): \(removingCellModuleNames(String(describing: error)))")
    }

    private func reportProblem(_ text: String) {
        fflush(nil)
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
