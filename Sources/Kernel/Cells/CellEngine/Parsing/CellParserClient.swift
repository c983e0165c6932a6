import SystemSupport
import CellSource
import Foundation
import HelperProtocol

/// Why the cell parser gave no analysis.
enum CellParserError: Error, Sendable, Equatable {
    /// The parser refused the text; the message says why.
    case refused(String)
    /// The parse used its processor time (`seconds`) without finishing; the parser was killed.
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
/// in processor time and interruptible.
///
/// The process is a ``HelperProcess``: it starts on first use and is kept; one that is
/// killed (timeout, interrupt) or crashes is started again on the next request.
///
/// Thread rules: requests come from one thread at a time (the kernel's shell thread);
/// a ``CellCancellation`` passed in may be cancelled from any thread.
final class CellParserClient: Sendable {
    /// How much processor time a cell's parse may use: normal cells take milliseconds; text
    /// that makes Swift's parser slow (deeply nested square brackets, slow at a few
    /// kilobytes) is refused after 1.5 s of it. A long cell gets 0.1 s more per megabyte (a
    /// 50 MB cell, a pasted data dump). Processor time, not wall time: measured in wall
    /// time, whether a cell ran depended on what else the machine ran (a 200k-element list
    /// that parses alone was refused at load 3.5).
    static func processorBudget(forBytes count: Int) -> Double {
        1.5 + Double(count) / 10_000_000
    }

    /// The wall-clock guard against a parser that hangs without using the processor:
    /// ten times the budget, and 30 s more, so that no load stops a parse within its budget.
    static func hangGuard(forBudget budget: Double) -> Double {
        30 + 10 * budget
    }
    /// The parser's memory cap.
    static let limits = ResourceLimits(addressSpaceBytes: 4 << 30)

    private let helper: HelperProcess

    /// Creates a client; the parser starts on the first request.
    /// - Parameter executable: `benchbook-cell-parser`.
    init(executable: String) {
        helper = HelperProcess(name: "the cell parser", configuration: .init(executable: executable, limits: Self.limits))
    }

    /// Starts the parser ahead of the first cell.
    func warmUp() { helper.warmUp() }

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
    func stop() { helper.stop() }

    private func request(_ request: ParserRequest, source: String,
                         cancellation: CellCancellation?) throws(CellParserError) -> ParserResponse {
        let budget = Self.processorBudget(forBytes: source.utf8.count)
        let answer: [UInt8]
        do throws(HelperProcess.ExchangeError) {
            answer = try helper.exchange(request.payload,
                                         deadline: .now + .milliseconds(Int64(Self.hangGuard(forBudget: budget) * 1000)),
                                         processorSeconds: budget, tracker: cancellation)
        } catch {
            if cancellation?.isCancelled == true { throw .cancelled }
            switch error {
            case .unavailable(let reason): throw .unavailable(reason.description)
            case .timedOut: throw .timedOut(seconds: budget, nesting: NestingScan(source))
            case .ended(let status): throw .crashed(status)
            }
        }
        guard let response = try? ParserResponse(payload: answer) else {
            throw .crashed(helper.stop() ?? .exited(code: 1))
        }
        return response
    }
}
