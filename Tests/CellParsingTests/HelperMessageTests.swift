import CellParsing
import CellSource
import Foundation
import HelperProtocol
import JSONCore
import SystemSupport
import XCTest

/// The parser's and compiler's messages through JSONCore: every cell of the Swift corpus
/// analysed and read back equal, answers of every kind, and requests that say what is
/// missing when a member is.
final class HelperMessageTests: XCTestCase {
    /// The cells of Tests/Corpus/*.swift (split at `//% cell`).
    static let corpusCells: [String] = {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path))?.filter { $0.hasSuffix(".swift") }.sorted() ?? []
        return files.flatMap { file -> [String] in
            let text = (try? String(contentsOf: corpus.appendingPathComponent(file), encoding: .utf8)) ?? ""
            return text.components(separatedBy: "//% cell\n").dropFirst().map { $0 }
        }
    }()

    func testEveryCorpusCellsAnalysisReadsBackEqual() throws {
        XCTAssertGreaterThan(Self.corpusCells.count, 100)
        var kinds = Set<String>()
        for cell in Self.corpusCells {
            for (local, marks) in [(false, true), (true, false)] {
                let response = ParserResponse.analysis(CellAnalysis(parsing: cell, bindingsAreLocal: local, marksTypes: marks))
                XCTAssertEqual(try ParserResponse(payload: response.payload), response, cell)
                if case .analysis(let analysis) = response {
                    analysis.items.forEach { kinds.insert($0.json["item"]?.stringValue ?? "") }
                }
            }
            let request = ParserRequest.analyze(source: cell, bindingsAreLocal: true, marksTypes: false)
            XCTAssertEqual(try ParserRequest(payload: request.payload), request)
        }
        // The corpus reaches every kind of item, so each one's JSON was read back.
        XCTAssertEqual(kinds, ["declaration", "module_wide_declaration", "binding", "local_scope", "unset_binding",
                               "statement", "result", "import"])
    }

    func testEveryAnswerKindReadsBackEqual() throws {
        let parserAnswers: [ParserResponse] = [
            .completeness(.complete), .completeness(.incomplete(indent: "    ")), .completeness(.invalid),
            .completeness(.unknown), .rejected("nested \"too\" deep\n\u{1F600}"),
            .analysis(CellAnalysis(parsing: "struct $bad {}\nlet x = 1 +")),
        ]
        for answer in parserAnswers { XCTAssertEqual(try ParserResponse(payload: answer.payload), answer) }
        XCTAssertEqual(try ParserRequest(payload: ParserRequest.completeness(code: "for x in y {").payload), .completeness(code: "for x in y {"))
        let compilerAnswers: [CompileResponse] = [.succeeded, .failed(diagnostics: "a.swift:1:1: error: é"), .unavailable("no SourceKit")]
        for answer in compilerAnswers { XCTAssertEqual(try CompileResponse(payload: answer.payload), answer) }
        let request = CompileRequest(arguments: ["-c", "/tmp/cell 1.swift", "-module-name", "Cell1", "-O"])
        XCTAssertEqual(try CompileRequest(payload: request.payload), request)
    }

    func testAMessageMissingAMemberSaysWhich() {
        XCTAssertThrowsError(try ParserRequest(payload: Array(#"{"request":"analyze","source":"x","marks_types":true}"#.utf8))) {
            XCTAssertEqual($0 as? FramingError, .unknownMessage("a message without a boolean `bindings_are_local`"))
        }
        XCTAssertThrowsError(try CompileResponse(payload: Array(#"{"response":"compiled"}"#.utf8))) {
            XCTAssertEqual($0 as? FramingError, .unknownMessage("a compiler answer of kind compiled"))
        }
        XCTAssertThrowsError(try CompileRequest(payload: Array(#"{"arguments":["-c",3]}"#.utf8))) {
            XCTAssertEqual($0 as? FramingError, .unknownMessage("a message whose `arguments` holds a non-string"))
        }
        XCTAssertThrowsError(try ParserResponse(payload: Array("not json".utf8))) { XCTAssert($0 is JSONParseError) }
    }
}
