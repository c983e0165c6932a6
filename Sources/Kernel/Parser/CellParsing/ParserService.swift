import SystemSupport
import CellSource
import Foundation
import HelperProtocol

/// The cell parser's side of its helper process: JSON requests and answers in
/// ``HelperService``'s frames, one at a time, until the kernel closes the pipe.
///
/// Runs in its own process (`benchbook-cell-parser`) so that a cell whose parse overflows
/// the stack, or takes exponential time, costs the kernel a restarted helper and an error
/// message, never its own life. Requests are parsed on a thread with a large stack; text
/// nested deeper than ``NestingScan/limit`` is refused without parsing.
public enum ParserService {
    /// The stack of the parsing thread: SwiftParser recurses once or more per nesting level.
    public static let stackSize = 512 << 20

    /// Serves until standard input closes (``HelperService``); never returns.
    public static func serveForever() -> Never {
        let thread = Thread {
            HelperService.serve { payload in
                let response: ParserResponse
                do {
                    response = answer(try ParserRequest(payload: payload))
                } catch {
                    response = .rejected("the cell parser could not read the request: \(error)")
                }
                return response.payload
            }
        }
        thread.stackSize = stackSize
        thread.start()
        while true { sleep(3600) }
    }

    /// The answer to one request.
    public static func answer(_ request: ParserRequest) -> ParserResponse {
        switch request {
        case .analyze(let source, let bindingsAreLocal, let marksTypes):
            if let refusal = NestingScan(source).refusal { return .rejected(refusal) }
            return .analysis(CellAnalysis(parsing: source, bindingsAreLocal: bindingsAreLocal, marksTypes: marksTypes))
        case .completeness(let code):
            if NestingScan(code).refusal != nil { return .completeness(.invalid) }
            return .completeness(Completeness(parsing: code))
        }
    }
}
