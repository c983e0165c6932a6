import Foundation
import JupyterWire

/// One `run` command: sends it, forwards output until the host reports `done` or dies.
struct HostRun {
    enum Outcome {
        /// The entry point returned. `bound` bindings were made; `thrown` is set when the
        /// cell threw; `loaderError` when the library could not be loaded.
        case completed(bound: Int, thrown: (name: String, value: String)?, loaderError: String?)
        /// The host died; `message` is the runtime's last words on stderr.
        case crashed(message: String)
    }

    let host: HostProcess
    let output: CellOutput

    func run(library: URL, symbol: String) -> Outcome {
        guard host.send("run\t\(library.path)\t\(symbol)") else { return drainAfterCrash(stderr: "") }
        var framer = EventFramer()
        var stdoutText = UTF8Stream()
        var stderrText = UTF8Stream()
        var stderrTail = ""
        var traceFilter = StackTraceFilter()
        var bound = 0
        var thrown: (name: String, value: String)?
        while true {
            let (chunks, closed) = host.poll(milliseconds: 200)
            for (channel, bytes) in chunks {
                switch channel {
                case .stdout:
                    let text = stdoutText.append(bytes)
                    if !text.isEmpty { output.stream(name: "stdout", text: text) }
                case .stderr:
                    let text = traceFilter.append(stderrText.append(bytes))
                    if !text.isEmpty {
                        output.stream(name: "stderr", text: text)
                        stderrTail = String((stderrTail + text).suffix(4000))
                    }
                case .events:
                    for event in framer.append(bytes) {
                        switch event {
                        case .display(let data, let metadata, let id, let isUpdate):
                            output.display(data: data, metadata: metadata, displayID: id, isUpdate: isUpdate)
                        case .result(let data, let metadata):
                            output.result(data: data, metadata: metadata)
                        case .clearOutput(let wait):
                            output.clearOutput(wait: wait)
                        case .inputRequest(let prompt, let password):
                            answerInput(prompt: prompt, password: password)
                        case .finished(let count, let error):
                            bound = count
                            thrown = error
                        case .done(let status, let error):
                            let held = traceFilter.flush()
                            if !held.isEmpty { output.stream(name: "stderr", text: held) }
                            if status < 0 { return .completed(bound: 0, thrown: nil, loaderError: error ?? "the cell library could not be run") }
                            return .completed(bound: bound, thrown: thrown, loaderError: nil)
                        case .loadFailed(let error):
                            output.stream(name: "stderr", text: "could not reload an earlier cell: \(error)\n")
                        case .unknown:
                            break
                        }
                    }
                }
            }
            if chunks.isEmpty {
                let held = traceFilter.flush()
                if !held.isEmpty {
                    output.stream(name: "stderr", text: held)
                    stderrTail = String((stderrTail + held).suffix(4000))
                }
            }
            if closed || (chunks.isEmpty && !host.isAlive()) { return drainAfterCrash(stderr: stderrTail) }
        }
    }

    private func answerInput(prompt: String, password: Bool) {
        let reply: JSONValue
        if let value = output.requestInput(prompt: prompt, password: password) {
            reply = ["value": .string(value)]
        } else {
            reply = ["error": "not allowed"]
        }
        let line = (try? JSONEncoder().encode(reply)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        host.send(line)
    }

    /// The runtime's message from what the host wrote last to stderr.
    private func drainAfterCrash(stderr tail: String) -> Outcome {
        let lines = tail.split(separator: "\n").map(String.init)
        let fatal = lines.last { $0.contains("Fatal error") || $0.contains("fatal error") || $0.contains("Precondition failed") || $0.contains("Assertion failed") }
        let message = fatal ?? lines.last ?? "the cell host stopped without a message"
        return .crashed(message: CellCompiler.cleaned(message))
    }
}
