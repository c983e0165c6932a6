import JSONCore
import SystemSupport
import HostProtocol

/// How a cell's run ended, in the terms the engine reports.
enum CellRunOutcome: Sendable, Equatable {
    /// The entry point returned: `bound` bindings were made; `thrown` is what it threw.
    case completed(bound: Int, thrown: HostEvent.ThrownError?)
    /// The library or its entry point could not be loaded.
    case couldNotRun(String)
    /// The host died while the cell ran; `message` is the runtime's last words.
    case crashed(message: String?, status: ExitStatus)
    /// The cell did not stop within the grace period after an interrupt; its host was killed.
    case killedAfterInterrupt
    /// Interrupted before it started to run: nothing ran.
    case interruptedBeforeRun
    /// No host could run it.
    case hostUnavailable(String)
}

/// Reads a running cell's output from its sink on the shell thread: streams text to the
/// notebook as it arrives (without the runtime's stack frames or generated names), shows
/// displays and the result, answers input requests, and returns how the run ended.
struct CellRunReader {
    let sink: CellRunSink
    let output: CellOutput
    /// Sends the answer to an input request to the host.
    let answerInput: (InputReply) -> Void

    func read() -> CellRunOutcome {
        var standardOutput = UTF8Stream(), standardError = UTF8Stream()
        var traceFilter = StackTraceFilter()
        var errorTail = ""
        var bound = 0
        var thrown: HostEvent.ThrownError?
        func showError(_ text: String) {
            guard !text.isEmpty else { return }
            output.stream(name: "stderr", text: text)
            errorTail = String((errorTail + text).suffix(4000))
        }
        while true {
            switch sink.next() {
            case .output(.standardOutput(let bytes)):
                let text = standardOutput.append(bytes)
                if !text.isEmpty { output.stream(name: "stdout", text: text) }
            case .output(.standardError(let bytes)):
                showError(traceFilter.append(standardError.append(bytes)))
            case .output(.event(let event)):
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
                    showError("could not load \(library): \(message)\n")
                case .done, .synced:
                    break
                }
            case .output(.protocolError(let message)):
                showError(message + "\n")
            case .output(.exited):
                break
            case .end(let end):
                showError(traceFilter.flush())
                switch end {
                case .returned(.returned): return .completed(bound: bound, thrown: thrown)
                case .returned(.couldNotRun(let message)): return .couldNotRun(message)
                case .hostExited(_, afterInterrupt: true): return .killedAfterInterrupt
                case .hostExited(let status, afterInterrupt: false):
                    return .crashed(message: Self.runtimeMessage(in: errorTail), status: status)
                case .interruptedBeforeRun: return .interruptedBeforeRun
                case .hostUnavailable(let reason): return .hostUnavailable(reason)
                }
            }
        }
    }

    /// The Swift runtime's message from what a crashed host wrote last to standard error
    /// (`Fatal error: Index out of range`), or nil.
    static func runtimeMessage(in tail: String) -> String? {
        let lines = tail.split(separator: "\n").map(String.init)
        let markers = ["Fatal error", "fatal error", "Precondition failed", "Assertion failed"]
        return lines.last { line in markers.contains { line.contains($0) } }.map(NameScrubber.userFacing)
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
