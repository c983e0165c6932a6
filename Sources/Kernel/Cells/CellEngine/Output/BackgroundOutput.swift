import Foundation

/// Routes output that a host writes while none of its cells runs (a thread an earlier cell
/// started) to the last cell's output, as ipykernel does.
final class BackgroundOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let comms: CommRegistry
    private var output: CellOutput?
    private var execution = 0
    /// Output between runs goes to the last cell, within a limit of its own.
    private var streams: CellStreams?

    /// Records comms opened between runs against the open comm registry.
    init(comms: CommRegistry) { self.comms = comms }

    /// Makes `output` the destination from now on.
    /// - Parameter streams: filters, scrubs and limits the text sent there.
    func setOutput(_ output: CellOutput, streams: CellStreams) {
        lock.withLock {
            // Text held back from standard error goes to the cell it came after.
            if let previous = self.output, var old = self.streams {
                Self.send(old.flushBeforeEvent(), to: previous)
            }
            self.output = output
            self.streams = streams
        }
    }

    private static func send(_ chunks: [CellStreams.Chunk], to output: CellOutput) {
        for chunk in chunks where !chunk.text.isEmpty { output.stream(name: chunk.name.rawValue, text: chunk.text) }
    }

    /// The execution that comms opened between runs are counted in (the latest).
    func setExecution(_ execution: Int) {
        lock.withLock { self.execution = execution }
    }

    /// Delivers one output (called on a host reader thread).
    func deliver(_ item: HostOutput) {
        lock.withLock {
            guard let output, var streams else { return }
            defer { self.streams = streams }
            func send(_ chunks: [CellStreams.Chunk]) { Self.send(chunks, to: output) }
            switch item {
            case .standardOutput(let bytes):
                send(streams.takeBetweenCells(bytes, from: .stdout))
            case .standardError(let bytes):
                send(streams.takeBetweenCells(bytes, from: .stderr))
            case .crashed(let report):
                // The host died: the runtime's message it names is shown with the host's
                // loss at the next cell; the rest is shown now.
                send(streams.finish(crash: report))
            case .event(.display(let display)):
                send(streams.flushBeforeEvent())
                output.display(data: display.data, metadata: display.metadata, displayID: display.displayID,
                               isUpdate: display.isUpdate)
            case .event(.comm(let traffic)):
                send(streams.flushBeforeEvent())
                comms.record(traffic, during: execution)
                output.comm(traffic)
            default:
                break
            }
        }
    }
}
