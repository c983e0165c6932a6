import SystemSupport
import CellSource
import Foundation
import HostProtocol

/// Why the cell parser gave no analysis.
enum CellParserError: Error, Sendable, Equatable {
    /// The parser refused the text; the message says why.
    case refused(String)
    /// The parse did not finish in time; the parser was killed.
    case timedOut(seconds: Double, nesting: NestingScan)
    /// The parser process ended while parsing (for example a stack overflow).
    case crashed(ExitStatus)
    /// The cell was interrupted while parsing.
    case cancelled
    /// The parser could not be started or spoken to.
    case unavailable(String)
}

/// The kernel's side of the cell parser process (`benchbook-cell-parser`): parses cells
/// there, so cell text can never crash or freeze the kernel, and keeps each parse bounded
/// in time and interruptible.
///
/// The process starts on first use and is kept; one that is killed (timeout, interrupt) or
/// crashes is started again on the next request.
///
/// Thread rules: requests come from one thread at a time (the kernel's shell thread);
/// a ``CellCancellation`` passed in may be cancelled from any thread.
final class CellParserClient: @unchecked Sendable {
    /// How long a cell's parse may take: normal cells take milliseconds; text that makes
    /// Swift's parser slow (deeply nested square brackets, slow at a few kilobytes) is
    /// refused after 1.5 s. A long cell gets 0.1 s more per megabyte: a 50 MB cell (a
    /// pasted data dump, `test_fifty_megabyte_message`) was refused under load with a flat
    /// bound.
    static func timeout(forBytes count: Int) -> Double {
        1.5 + Double(count) / 10_000_000
    }
    /// The parser's memory cap.
    static let limits = ResourceLimits(addressSpaceBytes: 4 << 30)

    private let executable: String
    private var process: ChildProcess?
    private var toParser: FileDescriptor?
    private var fromParser: FileDescriptor?

    /// Creates a client; the parser starts on the first request.
    /// - Parameter executable: `benchbook-cell-parser`.
    init(executable: String) {
        self.executable = executable
    }

    deinit { stop() }

    /// Starts the parser ahead of the first cell.
    func warmUp() { try? ensureRunning() }

    /// Parses and classifies a cell.
    /// - Parameter marksTypes: add `@usableFromInline` to its types and overridable class
    ///   members (see ``CellEngine``, which compiles without when they do not compile).
    /// - Throws: ``CellParserError``.
    func analyze(_ source: String, bindingsAreLocal: Bool, marksTypes: Bool = true,
                 cancellation: CellCancellation?) throws(CellParserError) -> CellAnalysis {
        switch try request(.analyze(source: source, bindingsAreLocal: bindingsAreLocal, marksTypes: marksTypes), source: source,
                           cancellation: cancellation) {
        case .analysis(let analysis): return analysis
        case .rejected(let message): throw .refused(message)
        case .completeness: throw .unavailable("the parser answered another question")
        }
    }

    /// Whether code is ready to run; `.unknown` when the parser cannot tell.
    func completeness(of code: String) -> Completeness {
        guard case .completeness(let answer)? = try? request(.completeness(code: code), source: code, cancellation: nil) else {
            return .unknown
        }
        return answer
    }

    /// Stops the parser process.
    func stop() {
        process?.kill()
        process = nil
        toParser?.close()
        fromParser?.close()
        toParser = nil
        fromParser = nil
    }

    private func ensureRunning() throws(CellParserError) {
        if process != nil { return }
        do {
            let connection = try ChildProcess.connected(.init(executable: executable, limits: Self.limits))
            process = connection.process
            toParser = connection.input
            fromParser = connection.output
            connection.output.setNonBlocking()
        } catch {
            throw .unavailable(error.description)
        }
    }

    private func request(_ request: ParserRequest, source: String,
                         cancellation: CellCancellation?) throws(CellParserError) -> ParserResponse {
        try ensureRunning()
        guard let process, let toParser, let fromParser else { throw .unavailable("no parser") }
        cancellation?.track(process)
        defer { cancellation?.untrack() }
        do {
            let body = try JSONEncoder().encode(request)
            try toParser.write(all: Framing.frame(body))
        } catch {
            try failed(process, cancellation: cancellation, source: source, timedOut: nil)
        }
        let timeout = Self.timeout(forBytes: source.utf8.count)
        let deadline = ContinuousClock.now + .seconds(timeout)
        var decoder = Framing.Decoder()
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { try failed(process, cancellation: cancellation, source: source, timedOut: timeout) }
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000, 60_000))
            _ = try? FileDescriptor.poll([fromParser], timeout: max(1, milliseconds))
            switch try? fromParser.read() {
            case .bytes(let bytes)?:
                guard let payloads = try? decoder.append(bytes) else {
                    try failed(process, cancellation: cancellation, source: source, timedOut: nil)
                }
                if let payload = payloads.first {
                    guard let response = try? JSONDecoder().decode(ParserResponse.self, from: Data(payload)) else {
                        try failed(process, cancellation: cancellation, source: source, timedOut: nil)
                    }
                    return response
                }
            case .wouldBlock?:
                continue
            case .endOfFile?, nil:
                try failed(process, cancellation: cancellation, source: source, timedOut: nil)
            }
        }
    }

    /// Stops a parser that did not answer and says why.
    /// - Parameter timedOut: the bound it exceeded, or nil when it failed otherwise.
    private func failed(_ process: ChildProcess, cancellation: CellCancellation?, source: String,
                        timedOut: Double?) throws(CellParserError) -> Never {
        process.kill()
        let status = process.waitForExit()
        stop()
        if cancellation?.isCancelled == true { throw .cancelled }
        if let timedOut { throw .timedOut(seconds: timedOut, nesting: NestingScan(source)) }
        throw .crashed(status)
    }
}
