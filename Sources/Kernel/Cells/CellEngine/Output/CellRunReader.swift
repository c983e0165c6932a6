import Foundation
import JSONCore
import SystemSupport
import HostProtocol
import GeneratedNames

/// How a cell's run ended, in the terms the engine reports.
enum CellRunOutcome: Sendable, Equatable {
    /// The entry point returned: `bound` bindings were made; `thrown` is what it threw.
    case completed(bound: Int, thrown: HostEvent.ThrownError?)
    /// The library or its entry point could not be loaded.
    case couldNotRun(String)
    /// The host died while the cell ran; `message` is the runtime's last words, `location`
    /// the innermost line of cell code (`In[7], line 3`) when the crash was in or under it.
    case crashed(message: String?, location: String?, status: ExitStatus)
    /// The cell did not stop within the grace period after an interrupt; its host was killed.
    case killedAfterInterrupt
    /// The host died while the cell ran (`message` and `status` as for ``crashed``, or
    /// killed after an interrupt), and the snapshot taken after execution `afterCell` is
    /// the host now.
    case restored(message: String?, location: String?, status: ExitStatus, afterInterrupt: Bool, afterCell: Int)
    /// Interrupted before it started to run: nothing ran.
    case interruptedBeforeRun
    /// No host could run it.
    case hostUnavailable(String)
}

/// Reads a running cell's output from its sink on the shell thread: streams text to the
/// notebook as it arrives (batched, without the runtime's stack frames or generated names,
/// within the output limit), shows displays and the result, answers input requests, and
/// returns how the run ended.
struct CellRunReader {
    let sink: CellRunSink
    let output: CellOutput
    /// Sends the answer to an input request to the host.
    let answerInput: (InputReply) -> Void
    /// `llvm-symbolizer`, and the directory of cell libraries, to place a crash.
    let symbolizer: URL
    let cellDirectory: URL
    /// The open comms, updated as comm events pass.
    let comms: CommRegistry
    /// The execution the run belongs to (a cell's or a comm dispatch's).
    let execution: Int
    /// The run's standard output and error (their limit and spill files).
    var streams: CellStreams
    /// The run's label (`In[7]`), for messages about it.
    var label: String? = nil

    func read() -> CellRunOutcome {
        var streams = self.streams
        var bound = 0
        var thrown: HostEvent.ThrownError?
        /// What the host's crash handler reported on its own channel, if it died.
        var crash: CrashReport?
        func send(_ chunks: [CellStreams.Chunk]) {
            for chunk in chunks where !chunk.text.isEmpty { output.stream(name: chunk.name.rawValue, text: chunk.text) }
        }
        while true {
            guard let item = sink.next(until: streams.deadline) else {
                // Text waited a flush interval for more: send it.
                send(streams.flush())
                continue
            }
            switch item {
            case .output(.standardOutput(let bytes)):
                send(streams.take(bytes, from: .stdout, now: .now))
            case .output(.standardError(let bytes)):
                send(streams.take(bytes, from: .stderr, now: .now))
            case .output(.event(let event)):
                // What the cell printed before an event is shown before it.
                send(streams.flushBeforeEvent())
                switch event {
                case .display(let display):
                    output.display(data: display.data, metadata: display.metadata, displayID: display.displayID,
                                   isUpdate: display.isUpdate)
                case .result(let data, let metadata):
                    output.result(data: data, metadata: metadata)
                case .clearOutput(let wait):
                    output.clearOutput(wait: wait)
                case .inputRequest(let prompt, let password):
                    let answer = output.requestInput(prompt: prompt, password: password) { sink.isInputWaitStopped }
                    answerInput(InputReply(answer))
                case .finished(let count, let error):
                    bound = count
                    thrown = error
                case .loadFailed(let library, let message):
                    output.stream(name: "stderr", text: "could not load \(library): \(message)\n")
                case .comm(let traffic):
                    comms.record(traffic, during: execution)
                    output.comm(traffic)
                case .snapshotFailed(_, let reason):
                    output.stream(name: "stderr", text: CellErrorReport.snapshotFailed(reason: reason, label: label) + "\n")
                case .done, .synced:
                    break
                }
            case .output(.protocolError(let message)):
                send(streams.flushBeforeEvent())
                output.stream(name: "stderr", text: message + "\n")
            case .output(.crashed(let report)):
                crash = report
            case .output(.exited), .output(.snapshot):
                break
            case .end(let end):
                // The runtime's message the host's crash report names is shown once, in
                // the error; everything else the cell wrote is shown.
                send(streams.finish(crash: crash))
                // Symbolised only when the host ended (a child process per frame); the cause
                // of a trap without the runtime's message comes from its debug information.
                func described() -> (message: String?, location: String?) {
                    let site = crash?.site(symbolizer: symbolizer, cellLibraries: cellDirectory)
                    return ((crash?.runtimeMessage ?? site?.failure).map(NameScrubber.userFacing), site?.location)
                }
                switch end {
                case .returned(.returned):
                    return .completed(bound: bound, thrown: thrown)
                case .returned(.couldNotRun(let message)): return .couldNotRun(message)
                case .hostRestored(let status, let afterInterrupt, let afterCell):
                    let (message, location) = described()
                    return .restored(message: message, location: location,
                                     status: status, afterInterrupt: afterInterrupt, afterCell: afterCell)
                case .hostExited(_, afterInterrupt: true): return .killedAfterInterrupt
                case .hostExited(let status, afterInterrupt: false):
                    let (message, location) = described()
                    return .crashed(message: message, location: location, status: status)
                case .interruptedBeforeRun: return .interruptedBeforeRun
                case .hostUnavailable(let reason): return .hostUnavailable(reason)
                }
            }
        }
    }
}

extension InputReply {
    /// The host-protocol form of the user's answer.
    init(_ answer: InputAnswer) {
        switch answer {
        case .text(let text): self = .value(text)
        case .notAllowed: self = .notAllowed
        case .interrupted: self = .interrupted
        }
    }
}
